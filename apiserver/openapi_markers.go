package apiserver

// Go struct tags carry patchStrategy and patchMergeKey, but not the
// +listType, +listMapKey, +mapType, +structType and +default markers upstream's
// openapi-gen reads from comments. openAPIMarkers supplies the markers of
// minicp's built-in types where they say something the patch tags do
// not: a list keyed by more than its merge key (a container port is
// containerPort and protocol), a list that is atomic or a set although
// its patch strategy says otherwise, a map or struct replaced as a whole;
// and the +default of a list-map key (a port's protocol), which lets an
// applied port leave the protocol out.
// Server-side apply reads its merge semantics from these, so without them
// managedFields would differ from kube-apiserver's.
//
// Upstream: the +listType/+listMapKey/+mapType/+structType markers of
// k8s.io/api and k8s.io/apimachinery's types.
var openAPIMarkers = map[string]map[string]map[string]any{
	"io.k8s.api.certificates.v1.CertificateSigningRequestStatus": {
		"conditions": {"x-kubernetes-list-map-keys": []any{"type"}, "x-kubernetes-list-type": "map"},
	},
	"io.k8s.api.batch.v1.JobStatus": {
		"conditions": {"x-kubernetes-list-type": "atomic"},
	},
	"io.k8s.api.batch.v1.PodFailurePolicyOnExitCodesRequirement": {
		"values": {"x-kubernetes-list-type": "set"},
	},
	"io.k8s.api.batch.v1.UncountedTerminatedPods": {
		"failed":    {"x-kubernetes-list-type": "set"},
		"succeeded": {"x-kubernetes-list-type": "set"},
	},
	"io.k8s.api.core.v1.Container": {
		"ports": {"x-kubernetes-list-map-keys": []any{"containerPort", "protocol"}, "x-kubernetes-list-type": "map"},
	},
	"io.k8s.api.core.v1.ContainerPort": {
		"protocol": {"default": "TCP"},
	},
	"io.k8s.api.core.v1.PodSpec": {
		"nodeSelector":              {"x-kubernetes-map-type": "atomic"},
		"topologySpreadConstraints": {"x-kubernetes-list-map-keys": []any{"topologyKey", "whenUnsatisfiable"}, "x-kubernetes-list-type": "map"},
	},
	"io.k8s.api.core.v1.PodStatus": {
		"hostIPs": {"x-kubernetes-list-type": "atomic"},
	},
	"io.k8s.api.core.v1.ResourceRequirements": {
		"claims": {"x-kubernetes-list-map-keys": []any{"name"}, "x-kubernetes-list-type": "map"},
	},
	"io.k8s.api.core.v1.ServicePort": {
		"protocol": {"default": "TCP"},
	},
	"io.k8s.api.core.v1.ServiceSpec": {
		"ports":    {"x-kubernetes-list-map-keys": []any{"port", "protocol"}, "x-kubernetes-list-type": "map"},
		"selector": {"x-kubernetes-map-type": "atomic"},
	},
}

// openAPIAtomicStructs are the definitions upstream marks
// +structType=atomic: an apply replaces them whole rather than merging
// their fields.
var openAPIAtomicStructs = map[string]bool{
	"io.k8s.api.core.v1.ConfigMapKeySelector":             true,
	"io.k8s.api.core.v1.EndpointAddress":                  true,
	"io.k8s.api.core.v1.EndpointPort":                     true,
	"io.k8s.api.core.v1.LocalObjectReference":             true,
	"io.k8s.api.core.v1.NodeSelector":                     true,
	"io.k8s.api.core.v1.NodeSelectorTerm":                 true,
	"io.k8s.api.core.v1.ObjectFieldSelector":              true,
	"io.k8s.api.core.v1.ObjectReference":                  true,
	"io.k8s.api.core.v1.ResourceFieldSelector":            true,
	"io.k8s.api.core.v1.SecretKeySelector":                true,
	"io.k8s.apimachinery.pkg.apis.meta.v1.LabelSelector":  true,
	"io.k8s.apimachinery.pkg.apis.meta.v1.OwnerReference": true,
}
