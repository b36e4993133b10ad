package apiextensions

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kapiextensions "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	kapiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	kcrdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"
	"sigs.k8s.io/yaml"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	crdvalidation "github.com/minicp/minicp/api/apiextensions/v1/validation"
)

// crdBase is a valid CRD the cases below change with a JSON merge patch
// (written as YAML).
const crdBase = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
`

// crds returns both sides' decoded and defaulted CRD from YAML.
func crds(t *testing.T, doc string) (*apiextensionsv1.CustomResourceDefinition, *kapiextensions.CustomResourceDefinition) {
	t.Helper()
	j, err := yaml.YAMLToJSON([]byte(doc))
	require.NoError(t, err)
	var m apiextensionsv1.CustomResourceDefinition
	require.NoError(t, json.Unmarshal(j, &m))
	apiextensionsv1.SetDefaults(&m)
	var v1 kapiextensionsv1.CustomResourceDefinition
	require.NoError(t, json.Unmarshal(j, &v1))
	kapiextensionsv1.SetObjectDefaults_CustomResourceDefinition(&v1)
	var internal kapiextensions.CustomResourceDefinition
	require.NoError(t, kapiextensionsv1.Convert_v1_CustomResourceDefinition_To_apiextensions_CustomResourceDefinition(&v1, &internal, nil))
	return &m, &internal
}

// withVersions replaces the base CRD's versions (given as YAML, indented
// as a list under spec) and adds other spec or top-level fields.
func crdWith(spec string) string {
	base := crdBase[:strings.Index(crdBase, "  versions:")]
	return base + spec
}

var crdCases = []struct {
	name string
	doc  string
}{
	{name: "valid", doc: crdBase},
	{name: "bad names", doc: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: wrong.example.com}
spec:
  group: nodot
  names: {plural: Widgets, singular: "w_x", kind: "Widget Kind", listKind: "Widget Kind", shortNames: ["-x"], categories: ["A"]}
  scope: Global
  versions:
  - {name: V1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
  - {name: V1, served: true, storage: false, schema: {openAPIV3Schema: {type: object}}}
`},
	{name: "no versions", doc: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  names: {plural: widgets, kind: ""}
  scope: Cluster
`},
	{name: "missing schema and two storage versions", doc: crdWith(`
  versions:
  - {name: v1, served: true, storage: true}
  - {name: v2, served: false, storage: true, schema: {openAPIV3Schema: {type: object}}}
`)},
	{name: "not structural", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            properties:
              name: {type: string}
              labels: {type: object}
          spec:
            properties:
              list: {type: array}
              map:
                type: object
                properties: {a: {type: string}}
                additionalProperties: {type: string}
              either:
                type: string
                anyOf:
                - type: string
                  description: "no"
                - nullable: true
                  properties: {x: {type: string}}
              nested:
                type: object
                properties:
                  metadata: {type: object}
              items: {type: array, items: [{type: string}]}
              nulltype: {type: "null"}
              badtype: {type: date}
              pattern: {type: string, pattern: "("}
              uniq: {type: array, items: {type: string}, uniqueItems: true}
`)},
	{name: "unsupported fields", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            id: x
            $ref: "#/definitions/x"
            patternProperties: {"^a": {type: string}}
            definitions: {x: {type: string}}
            dependencies: {a: [b]}
            additionalItems: false
`)},
	{name: "defaults", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          metadata:
            type: object
            default: {name: x}
          spec:
            type: object
            default: {replicas: 1, unknown: true}
            properties:
              replicas: {type: integer, default: "one", minimum: 0}
              negative: {type: integer, default: -1, minimum: 0}
              mode: {type: string, enum: [a, b], default: c}
              list: {type: array, items: {type: string, default: 1}}
              labels:
                type: object
                additionalProperties: {type: string, default: 1}
              template:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  metadata:
                    type: object
                    properties:
                      name: {type: string, default: "Not_A_Name"}
                default: {kind: Pod, metadata: {name: p}}
`)},
	{name: "extensions", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              a: {type: string, x-kubernetes-list-type: set}
              b: {type: array, items: {type: string}, x-kubernetes-list-type: other}
              c: {type: array, items: {type: object}, x-kubernetes-list-map-keys: [name]}
              d:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [name, name, missing, obj]
                items:
                  type: object
                  properties:
                    name: {type: string, nullable: true}
                    obj: {type: object}
              e: {type: array, x-kubernetes-list-type: map, items: {type: string}}
              f: {type: array, x-kubernetes-list-type: set, items: {type: object, nullable: true}}
              g: {type: string, x-kubernetes-map-type: bogus}
              h: {x-kubernetes-int-or-string: true, x-kubernetes-preserve-unknown-fields: true}
              i: {type: string, x-kubernetes-embedded-resource: true}
              j: {type: object, x-kubernetes-embedded-resource: true}
              k: {type: object, x-kubernetes-preserve-unknown-fields: false}
              l: {type: array, x-kubernetes-list-type: set, items: {type: array, items: {type: string}, x-kubernetes-list-type: set}}
              m:
                type: object
                x-kubernetes-embedded-resource: true
                x-kubernetes-preserve-unknown-fields: true
                properties:
                  kind: {type: integer}
                  metadata: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true}
`)},
	{name: "rules", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
            x-kubernetes-validations:
            - rule: ""
            - {rule: "self.replicas > 0", message: " "}
            - {rule: "self.replicas > 0", message: "a\nb"}
            - {rule: "self.replicas >\n0"}
            - {rule: "self.replicas > 0", messageExpression: " "}
            - {rule: "self.replicas > 0", reason: Other}
            - {rule: "self.replicas > 0", fieldPath: " "}
            - {rule: "self.replicas > 0", fieldPath: ".nope"}
            - {rule: "self.replicas > 0", fieldPath: ".replicas\n"}
`)},
	{name: "cel", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        x-kubernetes-validations:
        - {rule: "self.metadata.name.size() < 10"}
        - {rule: "self.spec.nope == 1"}
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "self.replicas"}
            - {rule: "self.replicas > 'a'"}
            - {rule: "self.replicas > 0", messageExpression: "self.replicas"}
            - {rule: "self.replicas > 0", messageExpression: "self.nope"}
            - {rule: "self.replicas == oldSelf.replicas", optionalOldSelf: true}
            - {rule: "self.replicas > 0", optionalOldSelf: false}
            - {rule: "self.list.all(x, x.matches('['))"}
            properties:
              replicas: {type: integer}
              list:
                type: array
                items:
                  type: object
                  properties: {a: {type: string}}
                  x-kubernetes-validations: [{rule: "self.a == oldSelf.a"}, {rule: "self.a != ''"}]
              map:
                type: array
                x-kubernetes-list-type: map
                x-kubernetes-list-map-keys: [k]
                items:
                  type: object
                  required: [k]
                  properties: {k: {type: string}}
                  x-kubernetes-validations: [{rule: "self.k == oldSelf.k"}]
              labels:
                type: object
                additionalProperties: {type: string}
                x-kubernetes-validations: [{rule: "self.b == 1"}, {rule: "self.all(k, self[k] == oldSelf[k])"}]
`)},
	{name: "status subresource root and columns", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: {specReplicasPath: spec.replicas, statusReplicasPath: .spec.replicas, labelSelectorPath: .metadata.labels}
    additionalPrinterColumns:
    - {name: "", type: "", jsonPath: ""}
    - {name: x, type: list, format: uuid, jsonPath: "spec"}
    selectableFields:
    - jsonPath: .metadata.name
    - jsonPath: .spec.obj
    - jsonPath: .spec.missing
    - jsonPath: ".spec['replicas']"
    - jsonPath: .spec.replicas
    - jsonPath: .spec.replicas
    - jsonPath: ""
    schema:
      openAPIV3Schema:
        type: object
        nullable: true
        minProperties: 1
        properties:
          spec:
            type: object
            properties:
              replicas: {type: integer}
              obj: {type: object}
`)},
	{name: "two versions differ", doc: crdWith(`
  versions:
  - name: v1
    served: true
    storage: true
    deprecated: false
    deprecationWarning: "nope"
    schema: {openAPIV3Schema: {type: object, properties: {spec: {type: string, default: 1}}}}
    subresources: {scale: {specReplicasPath: "", statusReplicasPath: ".status.x"}}
  - name: v2
    served: true
    storage: false
    deprecated: true
    deprecationWarning: ""
    schema: {openAPIV3Schema: {type: array}}
    additionalPrinterColumns: [{name: a, type: string, jsonPath: .x}]
`)},
	{name: "webhook conversion", doc: crdWith(`
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: [v3, v3, "Bad"]
      clientConfig:
        url: "http://user:pw@/path?q=1#frag"
        service: {name: "", namespace: "", path: "a//b/", port: 70000}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`)},
	{name: "webhook conversion service", doc: crdWith(`
  conversion:
    strategy: Webhook
    webhook:
      conversionReviewVersions: []
      clientConfig:
        service: {name: s, namespace: ns, path: "/Bad_Segment/"}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`)},
	{name: "none conversion with webhook", doc: crdWith(`
  conversion:
    strategy: Other
    webhook:
      conversionReviewVersions: [v1]
      clientConfig: {url: "https://x"}
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object}}}
`)},
	{name: "stored versions and approval", doc: `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.apps.k8s.io
  annotations: {api-approved.kubernetes.io: "maybe"}
spec:
  group: apps.k8s.io
  names: {plural: widgets, kind: Widget}
  scope: Namespaced
  preserveUnknownFields: true
  versions:
  - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, properties: {a: {type: string, default: x}}}}}
status:
  storedVersions: [v0, v2]
  acceptedNames: {plural: "A B", kind: ""}
`},
}

// TestCRDValidationMatchesKubernetes validates each CRD with minicp and
// with upstream (after each side's defaulting) and requires the same
// errors, except those of CEL compilation, which minicp does not do.
func TestCRDValidationMatchesKubernetes(t *testing.T) {
	golden, err := os.ReadFile(goldenDir + "crd-multiversion.yaml")
	require.NoError(t, err)
	cases := append(crdCases, struct{ name, doc string }{"golden", string(golden)})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, k := crds(t, tc.doc)
			kerrs := kcrdvalidation.ValidateCustomResourceDefinition(context.Background(), k)
			merrs := crdvalidation.ValidateCustomResourceDefinition(m)
			assert.Equal(t, typeNamesOf(upstreamLines(withoutCEL(kerrs))), typeNamesOf(minicpLines(merrs)))
		})
	}
}

// typeNamesOf replaces the random number upstream names CEL object types
// with ("selfType385975526.spec").
func typeNamesOf(lines []string) []string {
	for i := range lines {
		lines[i] = typeNames.ReplaceAllString(lines[i], "selfType")
	}
	return lines
}
