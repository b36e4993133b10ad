package openapi

import (
	"encoding/json"
	"testing"

	openapi_v2 "github.com/google/gnostic-models/openapiv2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/kube-openapi/pkg/util/proto/validation"
	"sigs.k8s.io/yaml"

	kubeproto "k8s.io/kube-openapi/pkg/util/proto"
)

// TestOpenAPIV2ProtobufIsGnosticsDocument: the protobuf /openapi/v2
// serves is the message gnostic builds from the JSON /openapi/v2
// serves, which is how kube-apiserver makes its protobuf. Vendor
// extensions and defaults are YAML text in both; they are compared as
// values.
func TestOpenAPIV2ProtobufIsGnosticsDocument(t *testing.T) {
	s := newServer(t)
	jsonDoc, contentType := s.get("/openapi/v2", "application/json")
	require.Equal(t, "application/json", contentType)
	pb, contentType := s.get("/openapi/v2", "application/com.github.proto-openapi.spec.v2@v1.0+protobuf")
	require.Equal(t, "application/com.github.proto-openapi.spec.v2.v1.0+protobuf", contentType)

	want, err := openapi_v2.ParseDocument(jsonDoc)
	require.NoError(t, err, "gnostic parses the JSON document")
	var got openapi_v2.Document
	require.NoError(t, proto.Unmarshal(pb, &got), "the protobuf is a gnostic Document")
	normalizeAny(t, want.ProtoReflect())
	normalizeAny(t, got.ProtoReflect())
	require.True(t, proto.Equal(want, &got), "protobuf and JSON documents differ")
	assert.NotEmpty(t, got.GetDefinitions().GetAdditionalProperties())
}

// normalizeAny rewrites every Any's YAML text as canonical JSON, so two
// spellings of one value compare equal.
func normalizeAny(t *testing.T, m protoreflect.Message) {
	if a, ok := m.Interface().(*openapi_v2.Any); ok {
		data, err := yaml.YAMLToJSON([]byte(a.GetYaml()))
		require.NoError(t, err, "YAML of %q", a.GetYaml())
		var v any
		require.NoError(t, json.Unmarshal(data, &v))
		canonical, err := json.Marshal(v)
		require.NoError(t, err)
		a.Yaml = string(canonical)
		return
	}
	m.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		switch {
		case fd.IsList() && fd.Message() != nil:
			for i := range v.List().Len() {
				normalizeAny(t, v.List().Get(i).Message())
			}
		case fd.Message() != nil && !fd.IsMap():
			normalizeAny(t, v.Message())
		}
		return true
	})
}

// TestKubectlValidatesAgainstOpenAPIV2: kubectl's client-side validator
// reads the document client-go downloads, finds the built-in kinds and
// rejects an unknown field, and finds no kind the server does not serve
// (so kubectl goes on to report "no matches for kind").
func TestKubectlValidatesAgainstOpenAPIV2(t *testing.T) {
	s := newServer(t)
	doc, err := discovery.NewDiscoveryClientForConfigOrDie(s.restConfig()).OpenAPISchema()
	require.NoError(t, err, "client-go downloads /openapi/v2")
	models, err := kubeproto.NewOpenAPIData(doc)
	require.NoError(t, err, "kube-openapi reads every definition")

	resources, err := discoveryResources(models)
	require.NoError(t, err)
	pod := resources[schema.GroupVersionKind{Version: "v1", Kind: "Pod"}]
	require.NotNil(t, pod, "the Pod model is found by its x-kubernetes-group-version-kind")
	require.NotNil(t, resources[schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}])
	assert.Nil(t, resources[schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}])

	valid := map[string]any{
		"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p", "labels": map[string]any{"a": "b"}},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox",
			"resources": map[string]any{"requests": map[string]any{"cpu": "100m"}},
			"ports":     []any{map[string]any{"containerPort": 80}}}}},
	}
	assert.Empty(t, validation.ValidateModel(valid, pod, "Pod"), "a valid pod")
	invalid := map[string]any{
		"apiVersion": "v1", "kind": "Pod", "metadata": map[string]any{"name": "p"},
		"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "busybox", "colour": "red"}}},
	}
	errs := validation.ValidateModel(invalid, pod, "Pod")
	require.Len(t, errs, 1, "%v", errs)
	assert.Contains(t, errs[0].Error(), `unknown field "colour"`)
}

// discoveryResources indexes models by the kinds they declare, as
// kubectl's validator looks them up.
func discoveryResources(models kubeproto.Models) (map[schema.GroupVersionKind]kubeproto.Schema, error) {
	out := map[schema.GroupVersionKind]kubeproto.Schema{}
	for _, name := range models.ListModels() {
		model := models.LookupModel(name)
		gvks, _ := model.GetExtensions()["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			m, _ := g.(map[any]any)
			gvk := schema.GroupVersionKind{Group: str(m["group"]), Version: str(m["version"]), Kind: str(m["kind"])}
			out[gvk] = model
		}
	}
	return out, nil
}
