package v1

import (
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// GroupName is the core group, which has no name: its paths are /api/v1.
const GroupName = ""

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// resources returns the resources of this package as Kubernetes discovery
// reports them at /api/v1: names, scope, verbs, short names, categories and
// the subresources minicp serves. Each call returns fresh slices.
func resources() []runtime.ResourceInfo {
	gv := SchemeGroupVersion
	// Namespaces have no deletecollection in upstream discovery: deleting
	// every namespace at once is too dangerous to offer.
	namespaceVerbs := []string{"create", "delete", "get", "list", "patch", "update", "watch"}
	return []runtime.ResourceInfo{
		{
			GVR: gv.WithResource("namespaces"), Kind: "Namespace", SingularName: "namespace",
			Verbs: namespaceVerbs, ShortNames: []string{"ns"},
			Subresources: []string{"status", "finalize"},
		},
		{
			GVR: gv.WithResource("pods"), Kind: "Pod", SingularName: "pod", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"po"}, Categories: []string{"all"},
			Subresources: []string{"status", "binding"},
		},
		{
			GVR: gv.WithResource("nodes"), Kind: "Node", SingularName: "node",
			Verbs: allVerbs(), ShortNames: []string{"no"},
			Subresources: []string{"status"},
		},
		{
			// Bindings can only be created, so they need no list kind.
			GVR: gv.WithResource("bindings"), Kind: "Binding", SingularName: "binding", Namespaced: true,
			Verbs: []string{"create"},
		},
		{
			GVR: gv.WithResource("events"), Kind: "Event", SingularName: "event", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"ev"},
		},
		{
			// Services have deletecollection, as upstream's (a conformance
			// test deletes a collection of services); each service it
			// deletes releases its cluster IP and node ports, as a single
			// delete does.
			GVR: gv.WithResource("services"), Kind: "Service", SingularName: "service", Namespaced: true,
			Verbs:      allVerbs(),
			ShortNames: []string{"svc"}, Categories: []string{"all"},
			Subresources: []string{"status"},
		},
		{
			GVR: gv.WithResource("endpoints"), Kind: "Endpoints", SingularName: "endpoints", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"ep"},
		},
		{
			GVR: gv.WithResource("configmaps"), Kind: "ConfigMap", SingularName: "configmap", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"cm"},
		},
		{
			GVR: gv.WithResource("secrets"), Kind: "Secret", SingularName: "secret", Namespaced: true,
			Verbs: allVerbs(),
		},
		{
			GVR: gv.WithResource("serviceaccounts"), Kind: "ServiceAccount", SingularName: "serviceaccount", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"sa"},
			Subresources: []string{"token"},
		},
		{
			GVR: gv.WithResource("resourcequotas"), Kind: "ResourceQuota", SingularName: "resourcequota", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"quota"},
			Subresources: []string{"status"},
		},
		{
			GVR: gv.WithResource("limitranges"), Kind: "LimitRange", SingularName: "limitrange", Namespaced: true,
			Verbs: allVerbs(), ShortNames: []string{"limits"},
		},
	}
}

func allVerbs() []string { return append([]string(nil), runtime.AllVerbs...) }

// AddToScheme registers the kinds of this package under
// SchemeGroupVersion, then their resources with the names, scope, verbs,
// short names and categories Kubernetes discovery reports at /api/v1.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion,
		&Namespace{}, &NamespaceList{},
		&Pod{}, &PodList{},
		&Node{}, &NodeList{},
		&Binding{},
		&Event{}, &EventList{},
		&Service{}, &ServiceList{},
		&Endpoints{}, &EndpointsList{},
		&ConfigMap{}, &ConfigMapList{},
		&Secret{}, &SecretList{},
		&ServiceAccount{}, &ServiceAccountList{},
		&ResourceQuota{}, &ResourceQuotaList{},
		&LimitRange{}, &LimitRangeList{},
	)
	for _, info := range resources() {
		if err := s.AddResource(info); err != nil {
			return fmt.Errorf("register %s: %w", info.GVR, err)
		}
	}
	return nil
}
