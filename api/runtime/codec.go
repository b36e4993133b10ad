package runtime

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"sigs.k8s.io/yaml"
)

// Decode reads JSON or YAML into `into`, dropping fields the Go type does
// not have, and returns the JSON paths of those unknown fields
// ("spec.containers[0].imagePullSecret") so the caller can reject them
// (fieldValidation=Strict), warn about them (Warn, the server default) or
// ignore them, as the Kubernetes API server does.
func Decode(data []byte, into Object) (unknownFields []string, err error) {
	data = bytes.TrimSpace(data)
	if len(data) == 0 {
		return nil, fmt.Errorf("empty request body")
	}
	if data[0] != '{' && data[0] != '[' {
		if data, err = yaml.YAMLToJSON(data); err != nil {
			return nil, fmt.Errorf("decode yaml: %w", err)
		}
	}
	t := reflect.TypeOf(into)
	if t != nil && allFieldsKnown(data, t) {
		// Nothing to report or drop, so the generic parse below would
		// only cost time. Malformed JSON fails here as it does there:
		// json.Unmarshal checks the whole document before decoding.
		if err := json.Unmarshal(data, into); err != nil {
			return nil, fmt.Errorf("decode json: %w", err)
		}
		return nil, nil
	}
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return nil, fmt.Errorf("decode json: %w", err)
	}
	unknown := UnknownFields(generic, t)
	if len(unknown) > 0 {
		// encoding/json matches keys case-insensitively, so "Spec" would
		// fill spec (and "NAME" override "name") while being reported
		// unknown. Kubernetes decodes case-sensitively: drop them first.
		if data, err = withoutUnknownFields(data, t); err != nil {
			return nil, fmt.Errorf("decode json: %w", err)
		}
	}
	if err := json.Unmarshal(data, into); err != nil {
		return nil, fmt.Errorf("decode json: %w", err)
	}
	return unknown, nil
}

// withoutUnknownFields re-encodes data without the fields t does not have.
func withoutUnknownFields(data []byte, t reflect.Type) ([]byte, error) {
	f := unknownFilter{dec: json.NewDecoder(bytes.NewReader(data))}
	// Numbers stay json.Number so integers above 2^53 survive the re-encode.
	f.dec.UseNumber()
	if err := f.value(t); err != nil {
		return nil, err
	}
	return f.out.Bytes(), nil
}

// Encode writes obj as JSON.
func Encode(obj Object) ([]byte, error) {
	return json.Marshal(obj)
}

var (
	jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
)

// UnknownFields returns the paths in a decoded JSON value (from
// json.Unmarshal into any) that type t has no field for, sorted.
func UnknownFields(value any, t reflect.Type) []string {
	var out []string
	walkUnknown(value, t, "", &out)
	slices.Sort(out)
	return out
}

// walkUnknown appends the path of each field of value that t has no field
// for to out.
func walkUnknown(value any, t reflect.Type, path string, out *[]string) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	// Types that decode themselves (times, quantities, int-or-string) and
	// free-form values accept whatever they are given.
	if t == rawMessageType || t.Kind() == reflect.Interface || reflect.PointerTo(t).Implements(jsonUnmarshalerType) {
		return
	}
	switch v := value.(type) {
	case map[string]any:
		switch t.Kind() {
		case reflect.Map:
			for k, elem := range v {
				walkUnknown(elem, t.Elem(), joinPath(path, k), out)
			}
		case reflect.Struct:
			fields := jsonFields(t)
			for k, elem := range v {
				ft, ok := fields[k]
				if !ok {
					*out = append(*out, joinPath(path, k))
					continue
				}
				walkUnknown(elem, ft, joinPath(path, k), out)
			}
		}
	case []any:
		if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
			for i, elem := range v {
				walkUnknown(elem, t.Elem(), fmt.Sprintf("%s[%d]", path, i), out)
			}
		}
	}
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// fieldCache maps a struct type to its jsonFields: types are fixed, and
// working them out again on every request costs more than the decode.
var fieldCache sync.Map // reflect.Type -> map[string]reflect.Type

// jsonFields maps each JSON name of struct t to its field type, flattening
// embedded structs as encoding/json does.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if cached, ok := fieldCache.Load(t); ok {
		return cached.(map[string]reflect.Type)
	}
	fields := computeJSONFields(t)
	fieldCache.Store(t, fields)
	return fields
}

func computeJSONFields(t reflect.Type) map[string]reflect.Type {
	fields := map[string]reflect.Type{}
	for i := range t.NumField() {
		f := t.Field(i)
		tag := f.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Anonymous && (name == "" || strings.Contains(opts, "inline")) {
			ft := f.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				for k, v := range jsonFields(ft) {
					fields[k] = v
				}
				continue
			}
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		fields[name] = f.Type
	}
	return fields
}
