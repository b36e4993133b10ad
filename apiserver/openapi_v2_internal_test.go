package apiserver

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

func TestOpenAPIV2SchemaOfCustomResource(t *testing.T) {
	tests := []struct {
		name     string
		in, want string
	}{
		{"swagger keywords kept", `{"type":"string","pattern":"^a","maxLength":3,"enum":["a"],"x-kubernetes-list-type":"set"}`,
			`{"type":"string","pattern":"^a","maxLength":3,"enum":["a"],"x-kubernetes-list-type":"set"}`},
		{"OpenAPI v3 only keywords dropped", `{"type":"object","oneOf":[{"required":["a"]}],"anyOf":[{}],"not":{},"externalDocs":{}}`,
			`{"type":"object"}`},
		{"described reference unwrapped", `{"description":"d","allOf":[{"$ref":"#/components/schemas/x.Y"}]}`,
			`{"description":"d","$ref":"#/definitions/x.Y"}`},
		{"other allOf dropped", `{"type":"integer","allOf":[{"minimum":1},{"maximum":3}]}`, `{"type":"integer"}`},
		{"nullable: any value", `{"type":"object","nullable":true,"properties":{"a":{"type":"string"}}}`, `{}`},
		{"nullable property no longer required", `{"type":"object","required":["a","b"],"properties":{"a":{"type":"string","nullable":true},"b":{"type":"string"}}}`,
			`{"type":"object","required":["b"],"properties":{"a":{},"b":{"type":"string"}}}`},
		{"unknown fields kept: any object", `{"type":"object","x-kubernetes-preserve-unknown-fields":true,"properties":{"a":{}}}`,
			`{"x-kubernetes-preserve-unknown-fields":true}`},
		{"array without items: any value", `{"type":"array"}`, `{}`},
		{"nested", `{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","additionalProperties":{"type":"string","nullable":true}}}}}`,
			`{"type":"object","properties":{"a":{"type":"array","items":{"type":"object","additionalProperties":{}}}}}`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var in, want map[string]any
			require.NoError(t, json.Unmarshal([]byte(tc.in), &in))
			require.NoError(t, json.Unmarshal([]byte(tc.want), &want))
			before, err := json.Marshal(in)
			require.NoError(t, err)
			assert.Equal(t, want, openAPIV2Schema(in), "openAPIV2Schema(%s)", tc.in)
			after, err := json.Marshal(in)
			require.NoError(t, err)
			assert.JSONEq(t, string(before), string(after), "the input is not modified")
		})
	}
}

// TestEncodeOpenAPIV2 checks the encoding of a few fields by hand; the
// compat/openapi module checks whole documents against gnostic's own
// decoding.
func TestEncodeOpenAPIV2(t *testing.T) {
	msg := func(fields ...[]byte) []byte {
		var b []byte
		for _, f := range fields {
			b = append(b, f...)
		}
		return b
	}
	str := func(num protowire.Number, s string) []byte {
		return protowire.AppendString(protowire.AppendTag(nil, num, protowire.BytesType), s)
	}
	sub := func(num protowire.Number, m []byte) []byte {
		return protowire.AppendBytes(protowire.AppendTag(nil, num, protowire.BytesType), m)
	}
	tests := []struct {
		name string
		doc  string
		want []byte
	}{
		{"swagger", `{"swagger":"2.0"}`, str(1, "2.0")},
		{"empty definitions are still written", `{"definitions":{}}`, sub(9, nil)},
		{"a definition's type, as a TypeItem", `{"definitions":{"a.B":{"type":"string"}}}`,
			sub(9, sub(1, msg(str(1, "a.B"), sub(2, sub(22, str(1, "string"))))))},
		{"vendor extension as YAML", `{"definitions":{"a.B":{"x-k":{"group":""}}}}`,
			sub(9, sub(1, msg(str(1, "a.B"), sub(2, sub(31, msg(str(1, "x-k"), sub(2, str(2, "group: \"\"\n"))))))))},
		{"zero scalars left out", `{"definitions":{"a.B":{"minimum":0,"uniqueItems":false,"format":""}}}`,
			sub(9, sub(1, msg(str(1, "a.B"), sub(2, nil))))},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := encodeOpenAPIV2([]byte(tc.doc))
			require.NoError(t, err, "encodeOpenAPIV2(%s)", tc.doc)
			assert.Equal(t, tc.want, got, "encodeOpenAPIV2(%s)", tc.doc)
		})
	}
}
