package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "policy"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// SchemeGroupVersionV1beta1 is the older version an Eviction may still be
// spelled in: kubectl before 1.22, and clients built against it, send
// policy/v1beta1 Evictions, which have the same fields.
var SchemeGroupVersionV1beta1 = runtime.GroupVersion{Group: GroupName, Version: "v1beta1"}

// EvictionGVK is the kind of the pods/eviction subresource's body, as
// discovery reports it.
var EvictionGVK = SchemeGroupVersion.WithKind("Eviction")

// Resource returns the poddisruptionbudgets resource as discovery reports
// it: namespaced, with the status subresource.
func Resource() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("poddisruptionbudgets"), Kind: "PodDisruptionBudget",
		SingularName: "poddisruptionbudget", Namespaced: true,
		Verbs: append([]string(nil), runtime.AllVerbs...), ShortNames: []string{"pdb"},
		Subresources: []string{"status"},
	}
}

// AddToScheme registers PodDisruptionBudget with its list and resource,
// and Eviction, the kind of a subresource of pods.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &PodDisruptionBudget{}, &PodDisruptionBudgetList{}, &Eviction{})
	if err := s.AddResource(Resource()); err != nil {
		return fmt.Errorf("register %s: %w", Resource().GVR, err)
	}
	return nil
}
