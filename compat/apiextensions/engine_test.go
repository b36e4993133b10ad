package apiextensions

import (
	"context"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kstructural "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	kdefaulting "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting"
	klisttype "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/listtype"
	kobjectmeta "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta"
	kpruning "k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	kvalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/minicp/minicp/api/apiextensions/schema"
)

// engines builds both sides' structural schema (and upstream's validator)
// for a case.
func engines(t *testing.T, tc schemaCase) (*schema.Structural, *kstructural.Structural, kvalidation.SchemaValidator) {
	t.Helper()
	m, k := schemas(t, tc.schema)
	ms, err := schema.NewStructural(m)
	require.NoError(t, err, "minicp NewStructural")
	ks, err := kstructural.NewStructural(k)
	require.NoError(t, err, "upstream NewStructural")
	kv, _, err := kvalidation.NewSchemaValidator(k)
	require.NoError(t, err, "upstream NewSchemaValidator")
	return ms, ks, kv
}

// TestValidateMatchesKubernetes validates each object with minicp's
// Validate and with what upstream's custom resource strategy runs (the
// OpenAPI validator, embedded ObjectMeta, list types), and requires the
// same errors: type, field and message.
func TestValidateMatchesKubernetes(t *testing.T) {
	for _, tc := range schemaCases {
		ms, ks, kv := engines(t, tc)
		for i, doc := range tc.objects {
			t.Run(fmt.Sprintf("%s/%d", tc.name, i), func(t *testing.T) {
				obj := object(t, doc)
				kerrs := kvalidation.ValidateCustomResource(nil, deepCopy(t, obj), kv)
				kerrs = append(kerrs, kobjectmeta.Validate(context.Background(), nil, deepCopy(t, obj), ks, false)...)
				if m, ok := deepCopy(t, obj).(map[string]any); ok {
					kerrs = append(kerrs, klisttype.ValidateListSetsAndMaps(nil, ks, m)...)
				}
				merrs := schema.Validate(ms, obj, "")
				assert.Equal(t, upstreamLines(kerrs), minicpLines(merrs), "object %s", doc)
			})
		}
	}
}

// TestValidateStatusMatchesKubernetes validates the status schema as the
// status subresource does: the status value against properties.status,
// errors under "status".
func TestValidateStatusMatchesKubernetes(t *testing.T) {
	tc := schemaCase{schema: `
type: object
properties:
  status:
    type: object
    required: [phase]
    properties:
      phase: {type: string, enum: [Pending, Running]}
      replicas: {type: integer, minimum: 0}
      conditions:
        type: array
        items: {type: object, properties: {type: {type: string}}}
`}
	m, k := schemas(t, tc.schema)
	ms, err := schema.NewStructural(m)
	require.NoError(t, err)
	statusK := k.Properties["status"]
	kv, _, err := kvalidation.NewSchemaValidator(&statusK)
	require.NoError(t, err)
	statusM := ms.Properties["status"]
	for _, doc := range []string{
		`{"phase": "Running", "replicas": 1}`,
		`{"phase": "Done", "replicas": -1, "conditions": [{"type": 1}]}`,
		`{}`,
		`"x"`,
	} {
		status := object(t, doc)
		kerrs := kvalidation.ValidateCustomResource(field.NewPath("status"), deepCopy(t, status), kv)
		assert.Equal(t, upstreamLines(kerrs), minicpLines(schema.Validate(&statusM, status, "status")), "status %s", doc)
	}
}

// TestPruneMatchesKubernetes prunes each object on both sides and
// requires the same result and the same unknown field paths.
func TestPruneMatchesKubernetes(t *testing.T) {
	for _, tc := range schemaCases {
		ms, ks, _ := engines(t, tc)
		for i, doc := range tc.objects {
			t.Run(fmt.Sprintf("%s/%d", tc.name, i), func(t *testing.T) {
				for _, root := range []bool{true, false} {
					kobj := object(t, doc)
					kpaths := kpruning.PruneWithOptions(kobj, ks, root, kstructural.UnknownFieldPathOptions{TrackUnknownFieldPaths: true})
					mobj := object(t, doc)
					mpaths := schema.Prune(mobj, ms, root)
					assert.Equal(t, kobj, mobj, "pruned object %s (root %v)", doc, root)
					assert.Equal(t, kpaths, mpaths, "unknown fields of %s (root %v)", doc, root)
				}
			})
		}
	}
}

// TestDefaultMatchesKubernetes runs the decoding pipeline of the API
// server on both sides (prune defaults in the schema; prune the object,
// drop non-nullable nulls, coerce embedded metadata, default) and
// requires the same object after each step.
func TestDefaultMatchesKubernetes(t *testing.T) {
	cases := append([]schemaCase{}, schemaCases...)
	cases = append(cases, defaultingCases...)
	for _, tc := range cases {
		ms, ks, _ := engines(t, tc)
		ks = ks.DeepCopy()
		require.NoError(t, kdefaulting.PruneDefaults(ks), "upstream PruneDefaults")
		require.NoError(t, schema.PruneDefaults(ms), "minicp PruneDefaults")
		for i, doc := range tc.objects {
			t.Run(fmt.Sprintf("%s/%d", tc.name, i), func(t *testing.T) {
				kobj, mobj := object(t, doc), object(t, doc)

				kdefaulting.Default(kobj, ks)
				schema.Default(mobj, ms)
				assert.Equal(t, kobj, mobj, "Default alone on %s", doc)

				kobj, mobj = object(t, doc), object(t, doc)
				kpruning.Prune(kobj, ks, true)
				schema.Prune(mobj, ms, true)
				kdefaulting.PruneNonNullableNullsWithoutDefaults(kobj, ks)
				schema.PruneNonNullableNullsWithoutDefaults(mobj, ms)
				assert.Equal(t, kobj, mobj, "after pruning nulls of %s", doc)
				kerr := kobjectmeta.Coerce(nil, kobj, ks, false, true)
				merr := schema.Coerce(mobj, ms, false, true)
				assert.Equal(t, kerr == nil, merr == nil, "Coerce error of %s: %v / %v", doc, kerr, merr)
				assert.Equal(t, kobj, mobj, "after coercing %s", doc)
				kdefaulting.Default(kobj, ks)
				schema.Default(mobj, ms)
				assert.Equal(t, kobj, mobj, "after defaulting %s", doc)
			})
		}
	}
}

var defaultingCases = []schemaCase{
	{
		name: "defaults",
		schema: `
type: object
properties:
  spec:
    type: object
    default: {}
    properties:
      replicas: {type: integer, default: 1}
      ratio: {type: number, default: 0.5}
      mode: {type: string, default: fast, nullable: true}
      strict: {type: string, default: x}
      plain: {type: string}
      nested:
        type: object
        default: {a: {}, unknown: 1}
        properties:
          a:
            type: object
            properties:
              b: {type: string, default: B}
      list:
        type: array
        items:
          type: object
          properties:
            name: {type: string}
            port: {type: integer, default: 80}
      nullitems:
        type: array
        items: {type: string, default: none}
      map:
        type: object
        additionalProperties:
          type: object
          default: {x: 1}
          properties:
            x: {type: integer}
            yy: {type: integer, default: 2}
      pod:
        type: object
        x-kubernetes-embedded-resource: true
        x-kubernetes-preserve-unknown-fields: true
        default: {apiVersion: v1, kind: Pod, metadata: {name: x, unknown: 1}, spec: {}}
`,
		objects: []string{
			`{}`,
			`{"spec": null}`,
			`{"spec": {"replicas": 3, "mode": null, "strict": null, "plain": null, "list": [{}, {"port": 1}, null], "nullitems": [null, "a"], "map": {"a": null, "b": {}, "c": {"x": 5}}}}`,
			`{"spec": {"nested": {}, "list": "x", "map": "y"}}`,
			`{"spec": {"nested": null, "pod": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "bogus": true}}}}`,
		},
	},
}
