package admission

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/quota"
	"github.com/minicp/minicp/api/runtime"
)

// LimitRangeLister reads the LimitRanges of a namespace.
type LimitRangeLister interface {
	// ListLimitRanges returns the LimitRanges of ns. The result is
	// shared: callers must not modify it.
	ListLimitRanges(ctx context.Context, ns string) ([]*corev1.LimitRange, error)
}

// limitRangerAnnotation records on a pod the defaults LimitRanger set.
const limitRangerAnnotation = "kubernetes.io/limit-ranger"

// LimitRanger applies the LimitRanges of a pod's namespace when the pod
// is created: as a mutating plugin it gives each container the default
// requests and limits it does not name (and says so in the pod's
// kubernetes.io/limit-ranger annotation); as a validating plugin it
// refuses (403) a pod whose containers, or whose sum, fall outside a
// range's min and max or exceed its limit-to-request ratio. Updates are
// left alone: a pod's containers cannot change.
//
// The zero value with LimitRanges set is ready to use; it is safe for
// concurrent use.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/limitranger (LimitRanger).
type LimitRanger struct {
	LimitRanges LimitRangeLister
}

var (
	_ MutationInterface   = (*LimitRanger)(nil)
	_ ValidationInterface = (*LimitRanger)(nil)
)

// Name implements Plugin.
func (*LimitRanger) Name() string { return "LimitRanger" }

// Handles implements Plugin.
func (*LimitRanger) Handles(op Operation) bool { return op == Create }

// rangesFor returns the pod a is about and the LimitRanges of its
// namespace; a nil pod when LimitRanger does not apply to a.
func (l *LimitRanger) rangesFor(ctx context.Context, a *Attributes) (*corev1.Pod, []*corev1.LimitRange, error) {
	if a.Resource.Group != "" || a.Resource.Resource != "pods" || a.Subresource != "" {
		return nil, nil, nil
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return nil, nil, nil
	}
	ranges, err := l.LimitRanges.ListLimitRanges(ctx, a.Namespace)
	if err != nil {
		return nil, nil, apierrors.NewInternalError(fmt.Errorf("list limit ranges: %w", err))
	}
	return pod, ranges, nil
}

// Admit implements MutationInterface: the defaults of every Container
// item, in the order the ranges list them; the first to name a resource
// wins.
func (l *LimitRanger) Admit(ctx context.Context, a *Attributes) error {
	pod, ranges, err := l.rangesFor(ctx, a)
	if pod == nil {
		return err
	}
	var set []string
	for _, lr := range ranges {
		for _, item := range lr.Spec.Limits {
			if item.Type != corev1.LimitTypeContainer {
				continue
			}
			for i := range pod.Spec.InitContainers {
				set = mergeContainerResources(&pod.Spec.InitContainers[i], item, "init container", set)
			}
			for i := range pod.Spec.Containers {
				set = mergeContainerResources(&pod.Spec.Containers[i], item, "container", set)
			}
		}
	}
	if len(set) > 0 {
		if pod.Annotations == nil {
			pod.Annotations = map[string]string{}
		}
		pod.Annotations[limitRangerAnnotation] = "LimitRanger plugin set: " + strings.Join(set, "; ")
	}
	return nil
}

// mergeContainerResources sets the default requests and limits of item
// that c does not name, and appends to set what it set.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/limitranger (mergeContainerResources).
func mergeContainerResources(c *corev1.Container, item corev1.LimitRangeItem, prefix string, set []string) []string {
	merge := func(into *corev1.ResourceList, defaults corev1.ResourceList) []string {
		var names []string
		for name, q := range defaults {
			if _, ok := (*into)[name]; ok {
				continue
			}
			if *into == nil {
				*into = corev1.ResourceList{}
			}
			(*into)[name] = q
			names = append(names, string(name))
		}
		slices.Sort(names)
		return names
	}
	if names := merge(&c.Resources.Requests, item.DefaultRequest); len(names) > 0 {
		set = append(set, strings.Join(names, ", ")+" request for "+prefix+" "+c.Name)
	}
	if names := merge(&c.Resources.Limits, item.Default); len(names) > 0 {
		set = append(set, strings.Join(names, ", ")+" limit for "+prefix+" "+c.Name)
	}
	return set
}

// Validate implements ValidationInterface.
func (l *LimitRanger) Validate(ctx context.Context, a *Attributes) error {
	pod, ranges, err := l.rangesFor(ctx, a)
	if pod == nil {
		return err
	}
	var errs []error
	for _, lr := range ranges {
		for _, item := range lr.Spec.Limits {
			switch item.Type {
			case corev1.LimitTypeContainer:
				for _, c := range slices.Concat(pod.Spec.InitContainers, pod.Spec.Containers) {
					errs = append(errs, checkLimits(item, "Container", c.Resources.Requests, c.Resources.Limits)...)
				}
			case corev1.LimitTypePod:
				requests, limits := quota.PodRequestsAndLimits(pod)
				errs = append(errs, checkLimits(item, "Pod", requests, limits)...)
			}
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return apierrors.NewForbidden(runtime.GroupResource{Resource: a.Resource.Resource}, a.Name, aggregate(errs))
}

// checkLimits checks requests and limits against the min, max and ratio
// of item, with upstream's messages.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/limitranger
// (minConstraint, maxConstraint, limitRequestRatioConstraint).
func checkLimits(item corev1.LimitRangeItem, limitType string, requests, limits corev1.ResourceList) []error {
	var errs []error
	for _, name := range slices.Sorted(maps.Keys(item.Min)) {
		enforced := item.Min[name]
		req, hasReq := requests[name]
		lim, hasLim := limits[name]
		switch {
		case !hasReq:
			errs = append(errs, fmt.Errorf("minimum %s usage per %s is %s.  No request is specified", name, limitType, enforced.String()))
		case req.Cmp(enforced) < 0:
			errs = append(errs, fmt.Errorf("minimum %s usage per %s is %s, but request is %s", name, limitType, enforced.String(), req.String()))
		case hasLim && lim.Cmp(enforced) < 0:
			errs = append(errs, fmt.Errorf("minimum %s usage per %s is %s, but limit is %s", name, limitType, enforced.String(), lim.String()))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(item.Max)) {
		enforced := item.Max[name]
		req, hasReq := requests[name]
		lim, hasLim := limits[name]
		switch {
		case !hasLim:
			errs = append(errs, fmt.Errorf("maximum %s usage per %s is %s.  No limit is specified", name, limitType, enforced.String()))
		case lim.Cmp(enforced) > 0:
			errs = append(errs, fmt.Errorf("maximum %s usage per %s is %s, but limit is %s", name, limitType, enforced.String(), lim.String()))
		case hasReq && req.Cmp(enforced) > 0:
			errs = append(errs, fmt.Errorf("maximum %s usage per %s is %s, but request is %s", name, limitType, enforced.String(), req.String()))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(item.MaxLimitRequestRatio)) {
		enforced := item.MaxLimitRequestRatio[name]
		req, hasReq := requests[name]
		lim, hasLim := limits[name]
		switch {
		case !hasReq || req.IsZero():
			errs = append(errs, fmt.Errorf("%s max limit to request ratio per %s is %s, but no request is specified or request is 0", name, limitType, enforced.String()))
		case !hasLim || lim.IsZero():
			errs = append(errs, fmt.Errorf("%s max limit to request ratio per %s is %s, but no limit is specified or limit is 0", name, limitType, enforced.String()))
		default:
			ratio := float64(lim.MilliValue()) / float64(req.MilliValue())
			if ratio*1000 > float64(enforced.MilliValue()) {
				errs = append(errs, fmt.Errorf("%s max limit to request ratio per %s is %s, but provided ratio is %f", name, limitType, enforced.String(), ratio))
			}
		}
	}
	return errs
}

// aggregate joins errors as upstream's utilerrors.NewAggregate prints
// them: one error alone, several in brackets.
func aggregate(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msgs := make([]string, len(errs))
	for i, err := range errs {
		msgs[i] = err.Error()
	}
	return errors.New("[" + strings.Join(msgs, ", ") + "]")
}
