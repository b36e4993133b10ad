package apiextensions

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kapiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer/protobuf"
	"sigs.k8s.io/yaml"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/api/runtime"
)

var update = flag.Bool("update", false, "rewrite the golden CRD in api/apiextensions/v1/testdata")

const goldenDir = "../../api/apiextensions/v1/testdata/"

// TestGoldenCRD checks that crd-multiversion.json is the YAML next to it as
// upstream decodes, defaults and encodes it; -update rewrites it. The
// library's own round-trip test then needs no k8s.io.
func TestGoldenCRD(t *testing.T) {
	y, err := os.ReadFile(goldenDir + "crd-multiversion.yaml")
	require.NoError(t, err)
	j, err := yaml.YAMLToJSON(y)
	require.NoError(t, err)
	var crd kapiextensionsv1.CustomResourceDefinition
	require.NoError(t, json.Unmarshal(j, &crd))
	kapiextensionsv1.SetObjectDefaults_CustomResourceDefinition(&crd)
	want, err := json.Marshal(&crd)
	require.NoError(t, err)
	want = append(want, '\n')
	if *update {
		require.NoError(t, os.WriteFile(goldenDir+"crd-multiversion.json", want, 0o644))
	}
	got, err := os.ReadFile(goldenDir + "crd-multiversion.json")
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got), "golden file is stale; run go test -run TestGoldenCRD -update")
}

// crdDocuments are CRDs, as JSON, that exercise every field and the
// helper types' odd forms (items as a list, additionalProperties false,
// dependencies, null defaults, an empty status, numbers in many spellings).
func crdDocuments(t *testing.T) map[string][]byte {
	t.Helper()
	golden, err := os.ReadFile(goldenDir + "crd-multiversion.json")
	require.NoError(t, err)
	return map[string][]byte{
		"golden": bytes.TrimSpace(golden),
		"minimal": []byte(`{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition",
			"metadata":{"name":"foos.example.com"},
			"spec":{"group":"example.com","names":{"plural":"foos","kind":"Foo"},"scope":"Cluster",
			"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{"type":"object"}}}]}}`),
		"empty": []byte(`{}`),
		"odd schema forms": []byte(`{"spec":{"versions":[{"name":"v1","served":false,"storage":false,"schema":{"openAPIV3Schema":{
			"id":"x","$schema":"http://json-schema.org/draft-04/schema#","$ref":"#/definitions/a","title":"t",
			"type":"object","default":null,"example":{"a":[1,2.5,"x",null,true]},
			"enum":[1, 1.0, 1e3, -0, "s", null, {"b":1,"a":2}, [ 1 , 2 ]],
			"items":[{"type":"string"},{"type":"integer","maximum":1e300,"minimum":-1.5e-7,"multipleOf":0.1}],
			"additionalItems":false,"additionalProperties":false,
			"patternProperties":{"^a":{"type":"string"}},
			"dependencies":{"a":["b","c"],"d":{"required":["e"]},"f":[]},
			"definitions":{"a":{"type":"string","x-kubernetes-preserve-unknown-fields":false}},
			"maxLength":0,"minLength":0,"maxItems":0,"minItems":0,"maxProperties":0,"minProperties":0,
			"exclusiveMaximum":false,"uniqueItems":false,"nullable":false,"x-kubernetes-embedded-resource":false,
			"x-kubernetes-int-or-string":false,"x-kubernetes-list-type":"","x-kubernetes-map-type":"",
			"x-kubernetes-list-map-keys":[],"required":[],
			"x-kubernetes-validations":[{"rule":"true","reason":"FieldValueForbidden","optionalOldSelf":false}]
			}}}]},"status":{"conditions":[],"acceptedNames":{"plural":"","kind":""},"storedVersions":[]}}`),
		"html and unicode": []byte(`{"metadata":{"annotations":{"a":"<b>&amp;</b> \u00e9 \u2028"}},
			"spec":{"versions":[{"name":"v1","served":true,"storage":true,"schema":{"openAPIV3Schema":{
			"description":"<b> & é","default":"<\u0026>","pattern":"^[<>&]+$"}}}]}}`),
	}
}

// TestJSONMatchesKubernetes decodes each document with minicp's types and
// with upstream's, encodes both, and requires the same bytes; then each
// side must decode what the other wrote into an equal object.
func TestJSONMatchesKubernetes(t *testing.T) {
	for name, doc := range crdDocuments(t) {
		t.Run(name, func(t *testing.T) {
			var k kapiextensionsv1.CustomResourceDefinition
			require.NoError(t, json.Unmarshal(doc, &k), "upstream decode")
			want, err := json.Marshal(&k)
			require.NoError(t, err)

			var m apiextensionsv1.CustomResourceDefinition
			_, err = runtime.Decode(doc, &m)
			require.NoError(t, err, "minicp decode")
			got, err := runtime.Encode(&m)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(got), "minicp encodes what upstream encodes")

			// Compare with upstream's reading of its own bytes, not with k:
			// encoding escapes HTML inside raw values, so Raw may change.
			var fromUpstream, fromMinicp kapiextensionsv1.CustomResourceDefinition
			require.NoError(t, json.Unmarshal(want, &fromUpstream))
			require.NoError(t, json.Unmarshal(got, &fromMinicp), "upstream decodes minicp's bytes")
			assert.Equal(t, fromUpstream, fromMinicp)
		})
	}
}

// TestProtobufMatchesKubernetes encodes each document as Kubernetes
// protobuf on both sides and requires the same bytes, including the hand
// written JSONSchemaProps message; each side then reads the other's.
func TestProtobufMatchesKubernetes(t *testing.T) {
	scheme := kruntime.NewScheme()
	require.NoError(t, kapiextensionsv1.AddToScheme(scheme))
	ser := protobuf.NewSerializer(scheme, scheme)
	for name, doc := range crdDocuments(t) {
		t.Run(name, func(t *testing.T) {
			var k kapiextensionsv1.CustomResourceDefinition
			require.NoError(t, json.Unmarshal(doc, &k))
			k.APIVersion, k.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
			var want bytes.Buffer
			require.NoError(t, ser.Encode(&k, &want))

			var m apiextensionsv1.CustomResourceDefinition
			_, err := runtime.Decode(doc, &m)
			require.NoError(t, err)
			m.APIVersion, m.Kind = "apiextensions.k8s.io/v1", "CustomResourceDefinition"
			got, err := runtime.EncodeProtobuf(&m)
			require.NoError(t, err)
			require.Equal(t, want.Bytes(), got, "minicp writes upstream's protobuf")

			// Protobuf cannot tell an empty list from none, so the check
			// is that what minicp read encodes to the same bytes again.
			var back apiextensionsv1.CustomResourceDefinition
			require.NoError(t, runtime.DecodeProtobuf(want.Bytes(), &back), "minicp reads upstream's protobuf")
			again, err := runtime.EncodeProtobuf(&back)
			require.NoError(t, err)
			assert.Equal(t, want.Bytes(), again, "minicp's reading of upstream's protobuf")
		})
	}
}

// TestTagsMatchKubernetes walks the CRD types side by side with upstream's
// and checks every json and protobuf tag word for word (except the
// inline TypeMeta's json tag, which upstream spells `json:""`).
func TestTagsMatchKubernetes(t *testing.T) {
	seen := map[reflect.Type]bool{}
	var fields int
	var walk func(m, k reflect.Type, path string)
	walk = func(m, k reflect.Type, path string) {
		for m.Kind() == reflect.Pointer || m.Kind() == reflect.Slice || m.Kind() == reflect.Map {
			if m.Kind() != k.Kind() {
				t.Errorf("%s: minicp %s, Kubernetes %s", path, m, k)
				return
			}
			m, k = m.Elem(), k.Elem()
		}
		if m.Kind() != k.Kind() {
			t.Errorf("%s: minicp %s, Kubernetes %s", path, m, k)
			return
		}
		if m.Kind() != reflect.Struct || seen[m] || !strings.HasPrefix(m.PkgPath(), "github.com/minicp/minicp/api/apiextensions") {
			return
		}
		seen[m] = true
		if m.NumField() != k.NumField() {
			t.Errorf("%s: %d fields, Kubernetes has %d", m.Name(), m.NumField(), k.NumField())
		}
		for i := range m.NumField() {
			f := m.Field(i)
			name := m.Name() + "." + f.Name
			kf, ok := k.FieldByName(f.Name)
			if !ok {
				t.Errorf("%s: Kubernetes' %s has no such field", name, k)
				continue
			}
			fields++
			for _, key := range []string{"protobuf", "json", "patchStrategy", "patchMergeKey"} {
				if f.Name == "TypeMeta" && key == "json" {
					continue
				}
				if got, want := f.Tag.Get(key), kf.Tag.Get(key); got != want {
					t.Errorf("%s: %s tag %q, Kubernetes has %q", name, key, got, want)
				}
			}
			walk(f.Type, kf.Type, name)
		}
	}
	walk(reflect.TypeFor[apiextensionsv1.CustomResourceDefinitionList](), reflect.TypeFor[kapiextensionsv1.CustomResourceDefinitionList](), "")
	assert.Greater(t, fields, 100, "the walk reached the schema types")
}
