package unstructured

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Unstructured is an object of any kind. Content holds every top-level
// field but apiVersion, kind and metadata, as decoded JSON: maps are
// map[string]any, arrays []any, integers int64 and other numbers float64,
// so a value reads the same whether it came from a client or from etcd.
//
// The struct tags are not used for encoding (MarshalJSON is); they name
// the fields as generic code that reads tags expects (the registry's
// spec-change check skips "metadata").
type Unstructured struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Content           map[string]any `json:"-"`
}

var _ metav1.Object = (*Unstructured)(nil)

// DeepCopyObject implements runtime.Object.
func (u *Unstructured) DeepCopyObject() runtime.Object { return runtime.DeepCopy(u) }

// DeepCopy returns a deep copy.
func (u *Unstructured) DeepCopy() *Unstructured { return runtime.DeepCopy(u) }

// GroupVersionKind is the kind the object says it is.
func (u *Unstructured) GroupVersionKind() runtime.GroupVersionKind {
	return runtime.ParseGroupVersion(u.APIVersion).WithKind(u.Kind)
}

// MarshalJSON writes the object as one JSON object: apiVersion, kind,
// metadata and the fields of Content. A Content key named like one of the
// first three is ignored: those come from the typed fields.
func (u Unstructured) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(u.Content)+3)
	for k, v := range u.Content {
		m[k] = v
	}
	delete(m, "apiVersion")
	delete(m, "kind")
	if u.APIVersion != "" {
		m["apiVersion"] = u.APIVersion
	}
	if u.Kind != "" {
		m["kind"] = u.Kind
	}
	m["metadata"] = u.ObjectMeta
	return json.Marshal(m)
}

// UnmarshalJSON reads a JSON object into u, replacing what it held.
// apiVersion and kind must be strings and metadata an object (or null);
// anything else is an error, never a panic.
func (u *Unstructured) UnmarshalJSON(data []byte) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(data, &fields); err != nil {
		return err
	}
	if fields == nil {
		return errors.New("unstructured: the object is null")
	}
	*u = Unstructured{}
	for _, name := range []string{"apiVersion", "kind"} {
		raw, ok := fields[name]
		if !ok {
			continue
		}
		delete(fields, name)
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return fmt.Errorf("unstructured: %s must be a string", name)
		}
		if name == "kind" {
			u.Kind = s
		} else {
			u.APIVersion = s
		}
	}
	if raw, ok := fields["metadata"]; ok {
		delete(fields, "metadata")
		if err := json.Unmarshal(raw, &u.ObjectMeta); err != nil {
			return fmt.Errorf("unstructured: metadata: %w", err)
		}
	}
	if len(fields) == 0 {
		return nil
	}
	u.Content = make(map[string]any, len(fields))
	for k, raw := range fields {
		v, err := DecodeValue(raw)
		if err != nil {
			return fmt.Errorf("unstructured: %s: %w", k, err)
		}
		u.Content[k] = v
	}
	return nil
}

// DecodeValue decodes one JSON value the way Unstructured holds values:
// integers as int64, other numbers as float64.
func DecodeValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return convertNumbers(v), nil
}

// convertNumbers replaces json.Number by int64 or float64, in place.
func convertNumbers(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, e := range t {
			t[k] = convertNumbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = convertNumbers(e)
		}
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			// Too large for a float64 too: keep the digits.
			return string(t)
		}
		return f
	}
	return v
}

// UnstructuredList is a list of objects of any one kind.
type UnstructuredList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Unstructured `json:"items"`
}

// DeepCopyObject implements runtime.Object.
func (l *UnstructuredList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }
