package v1

import (
	"slices"
	"strings"

	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/api/runtime"
)

// SetDefaults fills the fields the API server defaults when it decodes a
// request body, in place. It is idempotent, so it is safe to apply to an
// object read back from storage too. Kinds of other packages are left
// alone; lists default each item.
//
//   - Pod: the PodSpec defaults (SetDefaultsPodSpec); requests copied from
//     limits for resources that have a limit but no request; enableServiceLinks
//     true; with hostNetwork, hostPort = containerPort for ports without
//     one; serviceAccount and serviceAccountName kept equal (upstream does
//     this in conversion). status.phase Pending is set on create by the API
//     server's pod strategy, not here.
//   - Namespace: the label kubernetes.io/metadata.name=<name>, status.phase
//     Active, and the "kubernetes" finalizer added to spec.finalizers of a
//     namespace not yet created (one without a creationTimestamp; upstream
//     does this in the namespace strategy's PrepareForCreate).
//   - Node: status.allocatable copied from status.capacity when unset.
//   - Service: type ClusterIP; sessionAffinity None (and no
//     sessionAffinityConfig), or ClientIP with a 10800s timeout; each port's
//     protocol TCP and targetPort its port; externalTrafficPolicy Cluster
//     for NodePort and LoadBalancer services (and ClusterIP ones with
//     externalIPs); internalTrafficPolicy Cluster except for ExternalName;
//     allocateLoadBalancerNodePorts true for LoadBalancer. The cluster IP,
//     IP families and node ports are allocated by the API server's service
//     strategy on create, not here.
//   - Endpoints: each port's protocol TCP.
//   - Secret: type Opaque; stringData merged into data (its keys win) and
//     cleared, so it is never stored (upstream does this in conversion).
//   - Event, Binding, ConfigMap, ServiceAccount: nothing.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1/defaults.go.
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *Pod:
		setDefaultsPod(o)
	case *PodList:
		for i := range o.Items {
			setDefaultsPod(&o.Items[i])
		}
	case *Namespace:
		setDefaultsNamespace(o)
	case *NamespaceList:
		for i := range o.Items {
			setDefaultsNamespace(&o.Items[i])
		}
	case *Node:
		setDefaultsNode(o)
	case *NodeList:
		for i := range o.Items {
			setDefaultsNode(&o.Items[i])
		}
	case *Service:
		setDefaultsService(o)
	case *ServiceList:
		for i := range o.Items {
			setDefaultsService(&o.Items[i])
		}
	case *Endpoints:
		setDefaultsEndpoints(o)
	case *EndpointsList:
		for i := range o.Items {
			setDefaultsEndpoints(&o.Items[i])
		}
	case *Secret:
		setDefaultsSecret(o)
	case *SecretList:
		for i := range o.Items {
			setDefaultsSecret(&o.Items[i])
		}
	}
}

func setDefaultsPod(pod *Pod) {
	spec := &pod.Spec
	SetDefaultsPodSpec(spec)
	// Only pods, not pod templates, get requests from limits: a template's
	// limits may still be changed by the controller that stamps it out.
	for _, containers := range [][]Container{spec.Containers, spec.InitContainers} {
		for i := range containers {
			res := &containers[i].Resources
			if res.Limits == nil {
				continue
			}
			if res.Requests == nil {
				res.Requests = ResourceList{}
			}
			for name, limit := range res.Limits {
				if _, ok := res.Requests[name]; !ok {
					res.Requests[name] = limit
				}
			}
		}
	}
	if spec.EnableServiceLinks == nil {
		spec.EnableServiceLinks = ptrTo(true)
	}
	if spec.HostNetwork {
		// With the host's network the container port is the host port.
		for _, containers := range [][]Container{spec.Containers, spec.InitContainers} {
			for i := range containers {
				for j := range containers[i].Ports {
					if p := &containers[i].Ports[j]; p.HostPort == 0 {
						p.HostPort = p.ContainerPort
					}
				}
			}
		}
	}
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = spec.DeprecatedServiceAccount
	}
	spec.DeprecatedServiceAccount = spec.ServiceAccountName
}

// SetDefaultsPodSpec fills the defaults of a PodSpec, its containers,
// probes and volumes, in place. Workload kinds call it for their pod
// templates; SetDefaults calls it for pods.
func SetDefaultsPodSpec(spec *PodSpec) {
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = DNSClusterFirst
	}
	if spec.RestartPolicy == "" {
		spec.RestartPolicy = RestartPolicyAlways
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &PodSecurityContext{}
	}
	if spec.TerminationGracePeriodSeconds == nil {
		spec.TerminationGracePeriodSeconds = ptrTo(DefaultTerminationGracePeriodSeconds)
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = DefaultSchedulerName
	}
	for i := range spec.InitContainers {
		setDefaultsContainer(&spec.InitContainers[i])
	}
	for i := range spec.Containers {
		setDefaultsContainer(&spec.Containers[i])
	}
	for i := range spec.Volumes {
		setDefaultsVolume(&spec.Volumes[i])
	}
}

func setDefaultsContainer(c *Container) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = defaultPullPolicy(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = TerminationMessageReadFile
	}
	for i := range c.Ports {
		if c.Ports[i].Protocol == "" {
			c.Ports[i].Protocol = ProtocolTCP
		}
	}
	for i := range c.Env {
		if from := c.Env[i].ValueFrom; from != nil {
			setDefaultsFieldSelector(from.FieldRef)
		}
	}
	for _, p := range []*Probe{c.LivenessProbe, c.ReadinessProbe, c.StartupProbe} {
		if p != nil {
			setDefaultsProbe(p)
		}
	}
	if c.Lifecycle != nil {
		for _, h := range []*LifecycleHandler{c.Lifecycle.PostStart, c.Lifecycle.PreStop} {
			if h != nil {
				setDefaultsHTTPGet(h.HTTPGet)
			}
		}
	}
}

// defaultPullPolicy is Always for an image whose tag is "latest" or that
// has neither tag nor digest (which means latest), IfNotPresent otherwise.
func defaultPullPolicy(image string) PullPolicy {
	if image == "" {
		return PullIfNotPresent
	}
	name, _, hasDigest := strings.Cut(image, "@")
	tag := ""
	// A ':' before the last '/' separates a registry's port, not a tag.
	if i := strings.LastIndexByte(name, ':'); i > strings.LastIndexByte(name, '/') {
		tag = name[i+1:]
	}
	if tag == "latest" || (tag == "" && !hasDigest) {
		return PullAlways
	}
	return PullIfNotPresent
}

// The probe defaults, as upstream: a check times out after 1s, runs every
// 10s, and flips after 1 success or 3 failures.
func setDefaultsProbe(p *Probe) {
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	setDefaultsHTTPGet(p.HTTPGet)
	if p.GRPC != nil && p.GRPC.Service == nil {
		p.GRPC.Service = ptrTo("")
	}
}

func setDefaultsHTTPGet(a *HTTPGetAction) {
	if a == nil {
		return
	}
	if a.Path == "" {
		a.Path = "/"
	}
	if a.Scheme == "" {
		a.Scheme = URISchemeHTTP
	}
}

func setDefaultsFieldSelector(f *ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}

func setDefaultsVolume(v *Volume) {
	src := &v.VolumeSource
	if *src == (VolumeSource{}) {
		src.EmptyDir = &EmptyDirVolumeSource{}
	}
	if src.HostPath != nil && src.HostPath.Type == nil {
		src.HostPath.Type = ptrTo(HostPathUnset)
	}
	if src.Secret != nil && src.Secret.DefaultMode == nil {
		src.Secret.DefaultMode = ptrTo(DefaultVolumeMode)
	}
	if src.ConfigMap != nil && src.ConfigMap.DefaultMode == nil {
		src.ConfigMap.DefaultMode = ptrTo(DefaultVolumeMode)
	}
	if d := src.DownwardAPI; d != nil {
		if d.DefaultMode == nil {
			d.DefaultMode = ptrTo(DefaultVolumeMode)
		}
		for i := range d.Items {
			setDefaultsFieldSelector(d.Items[i].FieldRef)
		}
	}
	if p := src.Projected; p != nil {
		if p.DefaultMode == nil {
			p.DefaultMode = ptrTo(DefaultVolumeMode)
		}
		for i := range p.Sources {
			if t := p.Sources[i].ServiceAccountToken; t != nil && t.ExpirationSeconds == nil {
				t.ExpirationSeconds = ptrTo(DefaultTokenExpirationSeconds)
			}
			if d := p.Sources[i].DownwardAPI; d != nil {
				for j := range d.Items {
					setDefaultsFieldSelector(d.Items[j].FieldRef)
				}
			}
		}
	}
}

func setDefaultsNamespace(ns *Namespace) {
	// A namespace created with generateName has no name to label yet.
	if ns.Name != "" {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[LabelMetadataName] = ns.Name
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = NamespaceActive
	}
	// Only before creation: the namespace controller later removes the
	// finalizer through the finalize subresource, and defaulting that
	// request (which carries the stored creationTimestamp) must not put it
	// back.
	if ns.CreationTimestamp.IsZero() && !slices.Contains(ns.Spec.Finalizers, FinalizerKubernetes) {
		ns.Spec.Finalizers = append(ns.Spec.Finalizers, FinalizerKubernetes)
	}
}

func setDefaultsNode(node *Node) {
	if node.Status.Allocatable == nil && node.Status.Capacity != nil {
		node.Status.Allocatable = make(ResourceList, len(node.Status.Capacity))
		for name, q := range node.Status.Capacity {
			node.Status.Allocatable[name] = q
		}
	}
}

func setDefaultsService(svc *Service) {
	spec := &svc.Spec
	if spec.SessionAffinity == "" {
		spec.SessionAffinity = ServiceAffinityNone
	}
	switch spec.SessionAffinity {
	case ServiceAffinityNone:
		spec.SessionAffinityConfig = nil
	case ServiceAffinityClientIP:
		if c := spec.SessionAffinityConfig; c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			spec.SessionAffinityConfig = &SessionAffinityConfig{ClientIP: &ClientIPConfig{
				TimeoutSeconds: ptrTo(DefaultClientIPServiceAffinitySeconds)}}
		}
	}
	if spec.Type == "" {
		spec.Type = ServiceTypeClusterIP
	}
	for i := range spec.Ports {
		p := &spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = ProtocolTCP
		}
		if p.TargetPort == intstr.FromInt32(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	if ExternallyAccessible(svc) && spec.ExternalTrafficPolicy == "" {
		spec.ExternalTrafficPolicy = ServiceExternalTrafficPolicyCluster
	}
	if spec.InternalTrafficPolicy == nil && spec.Type != ServiceTypeExternalName {
		spec.InternalTrafficPolicy = ptrTo(ServiceInternalTrafficPolicyCluster)
	}
	if spec.Type == ServiceTypeLoadBalancer && spec.AllocateLoadBalancerNodePorts == nil {
		spec.AllocateLoadBalancerNodePorts = ptrTo(true)
	}
}

// ExternallyAccessible reports whether traffic from outside the cluster
// reaches svc: NodePort and LoadBalancer services, and ClusterIP services
// with external IPs.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1/helper (ExternallyAccessible).
func ExternallyAccessible(svc *Service) bool {
	switch svc.Spec.Type {
	case ServiceTypeLoadBalancer, ServiceTypeNodePort:
		return true
	case ServiceTypeClusterIP:
		return len(svc.Spec.ExternalIPs) > 0
	}
	return false
}

func setDefaultsEndpoints(ep *Endpoints) {
	for i := range ep.Subsets {
		for j := range ep.Subsets[i].Ports {
			if p := &ep.Subsets[i].Ports[j]; p.Protocol == "" {
				p.Protocol = ProtocolTCP
			}
		}
	}
}

func setDefaultsSecret(s *Secret) {
	if s.Type == "" {
		s.Type = SecretTypeOpaque
	}
	MergeStringData(s)
}

// MergeStringData moves s.StringData into s.Data, where its keys replace
// Data's, and clears StringData: what the API server stores and returns.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/v1 (Convert_v1_Secret_To_core_Secret).
func MergeStringData(s *Secret) {
	if len(s.StringData) > 0 && s.Data == nil {
		s.Data = make(map[string][]byte, len(s.StringData))
	}
	for k, v := range s.StringData {
		s.Data[k] = []byte(v)
	}
	s.StringData = nil
}

func ptrTo[T any](v T) *T { return &v }
