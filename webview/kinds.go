package webview

import (
	"cmp"
	"slices"
	"sync"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/informer"
)

// commonKinds are the built-in resources the objects panel lists: the
// ones the flows of a workshop create. Events and Leases are left out:
// they change every few seconds and would keep the page busy with noise.
var commonKinds = []runtime.GroupVersionResource{
	{Version: "v1", Resource: "namespaces"},
	{Version: "v1", Resource: "nodes"},
	{Version: "v1", Resource: "pods"},
	{Version: "v1", Resource: "services"},
	{Version: "v1", Resource: "endpoints"},
	{Version: "v1", Resource: "configmaps"},
	{Version: "v1", Resource: "secrets"},
	{Version: "v1", Resource: "serviceaccounts"},
	{Group: "apps", Version: "v1", Resource: "deployments"},
	{Group: "apps", Version: "v1", Resource: "replicasets"},
	{Group: "apps", Version: "v1", Resource: "statefulsets"},
	{Group: "batch", Version: "v1", Resource: "jobs"},
	{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"},
}

var (
	podsGVR  = runtime.GroupVersionResource{Version: "v1", Resource: "pods"}
	nodesGVR = runtime.GroupVersionResource{Version: "v1", Resource: "nodes"}
	crdsGVR  = runtime.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

// kindInformers are the web view's informers, one per listed kind: the
// common built-in ones, and the storage version of every established
// CRD's custom resources, added as CRDs appear.
type kindInformers struct {
	factory  *informer.SharedInformerFactory
	client   *client.Client
	onChange func()

	// mu guards byGVR, infos and custom, which hold the same keys.
	mu     sync.Mutex
	byGVR  map[runtime.GroupVersionResource]*informer.SharedInformer
	infos  map[runtime.GroupVersionResource]runtime.ResourceInfo
	custom map[runtime.GroupVersionResource]bool
}

func newKindInformers(f *informer.SharedInformerFactory, c *client.Client, onChange func()) (*kindInformers, error) {
	k := &kindInformers{
		factory: f, client: c, onChange: onChange,
		byGVR:  map[runtime.GroupVersionResource]*informer.SharedInformer{},
		infos:  map[runtime.GroupVersionResource]runtime.ResourceInfo{},
		custom: map[runtime.GroupVersionResource]bool{},
	}
	for _, gvr := range commonKinds {
		info, ok := c.Scheme().Resource(gvr)
		if !ok {
			continue // a kind this client's scheme does not know
		}
		if err := k.add(info, false); err != nil {
			return nil, err
		}
	}
	crds := k.informer(crdsGVR)
	if crds == nil {
		return k, nil
	}
	_, err := crds.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj runtime.Object, _ bool) { k.addCRD(obj) },
		UpdateFunc: func(_, obj runtime.Object) { k.addCRD(obj) },
	}, informer.HandlerOptions{})
	return k, err
}

// add starts listing info's resource; custom says it came from a CRD.
func (k *kindInformers) add(info runtime.ResourceInfo, custom bool) error {
	k.mu.Lock()
	_, known := k.byGVR[info.GVR]
	k.mu.Unlock()
	if known {
		return nil
	}
	inf, err := k.factory.InformerFor(info.GVR)
	if err != nil {
		return err
	}
	notify := func() { k.onChange() }
	if _, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(runtime.Object, bool) { notify() },
		UpdateFunc: func(runtime.Object, runtime.Object) { notify() },
		DeleteFunc: func(any) { notify() },
	}, informer.HandlerOptions{}); err != nil {
		return err
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	k.byGVR[info.GVR], k.infos[info.GVR], k.custom[info.GVR] = inf, info, custom
	return nil
}

// addCRD lists the custom resources of crd once it is established, in
// their storage version, as unstructured objects.
func (k *kindInformers) addCRD(obj runtime.Object) {
	crd, ok := obj.(*apiextensionsv1.CustomResourceDefinition)
	if !ok || !apiextensionsv1.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
		return
	}
	for _, v := range crd.Spec.Versions {
		if !v.Storage {
			continue
		}
		info := runtime.ResourceInfo{
			GVR:          runtime.GroupVersionResource{Group: crd.Spec.Group, Version: v.Name, Resource: crd.Spec.Names.Plural},
			Kind:         crd.Spec.Names.Kind,
			SingularName: crd.Spec.Names.Singular,
			Namespaced:   crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			Verbs:        runtime.AllVerbs,
			ListKindName: crd.Spec.Names.ListKind,
		}
		// A scheme that knows the kind (the program's own types) keeps
		// it; AddUnstructuredResource then changes nothing.
		if err := client.AddUnstructuredResource(k.client.Scheme(), info); err != nil {
			return
		}
		_ = k.add(info, true)
	}
}

// informer returns gvr's informer; nil when it is not listed.
func (k *kindInformers) informer(gvr runtime.GroupVersionResource) *informer.SharedInformer {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.byGVR[gvr]
}

// kindSummary is one kind of the objects panel.
type kindSummary struct {
	Group      string   `json:"group"`
	Version    string   `json:"version"`
	Resource   string   `json:"resource"`
	Kind       string   `json:"kind"`
	Namespaced bool     `json:"namespaced"`
	Custom     bool     `json:"custom"`
	Count      int      `json:"count"`
	Names      []string `json:"names"`
}

// maxNames is how many names a kind lists: enough to find an object of
// a workshop's cluster, few enough for the page to stay readable.
const maxNames = 50

// summaries lists every kind with its objects' count and names (as
// namespace/name for namespaced kinds), built-ins first, by kind.
func (k *kindInformers) summaries() []kindSummary {
	k.mu.Lock()
	out := make([]kindSummary, 0, len(k.byGVR))
	infs := make([]*informer.SharedInformer, 0, len(k.byGVR))
	for gvr, inf := range k.byGVR {
		info := k.infos[gvr]
		out = append(out, kindSummary{Group: gvr.Group, Version: gvr.Version, Resource: gvr.Resource, Kind: info.Kind,
			Namespaced: info.Namespaced, Custom: k.custom[gvr]})
		infs = append(infs, inf)
	}
	k.mu.Unlock()
	for i, inf := range infs {
		objs := inf.Indexer().List()
		names := make([]string, 0, len(objs))
		for _, obj := range objs {
			m, err := metav1.Accessor(obj)
			if err != nil {
				continue
			}
			if m.Namespace != "" {
				names = append(names, m.Namespace+"/"+m.Name)
			} else {
				names = append(names, m.Name)
			}
		}
		slices.Sort(names)
		out[i].Count = len(names)
		out[i].Names = names[:min(len(names), maxNames)]
	}
	slices.SortFunc(out, func(a, b kindSummary) int {
		if a.Custom != b.Custom {
			if a.Custom {
				return 1
			}
			return -1
		}
		return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Group, b.Group))
	})
	return out
}
