package v1

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// TestRoundTripGolden decodes a realistic multi-version CRD in the exact
// bytes a real API server writes (compat/apiextensions checks the file
// against upstream) and requires that encoding it gives the same bytes.
func TestRoundTripGolden(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "crd-multiversion.json"))
	require.NoError(t, err)
	data = bytes.TrimSpace(data)

	var crd CustomResourceDefinition
	unknown, err := runtime.Decode(data, &crd)
	require.NoError(t, err)
	assert.Empty(t, unknown, "unknown fields")
	got, err := runtime.Encode(&crd)
	require.NoError(t, err)
	assert.Equal(t, string(data), string(got))

	// Spot checks that the helper types decoded into their structured form.
	require.Len(t, crd.Spec.Versions, 3)
	root := crd.Spec.Versions[0].Schema.OpenAPIV3Schema
	spec := root.Properties["spec"]
	assert.Equal(t, "1", string(spec.Properties["replicas"].Default.Raw))
	assert.Equal(t, "string", spec.Properties["labels"].AdditionalProperties.Schema.Type)
	assert.True(t, spec.Properties["extra"].AdditionalProperties.Allows)
	assert.Nil(t, spec.Properties["extra"].AdditionalProperties.Schema)
	assert.Equal(t, "string", spec.Properties["template"].Properties["args"].Items.Schema.Type)
	assert.Equal(t, []string{"name"}, spec.Properties["template"].Properties["env"].XListMapKeys)
	require.Len(t, spec.XValidations, 2)
	assert.Equal(t, FieldValueInvalid, *spec.XValidations[0].Reason)
	assert.Equal(t, 10.5, *spec.Properties["ratio"].Maximum)

	// The YAML a user writes decodes to the same spec (the golden file
	// is the same CRD after defaulting).
	yamlData, err := os.ReadFile(filepath.Join("testdata", "crd-multiversion.yaml"))
	require.NoError(t, err)
	var fromYAML CustomResourceDefinition
	_, err = runtime.Decode(yamlData, &fromYAML)
	require.NoError(t, err)
	SetDefaults(&fromYAML)
	assert.Equal(t, crd.Spec, fromYAML.Spec)
}

func TestProtobufRoundTrip(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "crd-multiversion.json"))
	require.NoError(t, err)
	var crd CustomResourceDefinition
	_, err = runtime.Decode(data, &crd)
	require.NoError(t, err)

	pb, err := runtime.EncodeProtobuf(&crd)
	require.NoError(t, err)
	var back CustomResourceDefinition
	require.NoError(t, runtime.DecodeProtobuf(pb, &back))
	assert.Equal(t, crd, back)

	// Truncations of the body are an error or a valid object, never a
	// panic. Every 7th length is enough to cut each field somewhere.
	for i := 0; i < len(pb); i += 7 {
		var partial CustomResourceDefinition
		_ = runtime.DecodeProtobuf(pb[:i], &partial)
	}
}

func TestSchemaProtobufRejectsDeepNesting(t *testing.T) {
	// A schema whose "not" nests deeper than maxSchemaDepth. Each level is
	// a tag and the length of the level inside it, so the lengths are
	// worked out from the inside first and written from the outside.
	const levels = maxSchemaDepth + 2
	sizes := make([]int, levels+1)
	for k := 1; k <= levels; k++ {
		sizes[k] = protowire.SizeTag(28) + protowire.SizeBytes(sizes[k-1])
	}
	var body []byte
	for k := levels; k >= 1; k-- {
		body = protowire.AppendTag(body, 28, protowire.BytesType)
		body = protowire.AppendVarint(body, uint64(sizes[k-1]))
	}
	require.Len(t, body, sizes[levels])
	var s JSONSchemaProps
	require.ErrorContains(t, s.UnmarshalProtobuf(body), "nested too deeply")
}

func TestJSONHelperTypes(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		into    any
		want    any
		wantOut string // "" means the input
		wantErr bool
	}{
		{name: "JSON object", in: `{"a":1}`, into: &JSON{}, want: &JSON{Raw: []byte(`{"a":1}`)}},
		{name: "JSON null is no value", in: `null`, into: &JSON{}, want: &JSON{}},
		{name: "OrBool true", in: `true`, into: &JSONSchemaPropsOrBool{}, want: &JSONSchemaPropsOrBool{Allows: true}},
		{name: "OrBool false", in: `false`, into: &JSONSchemaPropsOrBool{}, want: &JSONSchemaPropsOrBool{}},
		{name: "OrBool schema allows", in: `{"type":"string"}`, into: &JSONSchemaPropsOrBool{},
			want: &JSONSchemaPropsOrBool{Allows: true, Schema: &JSONSchemaProps{Type: "string"}}},
		{name: "OrBool rejects a string", in: `"x"`, into: &JSONSchemaPropsOrBool{}, wantErr: true},
		{name: "OrArray schema", in: `{"type":"string"}`, into: &JSONSchemaPropsOrArray{},
			want: &JSONSchemaPropsOrArray{Schema: &JSONSchemaProps{Type: "string"}}},
		{name: "OrArray list", in: `[{"type":"string"},{"type":"integer"}]`, into: &JSONSchemaPropsOrArray{},
			want: &JSONSchemaPropsOrArray{JSONSchemas: []JSONSchemaProps{{Type: "string"}, {Type: "integer"}}}},
		{name: "OrArray drops a scalar", in: `"x"`, into: &JSONSchemaPropsOrArray{}, want: &JSONSchemaPropsOrArray{}, wantOut: "null"},
		{name: "OrStringArray names", in: `["a","b"]`, into: &JSONSchemaPropsOrStringArray{},
			want: &JSONSchemaPropsOrStringArray{Property: []string{"a", "b"}}},
		{name: "OrStringArray schema", in: `{"required":["a"]}`, into: &JSONSchemaPropsOrStringArray{},
			want: &JSONSchemaPropsOrStringArray{Schema: &JSONSchemaProps{Required: []string{"a"}}}},
		{name: "OrStringArray empty list writes null", in: `[]`, into: &JSONSchemaPropsOrStringArray{},
			want: &JSONSchemaPropsOrStringArray{Property: []string{}}, wantOut: "null"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := json.Unmarshal([]byte(tc.in), tc.into)
			if tc.wantErr {
				require.Error(t, err, "Unmarshal(%s)", tc.in)
				return
			}
			require.NoError(t, err, "Unmarshal(%s)", tc.in)
			assert.Equal(t, tc.want, tc.into, "Unmarshal(%s)", tc.in)
			out, err := json.Marshal(tc.into)
			require.NoError(t, err)
			want := tc.wantOut
			if want == "" {
				want = tc.in
			}
			assert.Equal(t, want, string(out), "Marshal after Unmarshal(%s)", tc.in)
		})
	}
}

func TestAddToScheme(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, AddToScheme(s))
	require.NoError(t, AddToScheme(s), "AddToScheme is idempotent")
	for _, kind := range []string{"CustomResourceDefinition", "CustomResourceDefinitionList"} {
		obj, err := s.New(SchemeGroupVersion.WithKind(kind))
		require.NoError(t, err, "New(%s)", kind)
		assert.Equal(t, "apiextensions.k8s.io/v1", obj.GetTypeMeta().APIVersion, "New(%s)", kind)
		assert.Equal(t, kind, obj.GetTypeMeta().Kind, "New(%s)", kind)
	}
	info, ok := s.Resource(SchemeGroupVersion.WithResource("customresourcedefinitions"))
	require.True(t, ok)
	assert.Equal(t, runtime.ResourceInfo{
		GVR:          runtime.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"},
		Kind:         "CustomResourceDefinition",
		SingularName: "customresourcedefinition",
		Verbs:        []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"},
		ShortNames:   []string{"crd", "crds"},
		Categories:   []string{"api-extensions"},
		Subresources: []string{"status"},
	}, info)
}

func TestSetDefaults(t *testing.T) {
	port := int32(8443)
	tests := []struct {
		name string
		in   CustomResourceDefinition
		want CustomResourceDefinition
	}{
		{
			name: "names, conversion and stored versions",
			in: CustomResourceDefinition{Spec: CustomResourceDefinitionSpec{
				Names:    CustomResourceDefinitionNames{Plural: "foos", Kind: "Foo"},
				Versions: []CustomResourceDefinitionVersion{{Name: "v1beta1"}, {Name: "v1", Storage: true}},
			}},
			want: CustomResourceDefinition{
				Spec: CustomResourceDefinitionSpec{
					Names:      CustomResourceDefinitionNames{Plural: "foos", Singular: "foo", Kind: "Foo", ListKind: "FooList"},
					Versions:   []CustomResourceDefinitionVersion{{Name: "v1beta1"}, {Name: "v1", Storage: true}},
					Conversion: &CustomResourceConversion{Strategy: NoneConverter},
				},
				Status: CustomResourceDefinitionStatus{StoredVersions: []string{"v1"}},
			},
		},
		{
			name: "no kind, no list kind; stored versions kept",
			in: CustomResourceDefinition{
				Spec:   CustomResourceDefinitionSpec{Versions: []CustomResourceDefinitionVersion{{Name: "v2", Storage: true}}},
				Status: CustomResourceDefinitionStatus{StoredVersions: []string{"v1"}},
			},
			want: CustomResourceDefinition{
				Spec: CustomResourceDefinitionSpec{
					Versions:   []CustomResourceDefinitionVersion{{Name: "v2", Storage: true}},
					Conversion: &CustomResourceConversion{Strategy: NoneConverter},
				},
				Status: CustomResourceDefinitionStatus{StoredVersions: []string{"v1"}},
			},
		},
		{
			name: "webhook service port",
			in: CustomResourceDefinition{Spec: CustomResourceDefinitionSpec{
				Names: CustomResourceDefinitionNames{Kind: "Foo", Singular: "f", ListKind: "Foos"},
				Conversion: &CustomResourceConversion{Strategy: WebhookConverter, Webhook: &WebhookConversion{
					ClientConfig: &WebhookClientConfig{Service: &ServiceReference{Name: "w", Namespace: "ns"}},
				}},
			}},
			want: CustomResourceDefinition{Spec: CustomResourceDefinitionSpec{
				Names: CustomResourceDefinitionNames{Kind: "Foo", Singular: "f", ListKind: "Foos"},
				Conversion: &CustomResourceConversion{Strategy: WebhookConverter, Webhook: &WebhookConversion{
					ClientConfig: &WebhookClientConfig{Service: &ServiceReference{Name: "w", Namespace: "ns", Port: new(DefaultServicePort)}},
				}},
			}},
		},
		{
			name: "webhook service port kept",
			in: CustomResourceDefinition{Spec: CustomResourceDefinitionSpec{
				Names: CustomResourceDefinitionNames{Kind: "Foo", Singular: "f", ListKind: "Foos"},
				Conversion: &CustomResourceConversion{Strategy: WebhookConverter, Webhook: &WebhookConversion{
					ClientConfig: &WebhookClientConfig{Service: &ServiceReference{Port: &port}},
				}},
			}},
			want: CustomResourceDefinition{Spec: CustomResourceDefinitionSpec{
				Names: CustomResourceDefinitionNames{Kind: "Foo", Singular: "f", ListKind: "Foos"},
				Conversion: &CustomResourceConversion{Strategy: WebhookConverter, Webhook: &WebhookConversion{
					ClientConfig: &WebhookClientConfig{Service: &ServiceReference{Port: &port}},
				}},
			}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.in.DeepCopy()
			SetDefaults(got)
			assert.Equal(t, &tc.want, got)
			SetDefaults(got)
			assert.Equal(t, &tc.want, got, "idempotent")
		})
	}

	list := &CustomResourceDefinitionList{Items: []CustomResourceDefinition{{}}}
	SetDefaults(list)
	assert.Equal(t, NoneConverter, list.Items[0].Spec.Conversion.Strategy, "list items are defaulted")
}

func TestConditions(t *testing.T) {
	t0 := metav1.NewTime(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
	t1 := metav1.NewTime(t0.Add(time.Minute))
	crd := &CustomResourceDefinition{}
	assert.False(t, IsCRDConditionTrue(crd, Established))

	SetCRDCondition(crd, CustomResourceDefinitionCondition{Type: Established, Status: ConditionFalse, Reason: ReasonInstalling}, t0)
	SetCRDCondition(crd, CustomResourceDefinitionCondition{Type: NamesAccepted, Status: ConditionTrue, Reason: ReasonNoConflicts}, t0)
	assert.False(t, IsCRDConditionTrue(crd, Established))
	assert.True(t, IsCRDConditionTrue(crd, NamesAccepted))

	SetCRDCondition(crd, CustomResourceDefinitionCondition{Type: NamesAccepted, Status: ConditionTrue, Reason: "Other"}, t1)
	c := FindCRDCondition(crd, NamesAccepted)
	assert.Equal(t, t0, c.LastTransitionTime, "same status keeps the transition time")
	assert.Equal(t, "Other", c.Reason)

	SetCRDCondition(crd, CustomResourceDefinitionCondition{Type: Established, Status: ConditionTrue, Reason: ReasonInitialNamesAccepted}, t1)
	assert.Equal(t, t1, FindCRDCondition(crd, Established).LastTransitionTime, "a new status moves the transition time")
	assert.True(t, IsCRDConditionTrue(crd, Established))

	RemoveCRDCondition(crd, Established)
	RemoveCRDCondition(crd, NamesAccepted)
	assert.Nil(t, FindCRDCondition(crd, Established))
	assert.NotNil(t, crd.Status.Conditions, "an empty list, written as []")
}
