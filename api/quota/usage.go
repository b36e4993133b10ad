package quota

import (
	"maps"
	"slices"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

// one is the usage of a single object.
var one = resource.MustParse("1")

// computeResources are what a pod uses beyond its count.
var computeResources = []corev1.ResourceName{
	corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceRequestsCPU, corev1.ResourceRequestsMemory,
	corev1.ResourceLimitsCPU, corev1.ResourceLimitsMemory,
}

// legacyCounts are the resources whose objects a quota may count by their
// plain name, as well as by count/<resource>.
var legacyCounts = map[string]corev1.ResourceName{
	"pods": corev1.ResourcePods, "services": corev1.ResourceServices, "configmaps": corev1.ResourceConfigMaps,
	"secrets": corev1.ResourceSecrets, "resourcequotas": corev1.ResourceQuotas,
	"replicationcontrollers": "replicationcontrollers", "persistentvolumeclaims": "persistentvolumeclaims",
}

// CountName is the quota resource that counts objects of gr:
// "count/pods", "count/deployments.apps".
func CountName(gr runtime.GroupResource) corev1.ResourceName {
	if gr.Group == "" {
		return corev1.ResourceName("count/" + gr.Resource)
	}
	return corev1.ResourceName("count/" + gr.Resource + "." + gr.Group)
}

// ObjectCount is the usage of one object of gr: its count, under both
// names for the core kinds that have a plain one.
func ObjectCount(gr runtime.GroupResource) corev1.ResourceList {
	out := corev1.ResourceList{CountName(gr): one}
	if name, ok := legacyCounts[gr.Resource]; ok && gr.Group == "" {
		out[name] = one
	}
	return out
}

// CountedResource returns the group/resource a quota resource counts
// ("count/deployments.apps", or a plain "services"), and whether it is a
// count at all.
func CountedResource(name corev1.ResourceName) (runtime.GroupResource, bool) {
	if rest, ok := strings.CutPrefix(string(name), "count/"); ok {
		resource, group, _ := strings.Cut(rest, ".")
		return runtime.GroupResource{Group: group, Resource: resource}, true
	}
	for resource, legacy := range legacyCounts {
		if legacy == name {
			return runtime.GroupResource{Resource: resource}, true
		}
	}
	return runtime.GroupResource{}, false
}

// IsTerminal reports whether a pod has finished: it no longer uses
// anything.
func IsTerminal(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
}

// PodUsage is what pod uses: one pod, and its requests (also as plain
// cpu and memory) and limits, summed over its containers, an init
// container counting where it alone asks for more. A finished pod uses
// nothing but its count/pods.
//
// Upstream: k8s.io/kubernetes/pkg/quota/v1/evaluator/core (PodUsageFunc).
func PodUsage(pod *corev1.Pod) corev1.ResourceList {
	out := corev1.ResourceList{CountName(runtime.GroupResource{Resource: "pods"}): one}
	if IsTerminal(pod) {
		return out
	}
	out[corev1.ResourcePods] = one
	requests, limits := PodRequestsAndLimits(pod)
	for _, r := range []struct{ plain, request, limit corev1.ResourceName }{
		{corev1.ResourceCPU, corev1.ResourceRequestsCPU, corev1.ResourceLimitsCPU},
		{corev1.ResourceMemory, corev1.ResourceRequestsMemory, corev1.ResourceLimitsMemory},
	} {
		if q, ok := requests[r.plain]; ok {
			out[r.plain], out[r.request] = q, q
		}
		if q, ok := limits[r.plain]; ok {
			out[r.limit] = q
		}
	}
	return out
}

// PodRequestsAndLimits returns what pod asks for and is limited to, per
// resource: the sum over its containers, or the largest of its init
// containers' when that is more (they run one at a time, before the
// others). LimitRanger and the quota both judge a pod by these.
//
// Upstream: k8s.io/component-helpers/resource (PodRequests, PodLimits),
// without overhead and sidecar containers.
func PodRequestsAndLimits(pod *corev1.Pod) (requests, limits corev1.ResourceList) {
	return podTotal(pod, func(c corev1.Container) corev1.ResourceList { return c.Resources.Requests }),
		podTotal(pod, func(c corev1.Container) corev1.ResourceList { return c.Resources.Limits })
}

func podTotal(pod *corev1.Pod, get func(corev1.Container) corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, c := range pod.Spec.Containers {
		for name, q := range get(c) {
			total := out[name]
			total.Add(q)
			out[name] = total
		}
	}
	for _, c := range pod.Spec.InitContainers {
		for name, q := range get(c) {
			if cur, ok := out[name]; !ok || q.Cmp(cur) > 0 {
				out[name] = q
			}
		}
	}
	return out
}

// MissingCompute returns, sorted, the compute resources a quota with hard
// bounds that pod's containers do not all name: a quota on limits.cpu
// needs every container to set a CPU limit.
//
// Upstream: k8s.io/kubernetes/pkg/quota/v1/evaluator/core (podEvaluator.Constraints).
func MissingCompute(pod *corev1.Pod, hard corev1.ResourceList) []string {
	missing := map[string]bool{}
	for _, c := range slices.Concat(pod.Spec.InitContainers, pod.Spec.Containers) {
		for _, name := range computeResources {
			if _, bounded := hard[name]; !bounded {
				continue
			}
			plain := corev1.ResourceName(strings.TrimPrefix(strings.TrimPrefix(string(name), "requests."), "limits."))
			list := c.Resources.Requests
			if strings.HasPrefix(string(name), "limits.") {
				list = c.Resources.Limits
			}
			if _, ok := list[plain]; !ok {
				missing[string(name)] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(missing))
}

// Add returns a + b, for every resource of either.
func Add(a, b corev1.ResourceList) corev1.ResourceList {
	out := maps.Clone(a)
	if out == nil {
		out = corev1.ResourceList{}
	}
	for name, q := range b {
		total := out[name]
		total.Add(q)
		out[name] = total
	}
	return out
}

// Mask returns the entries of list whose names are in names.
func Mask(list, names corev1.ResourceList) corev1.ResourceList {
	out := corev1.ResourceList{}
	for name, q := range list {
		if _, ok := names[name]; ok {
			out[name] = q
		}
	}
	return out
}

// Equal reports whether a and b hold the same amounts of the same
// resources.
func Equal(a, b corev1.ResourceList) bool {
	return maps.EqualFunc(a, b, func(x, y resource.Quantity) bool { return x.Cmp(y) == 0 })
}

// PodMatchesScopes reports whether pod is covered by the scopes of q
// (every scope of spec.scopes and every expression of spec.scopeSelector
// must hold). Scopes minicp cannot decide (PriorityClass,
// CrossNamespacePodAffinity, VolumeAttributesClass) match no pod.
//
// Upstream: k8s.io/kubernetes/pkg/quota/v1/evaluator/core (podMatchesScopeFunc).
func PodMatchesScopes(pod *corev1.Pod, q *corev1.ResourceQuota) bool {
	for _, s := range q.Spec.Scopes {
		if !podInScope(pod, s) {
			return false
		}
	}
	if sel := q.Spec.ScopeSelector; sel != nil {
		for _, req := range sel.MatchExpressions {
			in := podInScope(pod, req.ScopeName)
			switch req.Operator {
			case corev1.ScopeSelectorOpExists, corev1.ScopeSelectorOpIn:
				if !in {
					return false
				}
			case corev1.ScopeSelectorOpDoesNotExist, corev1.ScopeSelectorOpNotIn:
				if in {
					return false
				}
			}
		}
	}
	return true
}

// HasScopes reports whether q is narrowed by scopes at all: a scoped
// quota counts pods only.
func HasScopes(q *corev1.ResourceQuota) bool {
	return len(q.Spec.Scopes) > 0 || q.Spec.ScopeSelector != nil && len(q.Spec.ScopeSelector.MatchExpressions) > 0
}

func podInScope(pod *corev1.Pod, s corev1.ResourceQuotaScope) bool {
	switch s {
	case corev1.ResourceQuotaScopeTerminating:
		return pod.Spec.ActiveDeadlineSeconds != nil && *pod.Spec.ActiveDeadlineSeconds >= 0
	case corev1.ResourceQuotaScopeNotTerminating:
		return pod.Spec.ActiveDeadlineSeconds == nil
	case corev1.ResourceQuotaScopeBestEffort:
		return isBestEffort(pod)
	case corev1.ResourceQuotaScopeNotBestEffort:
		return !isBestEffort(pod)
	}
	return false
}

// isBestEffort reports a pod none of whose containers requests or limits
// CPU or memory.
func isBestEffort(pod *corev1.Pod) bool {
	for _, c := range slices.Concat(pod.Spec.InitContainers, pod.Spec.Containers) {
		for _, list := range []corev1.ResourceList{c.Resources.Requests, c.Resources.Limits} {
			for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory} {
				if _, ok := list[name]; ok {
					return false
				}
			}
		}
	}
	return true
}
