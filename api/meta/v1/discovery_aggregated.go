package v1

// Aggregated discovery (apidiscovery.k8s.io/v2): one document at /api and
// one at /apis describe every group, version and resource, so a client
// learns the whole API in two requests instead of one per group/version.
// The server answers with it only when the Accept header asks for it
// (g=apidiscovery.k8s.io;v=v2;as=APIGroupDiscoveryList); the kinds below
// are the wire shapes of k8s.io/api/apidiscovery/v2, field for field.

// APIGroupDiscoveryList is the aggregated discovery document: every group
// served under /apis, or the legacy core group alone under /api.
type APIGroupDiscoveryList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`
	Items    []APIGroupDiscovery `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// APIGroupDiscovery is one group and its versions, the preferred version
// first. Its metadata carries only the group's name ("" for the core
// group).
type APIGroupDiscovery struct {
	ObjectMeta `json:"metadata" protobuf:"bytes,1,opt,name=metadata"`
	Versions   []APIVersionDiscovery `json:"versions,omitempty" protobuf:"bytes,2,rep,name=versions"`
}

// APIVersionDiscovery is one version of a group and its resources.
type APIVersionDiscovery struct {
	Version   string                 `json:"version" protobuf:"bytes,1,opt,name=version"`
	Resources []APIResourceDiscovery `json:"resources,omitempty" protobuf:"bytes,2,rep,name=resources"`
	// Freshness is Stale when an aggregated server could not be reached;
	// minicp serves every version itself, so it is always Current.
	Freshness DiscoveryFreshness `json:"freshness,omitempty" protobuf:"bytes,3,opt,name=freshness"`
}

// APIResourceDiscovery describes one resource and its subresources.
// Clients drop a resource without ResponseKind.
type APIResourceDiscovery struct {
	Resource         string            `json:"resource" protobuf:"bytes,1,opt,name=resource"`
	ResponseKind     *GroupVersionKind `json:"responseKind,omitempty" protobuf:"bytes,2,opt,name=responseKind"`
	Scope            ResourceScope     `json:"scope" protobuf:"bytes,3,opt,name=scope"`
	SingularResource string            `json:"singularResource" protobuf:"bytes,4,opt,name=singularResource"`
	// Verbs is a message of its own in protobuf, as in APIResource.
	Verbs        []string                  `json:"verbs" protobuf:"bytes,5,opt,name=verbs" protobuf_wrapped:"true"`
	ShortNames   []string                  `json:"shortNames,omitempty" protobuf:"bytes,6,rep,name=shortNames"`
	Categories   []string                  `json:"categories,omitempty" protobuf:"bytes,7,rep,name=categories"`
	Subresources []APISubresourceDiscovery `json:"subresources,omitempty" protobuf:"bytes,8,rep,name=subresources"`
}

// APISubresourceDiscovery describes one subresource ("status", "scale").
// ResponseKind is the kind its body has: the parent's for status,
// autoscaling/v1 Scale for scale.
type APISubresourceDiscovery struct {
	Subresource   string             `json:"subresource" protobuf:"bytes,1,opt,name=subresource"`
	ResponseKind  *GroupVersionKind  `json:"responseKind,omitempty" protobuf:"bytes,2,opt,name=responseKind"`
	AcceptedTypes []GroupVersionKind `json:"acceptedTypes,omitempty" protobuf:"bytes,3,rep,name=acceptedTypes"`
	// Verbs: see APIResourceDiscovery.Verbs.
	Verbs []string `json:"verbs" protobuf:"bytes,4,opt,name=verbs" protobuf_wrapped:"true"`
}

// GroupVersionKind names a kind on the wire, with every part spelled out
// (an empty group is the core group).
type GroupVersionKind struct {
	Group   string `json:"group" protobuf:"bytes,1,opt,name=group"`
	Version string `json:"version" protobuf:"bytes,2,opt,name=version"`
	Kind    string `json:"kind" protobuf:"bytes,3,opt,name=kind"`
}

// ResourceScope says whether a resource's objects live in a namespace.
type ResourceScope string

// The scopes of a resource.
const (
	ScopeCluster   ResourceScope = "Cluster"
	ScopeNamespace ResourceScope = "Namespaced"
)

// DiscoveryFreshness says whether a version's discovery is up to date.
type DiscoveryFreshness string

// The freshness values of a version.
const (
	DiscoveryFreshnessCurrent DiscoveryFreshness = "Current"
	DiscoveryFreshnessStale   DiscoveryFreshness = "Stale"
)
