package framework

import (
	"maps"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The requests the scheduler counts, for scoring only, for a container
// that requests no cpu (memory). Without them pods that request nothing
// would all land on the node with the least requested, and would look free
// to every later pod. The values are upstream's: "similar to the resources
// that we give to cluster addon pods (#10653). But they are pretty
// arbitrary."
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/util (DefaultMilliCPURequest,
// DefaultMemoryRequest).
const (
	// DefaultMilliCPURequest is 0.1 core.
	DefaultMilliCPURequest int64 = 100
	// DefaultMemoryRequest is 200 MiB.
	DefaultMemoryRequest int64 = 200 * 1024 * 1024
)

// Resource is an amount of compute resources in the units the scheduler
// compares: milli-cores of cpu, bytes of memory and ephemeral storage, a
// pod count, and whole units of every extended resource (ScalarResources:
// "example.com/gpu", "hugepages-2Mi"). The zero value is empty.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework (Resource).
type Resource struct {
	MilliCPU         int64
	Memory           int64
	EphemeralStorage int64
	// AllowedPodNumber is the node's "pods" allocatable; pods' requests
	// never set it.
	AllowedPodNumber int
	// ScalarResources is nil until a scalar resource is added.
	ScalarResources map[corev1.ResourceName]int64
}

// NewResource returns rl converted to a Resource. Resources the scheduler
// does not account for (anything not cpu, memory, pods, ephemeral-storage
// or a scalar resource) are ignored.
func NewResource(rl corev1.ResourceList) Resource {
	var r Resource
	r.Add(rl)
	return r
}

// Add adds rl to r.
func (r *Resource) Add(rl corev1.ResourceList) {
	for name, q := range rl {
		switch name {
		case corev1.ResourceCPU:
			r.MilliCPU += q.MilliValue()
		case corev1.ResourceMemory:
			r.Memory += q.Value()
		case corev1.ResourceEphemeralStorage:
			r.EphemeralStorage += q.Value()
		case corev1.ResourcePods:
			r.AllowedPodNumber += int(q.Value())
		default:
			if IsScalarResourceName(name) {
				r.addScalar(name, q.Value())
			}
		}
	}
}

// Clone returns a deep copy of r.
func (r Resource) Clone() Resource {
	r.ScalarResources = maps.Clone(r.ScalarResources)
	return r
}

func (r *Resource) addScalar(name corev1.ResourceName, v int64) {
	if r.ScalarResources == nil {
		r.ScalarResources = map[corev1.ResourceName]int64{}
	}
	r.ScalarResources[name] += v
}

// addResource adds sign*o to r.
func (r *Resource) addResource(o Resource, sign int64) {
	r.MilliCPU += sign * o.MilliCPU
	r.Memory += sign * o.Memory
	r.EphemeralStorage += sign * o.EphemeralStorage
	r.AllowedPodNumber += int(sign) * o.AllowedPodNumber
	for name, v := range o.ScalarResources {
		r.addScalar(name, sign*v)
	}
}

// setMax raises every amount of r to at least o's.
func (r *Resource) setMax(o Resource) {
	r.MilliCPU = max(r.MilliCPU, o.MilliCPU)
	r.Memory = max(r.Memory, o.Memory)
	r.EphemeralStorage = max(r.EphemeralStorage, o.EphemeralStorage)
	for name, v := range o.ScalarResources {
		if v > r.ScalarResources[name] {
			if r.ScalarResources == nil {
				r.ScalarResources = map[corev1.ResourceName]int64{}
			}
			r.ScalarResources[name] = v
		}
	}
}

// IsScalarResourceName reports whether the scheduler accounts for name as
// a scalar resource: an extended resource (a domain-qualified name such as
// "example.com/gpu"), a prefixed native one ("kubernetes.io/..."), huge
// pages ("hugepages-2Mi") or an attachable-volumes count. Unprefixed names
// other than those are native resources the scheduler does not count.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/util (IsScalarResourceName).
func IsScalarResourceName(name corev1.ResourceName) bool {
	s := string(name)
	switch {
	case strings.HasPrefix(s, "hugepages-"), strings.HasPrefix(s, "attachable-volumes-"),
		strings.Contains(s, "kubernetes.io/"):
		return true
	case !strings.Contains(s, "/"):
		return false
	}
	// "requests.<name>" is how a quota names a request; it is not a
	// resource a container can ask for.
	return !strings.HasPrefix(s, "requests.")
}

// PodRequestsOptions tunes PodRequests.
type PodRequestsOptions struct {
	// NonZero counts DefaultMilliCPURequest (DefaultMemoryRequest) for
	// every container that does not request cpu (memory) at all; an
	// explicit zero stays zero. Scoring uses it, fitting never does.
	//
	// Upstream: PodResourcesOptions.NonMissingContainerRequests.
	NonZero bool
}

// PodRequests returns what pod asks the node for. Containers run together,
// so their requests add up; init containers run one at a time, before
// them, so each needs only its own requests plus those of the sidecars
// (init containers with restartPolicy Always) started before it. The pod
// needs the larger of the two, per resource, plus spec.overhead:
//
//	max(sum(containers) + sum(sidecars),
//	    max over init container i of (i + sidecars before i)) + overhead
//
// For example, init containers of 2 and 3 cpu and containers of 2 and 1
// cpu request 3 cpu.
//
// Upstream: k8s.io/component-helpers/resource (PodRequests,
// AggregateContainerRequests), the formula of KEP-753 (sidecar
// containers).
func PodRequests(pod *corev1.Pod, opts PodRequestsOptions) Resource {
	var sum Resource
	for i := range pod.Spec.Containers {
		sum.addResource(containerRequests(&pod.Spec.Containers[i], opts), 1)
	}
	var sidecars, initMax Resource
	for i := range pod.Spec.InitContainers {
		c := &pod.Spec.InitContainers[i]
		req := containerRequests(c, opts)
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			// A sidecar keeps running next to the containers, and next to
			// every init container after it.
			sum.addResource(req, 1)
			sidecars.addResource(req, 1)
			initMax.setMax(sidecars)
			continue
		}
		req.addResource(sidecars, 1)
		initMax.setMax(req)
	}
	sum.setMax(initMax)
	// Overhead (the sandbox's own cost) is never defaulted.
	overhead := NewResource(pod.Spec.Overhead)
	overhead.AllowedPodNumber = 0
	sum.addResource(overhead, 1)
	return sum
}

func containerRequests(c *corev1.Container, opts PodRequestsOptions) Resource {
	r := NewResource(c.Resources.Requests)
	// A request for "pods" means nothing on a container.
	r.AllowedPodNumber = 0
	if opts.NonZero {
		if _, ok := c.Resources.Requests[corev1.ResourceCPU]; !ok {
			r.MilliCPU = DefaultMilliCPURequest
		}
		if _, ok := c.Resources.Requests[corev1.ResourceMemory]; !ok {
			r.Memory = DefaultMemoryRequest
		}
	}
	return r
}
