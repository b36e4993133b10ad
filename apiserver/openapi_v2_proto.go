package apiserver

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"

	"google.golang.org/protobuf/encoding/protowire"
	"sigs.k8s.io/yaml"
)

// encodeOpenAPIV2 encodes a swagger 2.0 document, given as JSON, as the
// gnostic openapi_v2.Document protobuf message that client-go decodes
// from /openapi/v2. Only the part of the schema that minicp's documents
// use is encoded: the document's swagger, info, paths and definitions;
// path items with their operations and query and path parameters;
// responses with a schema; and schemas with every swagger 2.0 keyword
// but xml and externalDocs. A key outside that part is dropped. The
// output is the message gnostic's ParseDocument would build from the
// JSON: objects' keys in sorted order (encoding/json's), zero scalars
// left out (proto3), vendor extensions (x-...) as NamedAny entries whose
// value is YAML text.
//
// Upstream: k8s.io/kube-openapi/pkg/handler (ToProtoBinary), through
// github.com/google/gnostic-models/openapiv2 (OpenAPIv2.proto, whose
// field numbers are below).
func encodeOpenAPIV2(doc []byte) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	// Numbers stay as written, so defaults and enums keep their digits.
	dec.UseNumber()
	var m map[string]any
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("openapi v2 protobuf: %w", err)
	}
	var e protoEncoder
	return e.document(nil, m), e.err
}

// protoEncoder holds the first error of an encoding: a vendor
// extension or default that cannot be written as YAML.
type protoEncoder struct{ err error }

func (e *protoEncoder) document(b []byte, m map[string]any) []byte {
	b = appendString(b, 1, m["swagger"])
	b = e.message(b, 2, m["info"], e.info)
	b = e.message(b, 8, m["paths"], e.paths)
	b = e.message(b, 9, m["definitions"], func(b []byte, m map[string]any) []byte {
		return e.named(b, 1, m, e.schema)
	})
	return e.extensions(b, 16, m)
}

func (e *protoEncoder) info(b []byte, m map[string]any) []byte {
	b = appendString(b, 1, m["title"])
	b = appendString(b, 2, m["version"])
	b = appendString(b, 3, m["description"])
	return e.extensions(b, 7, m)
}

func (e *protoEncoder) paths(b []byte, m map[string]any) []byte {
	b = e.extensions(b, 1, m)
	for _, k := range sortedKeys(m) {
		if item, ok := m[k].(map[string]any); ok && !strings.HasPrefix(k, "x-") {
			b = appendBytes(b, 2, e.namedEntry(k, item, e.pathItem))
		}
	}
	return b
}

func (e *protoEncoder) pathItem(b []byte, m map[string]any) []byte {
	b = appendString(b, 1, m["$ref"])
	for i, method := range []string{"get", "put", "post", "delete", "options", "head", "patch"} {
		b = e.message(b, protowire.Number(2+i), m[method], e.operation)
	}
	b = e.parameters(b, 9, m["parameters"])
	return e.extensions(b, 10, m)
}

func (e *protoEncoder) operation(b []byte, m map[string]any) []byte {
	b = appendStrings(b, 1, m["tags"])
	b = appendString(b, 2, m["summary"])
	b = appendString(b, 3, m["description"])
	b = appendString(b, 5, m["operationId"])
	b = appendStrings(b, 6, m["produces"])
	b = appendStrings(b, 7, m["consumes"])
	b = e.parameters(b, 8, m["parameters"])
	b = e.message(b, 9, m["responses"], e.responses)
	b = appendStrings(b, 10, m["schemes"])
	b = appendBool(b, 11, m["deprecated"])
	return e.extensions(b, 13, m)
}

// parameters writes ParametersItem{Parameter{NonBodyParameter{...}}}
// for each query or path parameter.
func (e *protoEncoder) parameters(b []byte, num protowire.Number, v any) []byte {
	list, _ := v.([]any)
	for _, p := range list {
		m, ok := p.(map[string]any)
		if !ok {
			continue
		}
		var sub []byte
		switch m["in"] {
		case "query":
			sub = appendBytes(nil, 3, e.queryParameter(nil, m))
		case "path":
			sub = appendBytes(nil, 4, e.pathParameter(nil, m))
		default:
			continue
		}
		param := appendBytes(nil, 2, sub)
		b = appendBytes(b, num, appendBytes(nil, 1, param))
	}
	return b
}

func (e *protoEncoder) queryParameter(b []byte, m map[string]any) []byte {
	b = appendBool(b, 1, m["required"])
	b = appendString(b, 2, m["in"])
	b = appendString(b, 3, m["description"])
	b = appendString(b, 4, m["name"])
	b = appendString(b, 6, m["type"])
	b = appendString(b, 7, m["format"])
	b = appendBool(b, 20, m["uniqueItems"])
	return e.extensions(b, 23, m)
}

func (e *protoEncoder) pathParameter(b []byte, m map[string]any) []byte {
	b = appendBool(b, 1, m["required"])
	b = appendString(b, 2, m["in"])
	b = appendString(b, 3, m["description"])
	b = appendString(b, 4, m["name"])
	b = appendString(b, 5, m["type"])
	b = appendString(b, 6, m["format"])
	b = appendBool(b, 19, m["uniqueItems"])
	return e.extensions(b, 22, m)
}

// responses writes Responses: each code's ResponseValue{Response}.
func (e *protoEncoder) responses(b []byte, m map[string]any) []byte {
	for _, code := range sortedKeys(m) {
		r, ok := m[code].(map[string]any)
		if !ok || strings.HasPrefix(code, "x-") {
			continue
		}
		b = appendBytes(b, 1, e.namedEntry(code, r, func(b []byte, r map[string]any) []byte {
			return appendBytes(b, 1, e.response(nil, r))
		}))
	}
	return e.extensions(b, 2, m)
}

func (e *protoEncoder) response(b []byte, m map[string]any) []byte {
	b = appendString(b, 1, m["description"])
	b = e.message(b, 2, m["schema"], func(b []byte, s map[string]any) []byte {
		return appendBytes(b, 1, e.schema(nil, s))
	})
	return e.extensions(b, 5, m)
}

// schema writes a Schema message.
func (e *protoEncoder) schema(b []byte, m map[string]any) []byte {
	b = appendString(b, 1, m["$ref"])
	b = appendString(b, 2, m["format"])
	b = appendString(b, 3, m["title"])
	b = appendString(b, 4, m["description"])
	b = e.anyValue(b, 5, m, "default")
	b = appendDouble(b, 6, m["multipleOf"])
	b = appendDouble(b, 7, m["maximum"])
	b = appendBool(b, 8, m["exclusiveMaximum"])
	b = appendDouble(b, 9, m["minimum"])
	b = appendBool(b, 10, m["exclusiveMinimum"])
	b = appendInt64(b, 11, m["maxLength"])
	b = appendInt64(b, 12, m["minLength"])
	b = appendString(b, 13, m["pattern"])
	b = appendInt64(b, 14, m["maxItems"])
	b = appendInt64(b, 15, m["minItems"])
	b = appendBool(b, 16, m["uniqueItems"])
	b = appendInt64(b, 17, m["maxProperties"])
	b = appendInt64(b, 18, m["minProperties"])
	b = appendStrings(b, 19, m["required"])
	if enum, ok := m["enum"].([]any); ok {
		for _, v := range enum {
			b = appendBytes(b, 20, e.anyMessage(v))
		}
	}
	switch ap := m["additionalProperties"].(type) {
	case map[string]any:
		b = appendBytes(b, 21, appendBytes(nil, 1, e.schema(nil, ap)))
	case bool:
		// A oneof member is written even when false.
		b = appendBytes(b, 21, protowire.AppendVarint(protowire.AppendTag(nil, 2, protowire.VarintType), protowire.EncodeBool(ap)))
	}
	switch t := m["type"].(type) {
	case string:
		b = appendBytes(b, 22, appendStrings(nil, 1, []any{t}))
	case []any:
		b = appendBytes(b, 22, appendStrings(nil, 1, t))
	}
	switch items := m["items"].(type) {
	case map[string]any:
		b = appendBytes(b, 23, appendBytes(nil, 1, e.schema(nil, items)))
	case []any:
		var list []byte
		for _, it := range items {
			if s, ok := it.(map[string]any); ok {
				list = appendBytes(list, 1, e.schema(nil, s))
			}
		}
		b = appendBytes(b, 23, list)
	}
	if all, ok := m["allOf"].([]any); ok {
		for _, it := range all {
			if s, ok := it.(map[string]any); ok {
				b = appendBytes(b, 24, e.schema(nil, s))
			}
		}
	}
	b = e.message(b, 25, m["properties"], func(b []byte, props map[string]any) []byte {
		return e.named(b, 1, props, e.schema)
	})
	b = appendString(b, 26, m["discriminator"])
	b = appendBool(b, 27, m["readOnly"])
	b = e.anyValue(b, 30, m, "example")
	return e.extensions(b, 31, m)
}

// named writes one Named<Message>{name, value} entry per key of m.
func (e *protoEncoder) named(b []byte, num protowire.Number, m map[string]any, value func([]byte, map[string]any) []byte) []byte {
	for _, k := range sortedKeys(m) {
		if v, ok := m[k].(map[string]any); ok {
			b = appendBytes(b, num, e.namedEntry(k, v, value))
		}
	}
	return b
}

func (e *protoEncoder) namedEntry(name string, v map[string]any, value func([]byte, map[string]any) []byte) []byte {
	b := appendString(nil, 1, name)
	return appendBytes(b, 2, value(nil, v))
}

// extensions writes m's x- keys as NamedAny entries.
func (e *protoEncoder) extensions(b []byte, num protowire.Number, m map[string]any) []byte {
	for _, k := range sortedKeys(m) {
		if strings.HasPrefix(k, "x-") {
			entry := appendString(nil, 1, k)
			b = appendBytes(b, num, appendBytes(entry, 2, e.anyMessage(m[k])))
		}
	}
	return b
}

// anyValue writes m[key], if present, as an Any message.
func (e *protoEncoder) anyValue(b []byte, num protowire.Number, m map[string]any, key string) []byte {
	v, ok := m[key]
	if !ok {
		return b
	}
	return appendBytes(b, num, e.anyMessage(v))
}

// anyMessage is gnostic's Any{yaml}: the value as YAML text, which is
// how clients read vendor extensions and defaults.
func (e *protoEncoder) anyMessage(v any) []byte {
	data, err := json.Marshal(v)
	if err == nil {
		data, err = yaml.JSONToYAML(data)
	}
	if err != nil && e.err == nil {
		e.err = fmt.Errorf("openapi v2 protobuf: %w", err)
	}
	return appendString(nil, 2, string(data))
}

// message writes v, when it is an object, as the sub-message fill
// makes of it; an empty object is still written, as gnostic writes it.
func (e *protoEncoder) message(b []byte, num protowire.Number, v any, fill func([]byte, map[string]any) []byte) []byte {
	m, ok := v.(map[string]any)
	if !ok {
		return b
	}
	return appendBytes(b, num, fill(nil, m))
}

func appendBytes(b []byte, num protowire.Number, v []byte) []byte {
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendBytes(b, v)
}

func appendString(b []byte, num protowire.Number, v any) []byte {
	s, _ := v.(string)
	if s == "" {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.BytesType)
	return protowire.AppendString(b, s)
}

func appendStrings(b []byte, num protowire.Number, v any) []byte {
	list, _ := v.([]any)
	for _, s := range list {
		if str, ok := s.(string); ok {
			b = protowire.AppendTag(b, num, protowire.BytesType)
			b = protowire.AppendString(b, str)
		}
	}
	return b
}

func appendBool(b []byte, num protowire.Number, v any) []byte {
	if t, _ := v.(bool); t {
		b = protowire.AppendTag(b, num, protowire.VarintType)
		b = protowire.AppendVarint(b, 1)
	}
	return b
}

func appendDouble(b []byte, num protowire.Number, v any) []byte {
	n, ok := v.(json.Number)
	if !ok {
		return b
	}
	f, err := n.Float64()
	if err != nil || f == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.Fixed64Type)
	return protowire.AppendFixed64(b, math.Float64bits(f))
}

func appendInt64(b []byte, num protowire.Number, v any) []byte {
	n, ok := v.(json.Number)
	if !ok {
		return b
	}
	i, err := n.Int64()
	if err != nil || i == 0 {
		return b
	}
	b = protowire.AppendTag(b, num, protowire.VarintType)
	return protowire.AppendVarint(b, uint64(i))
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
