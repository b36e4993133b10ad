package apiserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/meta/v1/unstructured"
)

const widgetsCRD = `{
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.com"},
  "spec": {
    "group": "example.com", "scope": "Namespaced",
    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
    "versions": [{"name": "v1", "served": true, "storage": true,
      "schema": {"openAPIV3Schema": {"type": "object", "properties": {
        "spec": {"type": "object", "required": ["size"], "properties": {
          "size": {"type": "integer", "minimum": 1, "maximum": 10},
          "color": {"type": "string", "enum": ["red", "blue"], "default": "red"},
          "labels": {"type": "object", "additionalProperties": {"type": "string"}},
          "free": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}}}}}]
  }
}`

const widgetsPath = "/apis/example.com/v1/namespaces/default/widgets"

func TestCustomResourceSchema(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(widgetsCRD)

	tests := []struct {
		name     string
		spec     string
		query    string
		code     int
		contains []string
	}{
		{name: "valid", spec: `{"size":3}`, code: http.StatusCreated},
		{name: "wrong type", spec: `{"size":"big"}`, code: http.StatusUnprocessableEntity,
			contains: []string{`spec.size: Invalid value: \"string\": spec.size in body must be of type integer: \"string\"`}},
		{name: "above maximum", spec: `{"size":11}`, code: http.StatusUnprocessableEntity,
			contains: []string{`spec.size: Invalid value: 11: spec.size in body should be less than or equal to 10`}},
		{name: "required", spec: `{}`, code: http.StatusUnprocessableEntity,
			contains: []string{`spec.size: Required value`}},
		{name: "enum", spec: `{"size":1,"color":"green"}`, code: http.StatusUnprocessableEntity,
			contains: []string{`spec.color: Unsupported value: \"green\": supported values: \"red\", \"blue\"`}},
		{name: "unknown field is pruned", spec: `{"size":1,"extra":true}`, code: http.StatusCreated},
		{name: "unknown field under Strict", spec: `{"size":1,"extra":true}`, query: "?fieldValidation=Strict",
			code: http.StatusBadRequest, contains: []string{`strict decoding error: unknown field \"spec.extra\"`}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "w" + string(rune('a'+i))
			r := s.do("POST", widgetsPath+tc.query,
				`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"`+name+`"},"spec":`+tc.spec+`}`)
			require.Equal(t, tc.code, r.code, "%s: %s", tc.spec, r.body)
			for _, c := range tc.contains {
				assert.Contains(t, string(r.body), c)
			}
		})
	}

	// Pruning warns (fieldValidation=Warn is the default), defaulting fills
	// color, and preserve-unknown-fields keeps what is below it.
	r := s.mustDo(http.StatusCreated, "POST", widgetsPath,
		`{"apiVersion":"example.com/v1","kind":"Widget","metadata":{"name":"full"},"spec":{"size":2,"extra":1,"free":{"any":{"thing":1}}},"top":1}`)
	assert.Contains(t, r.header.Values("Warning"), `299 - "unknown field \"spec.extra\""`)
	assert.Contains(t, r.header.Values("Warning"), `299 - "unknown field \"top\""`)
	u := decodeUnstructured(t, r.body)
	color, _ := unstructured.NestedString(u.Content, "spec", "color")
	assert.Equal(t, "red", color, "the schema's default")
	_, extra := unstructured.NestedField(u.Content, "spec", "extra")
	assert.False(t, extra, "pruned")
	_, top := u.Content["top"]
	assert.False(t, top, "pruned at the root too")
	thing, _ := unstructured.NestedInt64(u.Content, "spec", "free", "any", "thing")
	assert.Equal(t, int64(1), thing, "kept under x-kubernetes-preserve-unknown-fields")

	// A merge patch that breaks the schema is 422 too.
	p := s.do("PATCH", widgetsPath+"/full", `{"spec":{"size":0}}`, withHeader("Content-Type", "application/merge-patch+json"))
	assert.Equal(t, http.StatusUnprocessableEntity, p.code, "%s", p.body)
	assert.Contains(t, string(p.body), "spec.size in body should be greater than or equal to 1")
	// Strategic merge patches are refused for custom resources, as upstream.
	smp := s.do("PATCH", widgetsPath+"/full", `{"spec":{"size":3}}`, withHeader("Content-Type", "application/strategic-merge-patch+json"))
	assert.Equal(t, http.StatusUnsupportedMediaType, smp.code, "%s", smp.body)
}

func TestCustomResourceCELRules(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"scalers.example.com"},
	  "spec":{"group":"example.com","scope":"Namespaced","names":{"plural":"scalers","kind":"Scaler"},
	  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{
	    "spec":{"type":"object",
	      "x-kubernetes-validations":[{"rule":"self.minReplicas <= self.replicas","message":"replicas must not be below minReplicas"}],
	      "properties":{"replicas":{"type":"integer"},"minReplicas":{"type":"integer"},
	        "engine":{"type":"string","x-kubernetes-validations":[{"rule":"self == oldSelf","message":"engine is immutable"}]}}}}}}}]}}`)
	path := "/apis/example.com/v1/namespaces/default/scalers"
	r := s.do("POST", path, `{"apiVersion":"example.com/v1","kind":"Scaler","metadata":{"name":"bad"},"spec":{"replicas":1,"minReplicas":2}}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	assert.Contains(t, string(r.body), `spec: Invalid value: replicas must not be below minReplicas`)

	s.mustDo(http.StatusCreated, "POST", path, `{"apiVersion":"example.com/v1","kind":"Scaler","metadata":{"name":"ok"},"spec":{"replicas":2,"minReplicas":1,"engine":"pg"}}`)
	p := s.do("PATCH", path+"/ok", `{"spec":{"engine":"mysql"}}`, withHeader("Content-Type", "application/merge-patch+json"))
	require.Equal(t, http.StatusUnprocessableEntity, p.code, "%s", p.body)
	assert.Contains(t, string(p.body), `spec.engine: Invalid value: \"mysql\": engine is immutable`)
	s.mustDo(http.StatusOK, "PATCH", path+"/ok", `{"spec":{"replicas":3}}`, withHeader("Content-Type", "application/merge-patch+json"))
}
