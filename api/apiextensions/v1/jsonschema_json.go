package v1

import (
	"bytes"
	"encoding/json"
	"errors"
)

// The helper types encode as the JSON they stand for, not as structs.
// Their quirks are upstream's and kept on purpose: an array of schemas
// decodes into JSONSchemaPropsOrArray but anything other than an object
// or array is silently dropped; null decodes into an empty JSON.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1/marshal.go.

var (
	jsonTrue  = []byte("true")
	jsonFalse = []byte("false")
	jsonNull  = []byte("null")
)

// MarshalJSON writes the raw value, or null when there is none.
func (s JSON) MarshalJSON() ([]byte, error) {
	if len(s.Raw) > 0 {
		return s.Raw, nil
	}
	return jsonNull, nil
}

// UnmarshalJSON keeps a copy of data; null leaves s unchanged.
func (s *JSON) UnmarshalJSON(data []byte) error {
	if len(data) > 0 && !bytes.Equal(data, jsonNull) {
		s.Raw = append(s.Raw[0:0], data...)
	}
	return nil
}

// MarshalJSON writes the schema when there is one, else true or false.
func (s JSONSchemaPropsOrBool) MarshalJSON() ([]byte, error) {
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	if !s.Allows {
		return jsonFalse, nil
	}
	return jsonTrue, nil
}

// UnmarshalJSON reads a schema (which allows), true or false; anything
// else is an error.
func (s *JSONSchemaPropsOrBool) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrBool
	switch {
	case len(data) == 0:
	case data[0] == '{':
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Allows = true
		nw.Schema = &sch
	case bytes.Equal(data, jsonTrue):
		nw.Allows = true
	case bytes.Equal(data, jsonFalse):
		nw.Allows = false
	default:
		return errors.New("boolean or JSON schema expected")
	}
	*s = nw
	return nil
}

// MarshalJSON writes the property names when there are any, else the
// schema, else null.
func (s JSONSchemaPropsOrStringArray) MarshalJSON() ([]byte, error) {
	if len(s.Property) > 0 {
		return json.Marshal(s.Property)
	}
	if s.Schema != nil {
		return json.Marshal(s.Schema)
	}
	return jsonNull, nil
}

// UnmarshalJSON reads a schema or an array of names; anything else
// leaves s empty.
func (s *JSONSchemaPropsOrStringArray) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrStringArray
	switch firstByte(data) {
	case '{':
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Schema = &sch
	case '[':
		if err := json.Unmarshal(data, &nw.Property); err != nil {
			return err
		}
	}
	*s = nw
	return nil
}

// MarshalJSON writes the array when there are several schemas, else the
// schema (null when there is none).
func (s JSONSchemaPropsOrArray) MarshalJSON() ([]byte, error) {
	if len(s.JSONSchemas) > 0 {
		return json.Marshal(s.JSONSchemas)
	}
	return json.Marshal(s.Schema)
}

// UnmarshalJSON reads a schema or an array of schemas; anything else
// leaves s empty.
func (s *JSONSchemaPropsOrArray) UnmarshalJSON(data []byte) error {
	var nw JSONSchemaPropsOrArray
	switch firstByte(data) {
	case '{':
		var sch JSONSchemaProps
		if err := json.Unmarshal(data, &sch); err != nil {
			return err
		}
		nw.Schema = &sch
	case '[':
		if err := json.Unmarshal(data, &nw.JSONSchemas); err != nil {
			return err
		}
	}
	*s = nw
	return nil
}

// firstByte is data's first byte when data holds more than one, as
// upstream checks: a lone "{" is not an object.
func firstByte(data []byte) byte {
	if len(data) > 1 {
		return data[0]
	}
	return 0
}
