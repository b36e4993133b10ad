package apiserver_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/apiserver"
)

// developersCRD is the CRD of the Developer kind: two served versions,
// v1 stored, v1beta1 deprecated, status and scale subresources.
const developersCRD = `{
  "apiVersion": "apiextensions.k8s.io/v1",
  "kind": "CustomResourceDefinition",
  "metadata": {"name": "developers.example.com"},
  "spec": {
    "group": "example.com",
    "scope": "Namespaced",
    "names": {"plural": "developers", "singular": "developer", "kind": "Developer", "shortNames": ["devs"], "categories": ["all"]},
    "versions": [
      {"name": "v1", "served": true, "storage": true,
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {
         "spec": {"type": "object", "properties": {"language": {"type": "string"}, "replicas": {"type": "integer"}}},
         "status": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}},
       "subresources": {"status": {}, "scale": {"specReplicasPath": ".spec.replicas", "statusReplicasPath": ".status.replicas"}}},
      {"name": "v1beta1", "served": true, "storage": false, "deprecated": true,
       "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}
    ]
  }
}`

// installCRD creates a CRD and waits until it is Established.
func (s *testServer) installCRD(body string) *apiextensionsv1.CustomResourceDefinition {
	s.t.Helper()
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(s.t, json.Unmarshal([]byte(body), &crd))
	w := s.openWatch("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1&fieldSelector=metadata.name=" + crd.Name)
	s.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions", body)
	for {
		ev := w.next()
		var got apiextensionsv1.CustomResourceDefinition
		require.NoError(s.t, json.Unmarshal(ev.Object, &got))
		if apiextensionsv1.IsCRDConditionTrue(&got, apiextensionsv1.Established) {
			return &got
		}
	}
}

func decodeUnstructured(t *testing.T, data []byte) *unstructured.Unstructured {
	t.Helper()
	var u unstructured.Unstructured
	require.NoError(t, json.Unmarshal(data, &u), "decode %s", data)
	return &u
}

func TestCRDServesItsResource(t *testing.T) {
	s := newTestServer(t)
	crd := s.installCRD(developersCRD)
	assert.Equal(t, "developers", crd.Status.AcceptedNames.Plural)
	assert.Equal(t, []string{"v1"}, crd.Status.StoredVersions)
	names := apiextensionsv1.FindCRDCondition(crd, apiextensionsv1.NamesAccepted)
	require.NotNil(t, names)
	assert.Equal(t, apiextensionsv1.ReasonNoConflicts, names.Reason)

	// Discovery lists it, with its short names and subresources.
	disc := s.mustDo(http.StatusOK, "GET", "/apis/example.com/v1", "")
	var rl metav1.APIResourceList
	require.NoError(t, json.Unmarshal(disc.body, &rl))
	var got []string
	for _, r := range rl.APIResources {
		got = append(got, r.Name)
		if r.Name == "developers" {
			assert.Equal(t, []string{"devs"}, r.ShortNames)
			assert.Equal(t, "Developer", r.Kind)
		}
	}
	assert.ElementsMatch(t, []string{"developers", "developers/status", "developers/scale"}, got)
	group := s.mustDo(http.StatusOK, "GET", "/apis/example.com", "")
	assert.Contains(t, string(group.body), `"preferredVersion":{"groupVersion":"example.com/v1","version":"v1"}`)

	w := s.openWatch("/apis/example.com/v1/namespaces/default/developers?watch=1")
	created := s.mustDo(http.StatusCreated, "POST", "/apis/example.com/v1/namespaces/default/developers",
		`{"apiVersion":"example.com/v1","kind":"Developer","metadata":{"name":"megyo"},"spec":{"language":"go","replicas":1},"status":{"replicas":5}}`)
	dev := decodeUnstructured(t, created.body)
	assert.Equal(t, int64(1), dev.Generation)
	_, hasStatus := dev.Content["status"]
	assert.False(t, hasStatus, "a create cannot set status when the status subresource is on")
	ev := w.next()
	assert.Equal(t, "ADDED", ev.Type)
	assert.Equal(t, "megyo", decodeUnstructured(t, ev.Object).Name)

	// The deprecated version serves the same object, with a warning.
	beta := s.mustDo(http.StatusOK, "GET", "/apis/example.com/v1beta1/namespaces/default/developers/megyo", "")
	assert.Equal(t, "example.com/v1beta1", decodeUnstructured(t, beta.body).APIVersion)
	assert.Contains(t, beta.header.Get("Warning"), "example.com/v1beta1 Developer is deprecated")

	// Status goes through its subresource; spec writes bump the generation.
	dev.Content["status"] = map[string]any{"replicas": int64(1)}
	body, _ := json.Marshal(dev)
	st := s.mustDo(http.StatusOK, "PUT", "/apis/example.com/v1/namespaces/default/developers/megyo/status", string(body))
	dev = decodeUnstructured(t, st.body)
	assert.Equal(t, int64(1), dev.Generation)
	n, _ := unstructured.NestedInt64(dev.Content, "status", "replicas")
	assert.Equal(t, int64(1), n)

	scale := s.mustDo(http.StatusOK, "GET", "/apis/example.com/v1/namespaces/default/developers/megyo/scale", "")
	assert.Contains(t, string(scale.body), `"replicas":1`)
	s.mustDo(http.StatusOK, "PATCH", "/apis/example.com/v1/namespaces/default/developers/megyo/scale",
		`{"spec":{"replicas":3}}`, withHeader("Content-Type", "application/merge-patch+json"))
	dev = decodeUnstructured(t, s.mustDo(http.StatusOK, "GET", "/apis/example.com/v1/namespaces/default/developers/megyo", "").body)
	n, _ = unstructured.NestedInt64(dev.Content, "spec", "replicas")
	assert.Equal(t, int64(3), n)
	assert.Equal(t, int64(2), dev.Generation)

	// Written at v1beta1, read at v1: one object.
	s.mustDo(http.StatusCreated, "POST", "/apis/example.com/v1beta1/namespaces/default/developers",
		`{"apiVersion":"example.com/v1beta1","kind":"Developer","metadata":{"name":"beta"},"spec":{"language":"rust"}}`)
	v1 := decodeUnstructured(t, s.mustDo(http.StatusOK, "GET", "/apis/example.com/v1/namespaces/default/developers/beta", "").body)
	assert.Equal(t, "example.com/v1", v1.APIVersion)
	lang, _ := unstructured.NestedString(v1.Content, "spec", "language")
	assert.Equal(t, "rust", lang)

	list := s.mustDo(http.StatusOK, "GET", "/apis/example.com/v1/developers", "")
	var ul unstructured.UnstructuredList
	require.NoError(t, json.Unmarshal(list.body, &ul))
	assert.Equal(t, "DeveloperList", ul.Kind)
	assert.Len(t, ul.Items, 2)
}

func TestCRDDeleteRemovesObjectsThenEndpoints(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(developersCRD)
	s.mustDo(http.StatusCreated, "POST", "/apis/example.com/v1/namespaces/default/developers",
		`{"apiVersion":"example.com/v1","kind":"Developer","metadata":{"name":"megyo"}}`)
	w := s.openWatch("/apis/example.com/v1/namespaces/default/developers?watch=1&resourceVersion=0")
	assert.Equal(t, "ADDED", w.next().Type)
	crds := s.openWatch("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1&resourceVersion=0")

	s.mustDo(http.StatusOK, "DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/developers.example.com", "")
	assert.Equal(t, "DELETED", w.next().Type, "the object is deleted first")
	// The watch on the resource then ends cleanly.
	for range w.events {
	}
	for {
		ev := crds.next()
		if ev.Type == "DELETED" {
			break
		}
	}
	s.mustDo(http.StatusNotFound, "GET", "/apis/example.com/v1/namespaces/default/developers", "")
	disc := s.do("GET", "/apis", "")
	assert.False(t, strings.Contains(string(disc.body), "example.com"), "discovery no longer lists the group: %s", disc.body)
}

func TestCRDNameConflicts(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"foos.example.com"},
	  "spec":{"group":"example.com","scope":"Cluster","names":{"plural":"foos","kind":"Foo","shortNames":["f"]},
	  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`)

	// bars asks for foos' short name: not accepted, not served.
	w := s.openWatch("/apis/apiextensions.k8s.io/v1/customresourcedefinitions?watch=1&fieldSelector=metadata.name=bars.example.com")
	s.mustDo(http.StatusCreated, "POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"bars.example.com"},
		  "spec":{"group":"example.com","scope":"Cluster","names":{"plural":"bars","kind":"Bar","shortNames":["f"]},
		  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`)
	var bars apiextensionsv1.CustomResourceDefinition
	for apiextensionsv1.FindCRDCondition(&bars, apiextensionsv1.NamesAccepted) == nil {
		require.NoError(t, json.Unmarshal(w.next().Object, &bars))
	}
	names := apiextensionsv1.FindCRDCondition(&bars, apiextensionsv1.NamesAccepted)
	assert.Equal(t, apiextensionsv1.ConditionFalse, names.Status)
	assert.Equal(t, "ShortNamesConflict", names.Reason)
	assert.Equal(t, `"f" is already in use`, names.Message)
	established := apiextensionsv1.FindCRDCondition(&bars, apiextensionsv1.Established)
	require.NotNil(t, established)
	assert.Equal(t, apiextensionsv1.ConditionFalse, established.Status)
	assert.Equal(t, "NotAccepted", established.Reason)
	assert.Equal(t, "bars", bars.Status.AcceptedNames.Plural, "the names without conflict are accepted")
	s.mustDo(http.StatusNotFound, "GET", "/apis/example.com/v1/bars", "")

	// Once foos is gone, bars takes the names and is served.
	s.mustDo(http.StatusOK, "DELETE", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions/foos.example.com", "")
	for !apiextensionsv1.IsCRDConditionTrue(&bars, apiextensionsv1.Established) {
		require.NoError(t, json.Unmarshal(w.next().Object, &bars))
	}
	assert.Equal(t, []string{"f"}, bars.Status.AcceptedNames.ShortNames)
	s.mustDo(http.StatusOK, "GET", "/apis/example.com/v1/bars", "")
}

func TestCRDValidation(t *testing.T) {
	s := newTestServer(t)
	r := s.do("POST", "/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
		`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"wrong.example.com"},
		  "spec":{"group":"example.com","scope":"Cluster","names":{"plural":"foos","kind":"Foo"},
		  "versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object","properties":{"a":{}}}}}]}}`)
	require.Equal(t, http.StatusUnprocessableEntity, r.code, "%s", r.body)
	assert.Contains(t, string(r.body), `metadata.name: Invalid value: \"wrong.example.com\": must be spec.names.plural+\".\"+spec.group`)
	// Upstream reports a schema shared by every version under
	// spec.validation, the field of the internal version it validates.
	assert.Contains(t, string(r.body), `spec.validation.openAPIV3Schema.properties[a].type: Required value: must not be empty for specified object fields`)
}

// TestCRDsServedAfterRestart starts a second API server on the first's
// etcd prefix: once it is ready, the custom resources of the CRDs it
// found in etcd answer, with the objects stored before.
func TestCRDsServedAfterRestart(t *testing.T) {
	var prefix string
	s := newTestServer(t, func(o *apiserver.Options) { prefix = o.StoragePrefix })
	s.installCRD(developersCRD)
	s.mustDo(http.StatusCreated, "POST", "/apis/example.com/v1/namespaces/default/developers",
		`{"apiVersion":"example.com/v1","kind":"Developer","metadata":{"name":"megyo"}}`)

	again := newTestServer(t, func(o *apiserver.Options) { o.StoragePrefix = prefix })
	r := again.mustDo(http.StatusOK, "GET", "/apis/example.com/v1/namespaces/default/developers/megyo", "")
	assert.Equal(t, "megyo", decodeUnstructured(t, r.body).Name)
	again.mustDo(http.StatusOK, "GET", "/readyz?verbose", "")
}
