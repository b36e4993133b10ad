package apiserver_test

import (
	"encoding/json"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// jsonObject decodes a JSON document into maps.
func jsonObject(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(data, &m), "decode %.200s", data)
	return m
}

// at walks m along keys, failing the test when a key is missing.
func at(t *testing.T, m map[string]any, keys ...string) map[string]any {
	t.Helper()
	for _, k := range keys {
		next, ok := m[k].(map[string]any)
		require.True(t, ok, "no object at %q of %v", k, keys)
		m = next
	}
	return m
}

var refPattern = regexp.MustCompile(`"\$ref":"([^"]+)"`)

// assertRefsResolve checks that every $ref of doc names a definition
// under prefix (defs).
func assertRefsResolve(t *testing.T, doc []byte, prefix string, defs map[string]any) {
	t.Helper()
	for _, m := range refPattern.FindAllStringSubmatch(string(doc), -1) {
		name, ok := strings.CutPrefix(m[1], prefix)
		if assert.True(t, ok, "$ref %s starts with %s", m[1], prefix) {
			assert.Contains(t, defs, name, "$ref %s resolves", m[1])
		}
	}
}

// openAPIV3URL returns the serverRelativeURL /openapi/v3 lists for path.
func (s *testServer) openAPIV3URL(path string) string {
	s.t.Helper()
	root := jsonObject(s.t.(*testing.T), s.mustDo(http.StatusOK, "GET", "/openapi/v3", "").body)
	entry, ok := root["paths"].(map[string]any)[path].(map[string]any)
	require.True(s.t, ok, "/openapi/v3 lists %s", path)
	return entry["serverRelativeURL"].(string)
}

func TestOpenAPIV3BuiltinKinds(t *testing.T) {
	s := newTestServer(t)
	url := s.openAPIV3URL("api/v1")
	require.Regexp(t, `^/openapi/v3/api/v1\?hash=[0-9A-F]+$`, url, "the URL carries the document's hash")

	r := s.mustDo(http.StatusOK, "GET", url, "")
	assert.Equal(t, "public, immutable", r.header.Get("Cache-Control"), "a document fetched by hash never changes")
	assert.NotEmpty(t, r.header.Get("Expires"))
	doc := jsonObject(t, r.body)
	schemas := at(t, doc, "components", "schemas")
	assertRefsResolve(t, r.body, "#/components/schemas/", schemas)

	pod := at(t, schemas, "io.k8s.api.core.v1.Pod")
	assert.Equal(t, []any{map[string]any{"group": "", "version": "v1", "kind": "Pod"}}, pod["x-kubernetes-group-version-kind"])
	assert.Equal(t, []any{map[string]any{"$ref": "#/components/schemas/io.k8s.api.core.v1.PodSpec"}}, at(t, pod, "properties", "spec")["allOf"])
	containers := at(t, schemas, "io.k8s.api.core.v1.PodSpec", "properties", "containers")
	assert.Equal(t, "array", containers["type"])
	assert.Equal(t, "name", containers["x-kubernetes-patch-merge-key"])
	assert.Equal(t, "merge", containers["x-kubernetes-patch-strategy"])
	assert.Contains(t, at(t, schemas, "io.k8s.api.core.v1.PodSpec")["required"], "containers")
	assert.Contains(t, schemas, "io.k8s.api.core.v1.PodList")
	assert.Contains(t, schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")

	post := at(t, doc, "paths", "/api/v1/namespaces/{namespace}/pods", "post")
	assert.Equal(t, map[string]any{"group": "", "version": "v1", "kind": "Pod"}, post["x-kubernetes-group-version-kind"])
	assert.Contains(t, string(r.body), `"name":"fieldValidation"`, "kubectl learns from it that the server validates fields")

	// The same document without the hash is not cacheable for good, and
	// a stale hash is redirected to the current document.
	plain := s.mustDo(http.StatusOK, "GET", "/openapi/v3/api/v1", "")
	assert.Empty(t, plain.header.Get("Cache-Control"))
	assert.Equal(t, r.body, plain.body)
	s.mustDo(http.StatusNotModified, "GET", "/openapi/v3/api/v1", "", withHeader("If-None-Match", plain.header.Get("ETag")))
	s.mustDo(http.StatusNotFound, "GET", "/openapi/v3/apis/nope.example.com/v1", "")
}

func TestOpenAPIV3StaleHashRedirects(t *testing.T) {
	s := newTestServer(t)
	req, err := http.NewRequest(http.MethodGet, s.url+"/openapi/v3/apis/apps/v1?hash=STALE", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	resp, err := client.Do(req)
	require.NoError(t, err)
	require.NoError(t, resp.Body.Close())
	assert.Equal(t, http.StatusMovedPermanently, resp.StatusCode)
	assert.Equal(t, s.openAPIV3URL("apis/apps/v1"), resp.Header.Get("Location"))
}

func TestOpenAPIV3CustomResource(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(developersCRD)
	r := s.mustDo(http.StatusOK, "GET", s.openAPIV3URL("apis/example.com/v1"), "")
	schemas := at(t, jsonObject(t, r.body), "components", "schemas")
	assertRefsResolve(t, r.body, "#/components/schemas/", schemas)
	dev := at(t, schemas, "com.example.v1.Developer")
	assert.Equal(t, []any{map[string]any{"group": "example.com", "version": "v1", "kind": "Developer"}}, dev["x-kubernetes-group-version-kind"])
	assert.Equal(t, "string", at(t, dev, "properties", "spec", "properties", "language")["type"])
	list := at(t, schemas, "com.example.v1.DeveloperList")
	assert.Equal(t, map[string]any{"$ref": "#/components/schemas/com.example.v1.Developer"}, at(t, list, "properties", "items")["items"])
	assert.Contains(t, schemas, "io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta")
	assert.Contains(t, schemas, "io.k8s.api.autoscaling.v1.Scale", "the scale subresource's kind")
}

func TestOpenAPIV2(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(developersCRD)
	r := s.mustDo(http.StatusOK, "GET", "/openapi/v2", "")
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	doc := jsonObject(t, r.body)
	assert.Equal(t, "2.0", doc["swagger"])
	defs := at(t, doc, "definitions")
	assertRefsResolve(t, r.body, "#/definitions/", defs)
	for name, def := range defs {
		walkSchema(def.(map[string]any), func(keyword string) {
			assert.NotContains(t, []string{"allOf", "oneOf", "anyOf", "not", "nullable"}, keyword, "%s: swagger 2.0 has no %s", name, keyword)
		})
	}
	for _, name := range []string{"io.k8s.api.core.v1.Pod", "io.k8s.api.apps.v1.Deployment", "io.k8s.api.batch.v1.Job", "com.example.v1.Developer", "com.example.v1beta1.Developer"} {
		assert.Contains(t, at(t, defs, name), "x-kubernetes-group-version-kind", name)
	}
	assert.Equal(t, map[string]any{"type": "string"}, withoutDescription(at(t, defs, "io.k8s.apimachinery.pkg.api.resource.Quantity")))
	assert.Equal(t, map[string]any{"type": "string", "format": "int-or-string"}, withoutDescription(at(t, defs, "io.k8s.apimachinery.pkg.util.intstr.IntOrString")))
	assert.Equal(t, "#/definitions/io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta", at(t, defs, "com.example.v1.Developer", "properties", "metadata")["$ref"])
	assert.NotContains(t, at(t, defs, "com.example.v1beta1.Developer"), "type", "a schema that keeps unknown fields takes any object")
	s.mustDo(http.StatusNotModified, "GET", "/openapi/v2", "", withHeader("If-None-Match", r.header.Get("ETag")))
}

func TestOpenAPIV2Negotiation(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name, accept string
		code         int
		wantType     string
	}{
		{"protobuf as client-go asks", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf", http.StatusOK, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"},
		{"protobuf, other spelling", "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", http.StatusOK, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"},
		{"JSON", "application/json", http.StatusOK, "application/json"},
		{"anything", "*/*", http.StatusOK, "application/json"},
		{"first listed wins", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf, application/json", http.StatusOK, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf"},
		{"unsupported", "text/html", http.StatusNotAcceptable, "application/json"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.mustDo(tc.code, "GET", "/openapi/v2", "", withHeader("Accept", tc.accept))
			assert.Equal(t, tc.wantType, r.header.Get("Content-Type"), "Accept: %s", tc.accept)
			if tc.code == http.StatusNotAcceptable {
				assert.Equal(t, "NotAcceptable", string(r.status(t).Reason))
			}
		})
	}
}

func withoutDescription(m map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range m {
		if k != "description" {
			out[k] = v
		}
	}
	return out
}

// walkSchema calls visit with every keyword of schema s and of the
// schemas nested in it, but not with property names.
func walkSchema(s map[string]any, visit func(keyword string)) {
	for k, v := range s {
		visit(k)
		switch k {
		case "properties":
			for _, p := range v.(map[string]any) {
				walkSchema(p.(map[string]any), visit)
			}
		case "items", "additionalProperties":
			if m, ok := v.(map[string]any); ok {
				walkSchema(m, visit)
			}
		case "allOf", "oneOf", "anyOf":
			for _, sub := range v.([]any) {
				walkSchema(sub.(map[string]any), visit)
			}
		}
	}
}
