package v1

// APIVersions lists the versions of the legacy core group, served at /api.
type APIVersions struct {
	TypeMeta                   `json:",inline"`
	Versions                   []string                    `json:"versions" protobuf:"bytes,1,rep,name=versions"`
	ServerAddressByClientCIDRs []ServerAddressByClientCIDR `json:"serverAddressByClientCIDRs" protobuf:"bytes,2,rep,name=serverAddressByClientCIDRs"`
}

// ServerAddressByClientCIDR tells clients in a CIDR which address to use.
type ServerAddressByClientCIDR struct {
	ClientCIDR    string `json:"clientCIDR" protobuf:"bytes,1,opt,name=clientCIDR"`
	ServerAddress string `json:"serverAddress" protobuf:"bytes,2,opt,name=serverAddress"`
}

// APIGroupList lists the named groups, served at /apis.
type APIGroupList struct {
	TypeMeta `json:",inline"`
	Groups   []APIGroup `json:"groups" protobuf:"bytes,1,rep,name=groups"`
}

// APIGroup describes one named group and its versions.
type APIGroup struct {
	TypeMeta                   `json:",inline"`
	Name                       string                      `json:"name" protobuf:"bytes,1,opt,name=name"`
	Versions                   []GroupVersionForDiscovery  `json:"versions" protobuf:"bytes,2,rep,name=versions"`
	PreferredVersion           GroupVersionForDiscovery    `json:"preferredVersion,omitempty" protobuf:"bytes,3,opt,name=preferredVersion"`
	ServerAddressByClientCIDRs []ServerAddressByClientCIDR `json:"serverAddressByClientCIDRs,omitempty" protobuf:"bytes,4,rep,name=serverAddressByClientCIDRs"`
}

// GroupVersionForDiscovery is "group/version" and the version alone.
type GroupVersionForDiscovery struct {
	GroupVersion string `json:"groupVersion" protobuf:"bytes,1,opt,name=groupVersion"`
	Version      string `json:"version" protobuf:"bytes,2,opt,name=version"`
}

// APIResourceList lists the resources of one group/version, served at
// /api/v1 and /apis/{group}/{version}.
type APIResourceList struct {
	TypeMeta     `json:",inline"`
	GroupVersion string        `json:"groupVersion" protobuf:"bytes,1,opt,name=groupVersion"`
	APIResources []APIResource `json:"resources" protobuf:"bytes,2,rep,name=resources"`
}

// APIResource describes one resource or subresource ("pods/status").
type APIResource struct {
	Name         string `json:"name" protobuf:"bytes,1,opt,name=name"`
	SingularName string `json:"singularName" protobuf:"bytes,6,opt,name=singularName"`
	Namespaced   bool   `json:"namespaced" protobuf:"varint,2,opt,name=namespaced"`
	Group        string `json:"group,omitempty" protobuf:"bytes,8,opt,name=group"`
	Version      string `json:"version,omitempty" protobuf:"bytes,9,opt,name=version"`
	Kind         string `json:"kind" protobuf:"bytes,3,opt,name=kind"`
	// Verbs is a message of its own in protobuf, upstream's named type
	// metav1.Verbs; protobuf_wrapped says so.
	Verbs              []string `json:"verbs" protobuf:"bytes,4,opt,name=verbs" protobuf_wrapped:"true"`
	ShortNames         []string `json:"shortNames,omitempty" protobuf:"bytes,5,rep,name=shortNames"`
	Categories         []string `json:"categories,omitempty" protobuf:"bytes,7,rep,name=categories"`
	StorageVersionHash string   `json:"storageVersionHash,omitempty" protobuf:"bytes,10,opt,name=storageVersionHash"`
}
