package validation

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// summary renders errors as "<cause type> <field>".
func summary(errs apierrors.FieldErrors) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, string(e.Type)+" "+e.Field)
	}
	return out
}

func schemaOf(t *testing.T, j string) *apiextensionsv1.CustomResourceValidation {
	t.Helper()
	var p apiextensionsv1.JSONSchemaProps
	require.NoError(t, json.Unmarshal([]byte(j), &p), "schema %s", j)
	return &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &p}
}

// validCRD is a minimal valid CRD after defaulting.
func validCRD(t *testing.T) *apiextensionsv1.CustomResourceDefinition {
	crd := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: "widgets.example.com"},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: "example.com",
			Names: apiextensionsv1.CustomResourceDefinitionNames{Plural: "widgets", Kind: "Widget"},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: "v1", Served: true, Storage: true,
				Schema: schemaOf(t, `{"type": "object", "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer"}}}}}`),
			}},
		},
	}
	apiextensionsv1.SetDefaults(crd)
	return crd
}

func TestValidateCustomResourceDefinition(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*apiextensionsv1.CustomResourceDefinition)
		want   []string
	}{
		{name: "valid", mutate: func(*apiextensionsv1.CustomResourceDefinition) {}, want: []string{}},
		{name: "name must match", mutate: func(c *apiextensionsv1.CustomResourceDefinition) { c.Name = "gadgets.example.com" },
			want: []string{"FieldValueInvalid metadata.name"}},
		{name: "group needs a dot", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Group, c.Name = "example", "widgets.example"
		}, want: []string{"FieldValueInvalid spec.group"}},
		{name: "scope", mutate: func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Scope = "Global" },
			want: []string{"FieldValueNotSupported spec.scope"}},
		{name: "no storage version", mutate: func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Versions[0].Storage = false },
			want: []string{"FieldValueInvalid spec.versions"}},
		{name: "duplicate and bad version names", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			v := c.Spec.Versions[0]
			v.Storage = false
			c.Spec.Versions = append(c.Spec.Versions, v, v)
			c.Spec.Versions[2].Name = "V2"
		}, want: []string{"FieldValueInvalid spec.versions[2].name", "FieldValueInvalid spec.versions"}},
		{name: "schema required", mutate: func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.Versions[0].Schema = nil },
			want: []string{"FieldValueRequired spec.versions[0].schema.openAPIV3Schema"}},
		{name: "schema not structural", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = schemaOf(t, `{"type": "object", "properties": {"spec": {"properties": {"a": {"type": "string"}}}}}`)
		}, want: []string{"FieldValueRequired spec.validation.openAPIV3Schema.properties[spec].type"}},
		{name: "per-version schemas are reported per version", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			v := c.Spec.Versions[0]
			v.Name, v.Storage = "v2", false
			v.Schema = schemaOf(t, `{"type": "object", "properties": {"spec": {"type": "object", "additionalProperties": {"type": "string"}, "properties": {"a": {"type": "string"}}}}}`)
			c.Spec.Versions = append(c.Spec.Versions, v)
		}, want: []string{"FieldValueForbidden spec.versions[1].schema.openAPIV3Schema.properties[spec].additionalProperties"}},
		{name: "bad default", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = schemaOf(t, `{"type": "object", "properties": {"spec": {"type": "object", "properties": {"replicas": {"type": "integer", "default": "x"}}}}}`)
		}, want: []string{"FieldValueTypeInvalid spec.validation.openAPIV3Schema.properties[spec].properties[replicas].default"}},
		{name: "names", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Names.ShortNames = []string{"W"}
			c.Spec.Names.ListKind = "Widget"
		}, want: []string{"FieldValueInvalid spec.names.shortNames[0]", "FieldValueInvalid spec.names.listKind"}},
		{name: "columns and scale", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].AdditionalPrinterColumns = []apiextensionsv1.CustomResourceColumnDefinition{{Name: "R", Type: "int", JSONPath: "spec.replicas"}}
			c.Spec.Versions[0].Subresources = &apiextensionsv1.CustomResourceSubresources{
				Scale: &apiextensionsv1.CustomResourceSubresourceScale{SpecReplicasPath: ".status.replicas"},
			}
		}, want: []string{
			"FieldValueInvalid spec.subresources.scale.specReplicasPath",
			"FieldValueRequired spec.subresources.scale.statusReplicasPath",
			"FieldValueInvalid spec.additionalPrinterColumns[0].type",
			"FieldValueInvalid spec.additionalPrinterColumns[0].JSONPath",
		}},
		{name: "webhook conversion", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			u := "http://example.com"
			c.Spec.Conversion = &apiextensionsv1.CustomResourceConversion{Strategy: apiextensionsv1.WebhookConverter,
				Webhook: &apiextensionsv1.WebhookConversion{ClientConfig: &apiextensionsv1.WebhookClientConfig{URL: &u}}}
		}, want: []string{"FieldValueInvalid spec.conversion.webhookClientConfig.url", "FieldValueRequired spec.conversion.conversionReviewVersions"}},
		{name: "stored versions", mutate: func(c *apiextensionsv1.CustomResourceDefinition) { c.Status.StoredVersions = []string{"v0"} },
			want: []string{"FieldValueInvalid status.storedVersions", "FieldValueInvalid status.storedVersions[0]"}},
		{name: "protected group needs approval", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Group, c.Name = "x.k8s.io", "widgets.x.k8s.io"
		}, want: []string{"FieldValueRequired metadata.annotations[api-approved.kubernetes.io]"}},
		{name: "cleanup finalizer is valid", mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Finalizers = []string{apiextensionsv1.CustomResourceCleanupFinalizer}
		}, want: []string{}},
		{name: "preserveUnknownFields", mutate: func(c *apiextensionsv1.CustomResourceDefinition) { c.Spec.PreserveUnknownFields = true },
			want: []string{"FieldValueInvalid spec.preserveUnknownFields"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			crd := validCRD(t)
			tc.mutate(crd)
			assert.Equal(t, tc.want, summary(ValidateCustomResourceDefinition(crd)))
		})
	}
}

func TestValidateCustomResourceDefinitionMessages(t *testing.T) {
	crd := validCRD(t)
	crd.Spec.Versions[0].Schema = schemaOf(t, `{"type": "object", "properties": {"metadata": {"type": "object", "properties": {"labels": {"type": "object"}}}}}`)
	assert.Equal(t, []string{
		"spec.validation.openAPIV3Schema.properties[metadata]: Forbidden: must not specify anything other than name and generateName, but metadata is implicitly specified",
	}, messagesOf(ValidateCustomResourceDefinition(crd)))
}

func messagesOf(errs apierrors.FieldErrors) []string {
	out := []string{}
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func TestValidateCustomResourceDefinitionUpdate(t *testing.T) {
	establish := func(c *apiextensionsv1.CustomResourceDefinition) {
		c.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{{Type: apiextensionsv1.Established, Status: apiextensionsv1.ConditionTrue}}
	}
	tests := []struct {
		name   string
		old    func(*apiextensionsv1.CustomResourceDefinition)
		mutate func(*apiextensionsv1.CustomResourceDefinition)
		want   []string
	}{
		{name: "unchanged", old: func(*apiextensionsv1.CustomResourceDefinition) {}, mutate: func(*apiextensionsv1.CustomResourceDefinition) {}, want: []string{}},
		{name: "group and plural are immutable", old: func(*apiextensionsv1.CustomResourceDefinition) {},
			mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
				c.Spec.Group, c.Spec.Names.Plural, c.Spec.Names.Kind = "other.com", "gadgets", "Gadget"
			},
			want: []string{"FieldValueInvalid spec.group", "FieldValueInvalid spec.names.plural"}},
		{name: "kind and scope are immutable once established", old: establish,
			mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
				establish(c)
				c.Spec.Names.Kind, c.Spec.Scope = "Gadget", apiextensionsv1.ClusterScoped
			},
			want: []string{"FieldValueInvalid spec.scope", "FieldValueInvalid spec.names.kind"}},
		// v1 always prunes, so a schema must be structural even if the
		// stored one was not.
		{name: "a schema that was not structural must become so", old: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = schemaOf(t, `{"type": "object", "properties": {"a": {"description": "untyped"}}}`)
		}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = schemaOf(t, `{"type": "object", "properties": {"a": {"description": "still untyped"}}}`)
		}, want: []string{"FieldValueRequired spec.validation.openAPIV3Schema.properties[a].type"}},
		{name: "an unpruned default may stay", old: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = schemaOf(t, `{"type": "object", "properties": {"a": {"type": "object", "default": {"x": 1}}}}`)
		}, mutate: func(c *apiextensionsv1.CustomResourceDefinition) {
			c.Spec.Versions[0].Schema = schemaOf(t, `{"type": "object", "properties": {"a": {"type": "object", "default": {"x": 1}}, "b": {"type": "string"}}}`)
		}, want: []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old := validCRD(t)
			old.ResourceVersion = "1"
			tc.old(old)
			crd := old.DeepCopy()
			tc.mutate(crd)
			assert.Equal(t, tc.want, summary(ValidateCustomResourceDefinitionUpdate(crd, old)))
		})
	}
}

func TestGoldenCRDIsValid(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "crd-multiversion.json"))
	require.NoError(t, err)
	var crd apiextensionsv1.CustomResourceDefinition
	_, err = runtime.Decode(data, &crd)
	require.NoError(t, err)
	assert.Empty(t, ValidateCustomResourceDefinition(&crd))
	assert.Empty(t, ValidateCustomResourceDefinitionUpdate(&crd, &crd))
}
