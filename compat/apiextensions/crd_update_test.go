package apiextensions

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	kcrdvalidation "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation"

	crdvalidation "github.com/minicp/minicp/api/apiextensions/v1/validation"
)

const established = `
status:
  conditions: [{type: Established, status: "True"}]
  storedVersions: [v1]
`

// TestCRDUpdateValidationMatchesKubernetes validates updates of CRDs on
// both sides.
func TestCRDUpdateValidationMatchesKubernetes(t *testing.T) {
	withRV := strings.Replace(crdBase, "  name: widgets.example.com", "  name: widgets.example.com\n  resourceVersion: \"7\"", 1)
	tests := []struct {
		name     string
		old, new string
	}{
		{name: "unchanged", old: withRV, new: withRV},
		{name: "group and plural are immutable, scope and kind once established",
			old: withRV + established,
			new: strings.NewReplacer("group: example.com", "group: other.example.com", "plural: widgets", "plural: gadgets",
				"kind: Widget", "kind: Gadget", "scope: Namespaced", "scope: Cluster").Replace(withRV) + established},
		{name: "scope and kind may change before established",
			old: withRV, new: strings.NewReplacer("kind: Widget", "kind: Gadget", "scope: Namespaced", "scope: Cluster").Replace(withRV)},
		{name: "stored version removed",
			old: withRV + "status:\n  storedVersions: [v1beta1, v1]\n", new: withRV + "status:\n  storedVersions: [v1beta1, v1]\n"},
		{name: "no resourceVersion", old: withRV, new: crdBase},
		{name: "a non-structural schema stays allowed",
			old: strings.Replace(withRV, "replicas: {type: integer}", "replicas: {description: untyped}", 1),
			new: strings.Replace(withRV, "replicas: {type: integer}", "replicas: {description: still untyped}\n              other: {description: new}", 1)},
		{name: "unpruned defaults stay allowed",
			old: strings.Replace(withRV, "replicas: {type: integer}", "replicas: {type: object, default: {a: 1}}", 1),
			new: strings.Replace(withRV, "replicas: {type: integer}", "replicas: {type: object, default: {a: 1}}\n              b: {type: object, default: {b: 1}}", 1)},
		{name: "new unpruned default",
			old: withRV,
			new: strings.Replace(withRV, "replicas: {type: integer}", "replicas: {type: object, default: {a: 1}}", 1)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			mOld, kOld := crds(t, tc.old)
			mNew, kNew := crds(t, tc.new)
			kerrs := kcrdvalidation.ValidateCustomResourceDefinitionUpdate(context.Background(), kNew, kOld)
			merrs := crdvalidation.ValidateCustomResourceDefinitionUpdate(mNew, mOld)
			assert.Equal(t, typeNamesOf(upstreamLines(withoutCEL(kerrs))), typeNamesOf(minicpLines(merrs)))
		})
	}
}
