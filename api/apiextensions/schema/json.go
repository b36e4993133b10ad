package schema

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// DecodeJSON decodes raw JSON bytes into a value of the package's domain:
// number literals that parse as an int64 become int64, other numbers
// float64, as the API server decodes them (a custom resource body decoded
// with it is what Validate, Default and Prune expect). Empty bytes or
// null are nil.
//
// Upstream: k8s.io/apimachinery/pkg/util/json (Unmarshal, convertNumber).
func DecodeJSON(raw []byte) (any, error) {
	if len(bytes.TrimSpace(raw)) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("invalid JSON: data after the value")
	}
	return convertNumbers(v)
}

// convertNumbers replaces every json.Number in v.
func convertNumbers(v any) (any, error) {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i, nil
		}
		return v.Float64()
	case map[string]any:
		for k, e := range v {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			v[k] = c
		}
	case []any:
		for i, e := range v {
			c, err := convertNumbers(e)
			if err != nil {
				return nil, err
			}
			v[i] = c
		}
	}
	return v, nil
}

// deepCopyJSON copies a JSON value; values of other types are shared.
//
// Upstream: k8s.io/apimachinery/pkg/runtime (DeepCopyJSONValue).
func deepCopyJSON(v any) any {
	switch v := v.(type) {
	case map[string]any:
		if v == nil {
			return v
		}
		c := make(map[string]any, len(v))
		for k, e := range v {
			c[k] = deepCopyJSON(e)
		}
		return c
	case []any:
		if v == nil {
			return v
		}
		c := make([]any, len(v))
		for i, e := range v {
			c[i] = deepCopyJSON(e)
		}
		return c
	}
	return v
}
