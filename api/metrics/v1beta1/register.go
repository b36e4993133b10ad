package v1beta1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the API group of this package.
const GroupName = "metrics.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1beta1"}

// readVerbs are the verbs metrics-server serves: the usage is measured,
// never written, and a watch would have nothing to wait for.
var readVerbs = []string{"get", "list"}

// NodesResource returns the nodes resource of metrics.k8s.io as
// metrics-server's discovery reports it: cluster-scoped NodeMetrics.
func NodesResource() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("nodes"), Kind: "NodeMetrics",
		Verbs: append([]string(nil), readVerbs...),
	}
}

// PodsResource returns the pods resource of metrics.k8s.io as
// metrics-server's discovery reports it: namespaced PodMetrics.
func PodsResource() runtime.ResourceInfo {
	return runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("pods"), Kind: "PodMetrics",
		Namespaced: true, Verbs: append([]string(nil), readVerbs...),
	}
}

// AddToScheme registers NodeMetrics and PodMetrics with their lists and
// resources.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &NodeMetrics{}, &NodeMetricsList{}, &PodMetrics{}, &PodMetricsList{})
	for _, r := range []runtime.ResourceInfo{NodesResource(), PodsResource()} {
		if err := s.AddResource(r); err != nil {
			return fmt.Errorf("register %s: %w", r.GVR, err)
		}
	}
	return nil
}
