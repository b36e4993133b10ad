package podsecurity

import (
	"context"
	"fmt"
	"maps"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/request"
)

// maxPodsToCheck bounds the existing pods a namespace update checks,
// upstream's 3000: the check only warns, and must not hold a label
// change up for long in a namespace of many pods.
const maxPodsToCheck = 3000

// validateNamespace refuses (422) a namespace whose PodSecurity labels
// do not parse, on create or when an update changes them, and warns
// about the existing pods that a tighter enforce level would refuse.
//
// Upstream: k8s.io/pod-security-admission/admission (Admission.ValidateNamespace).
func (p *Plugin) validateNamespace(ctx context.Context, a *admission.Attributes) error {
	if a.Subresource != "" {
		return nil
	}
	ns, ok := a.Object.(*corev1.Namespace)
	if !ok {
		return nil
	}
	policy, errs := PolicyFromLabels(ns.Labels)
	invalid := func() error {
		gvk := a.Kind
		if gvk.Kind == "" {
			gvk = runtime.GroupVersionKind{Version: "v1", Kind: "Namespace"}
		}
		return apierrors.NewInvalid(gvk, a.Name, errs)
	}
	if a.Operation == admission.Create {
		if len(errs) > 0 {
			return invalid()
		}
		if len(securityLabels(ns.Labels)) > 0 && !a.DryRun {
			p.expectLabels(ns.Name, ns.Labels)
		}
		return nil
	}
	old, ok := a.OldObject.(*corev1.Namespace)
	if !ok {
		return nil
	}
	oldPolicy, oldErrs := PolicyFromLabels(old.Labels)
	// Labels that were already wrong do not block other changes.
	if len(errs) > 0 && (len(oldErrs) == 0 || errs.Error() != oldErrs.Error()) {
		return invalid()
	}
	if !a.DryRun && !maps.Equal(securityLabels(ns.Labels), securityLabels(old.Labels)) {
		p.expectLabels(ns.Name, ns.Labels)
	}
	// Existing pods matter only when enforce tightens.
	switch {
	case policy.Enforce == oldPolicy.Enforce, policy.Enforce.Level == LevelPrivileged,
		policy.Enforce.Version == oldPolicy.Enforce.Version && policy.Enforce.Level.compare(oldPolicy.Enforce.Level) <= 0:
		return nil
	case slices.Contains(p.Exemptions.Namespaces, a.Name):
		request.AddAuditAnnotation(ctx, ExemptAnnotation, "namespace")
		return nil
	}
	for _, w := range p.existingPodWarnings(ctx, ns.Name, policy.Enforce) {
		request.AddWarning(ctx, w)
	}
	return nil
}

// existingPodWarnings checks the pods of namespace ns against enforce:
// one warning that some violate it, then one per distinct set of
// reasons, naming the first pod (by name) and how many others share it.
// Pods of a controller already checked come last, so that the bound
// reaches as many workloads as it can.
//
// Upstream: k8s.io/pod-security-admission/admission (Admission.EvaluatePodsInNamespace).
func (p *Plugin) existingPodWarnings(ctx context.Context, ns string, enforce LevelVersion) []string {
	if p.Pods == nil {
		return nil
	}
	pods, err := p.Pods.ListPods(ctx, ns)
	if err != nil {
		return []string{"failed to list pods while checking new PodSecurity enforce level"}
	}
	pods = prioritize(pods)
	total := len(pods)
	if len(pods) > maxPodsToCheck {
		pods = pods[:maxPodsToCheck]
	}
	type count struct {
		first string
		n     int
	}
	counts := map[string]*count{}
	var reasons []string
	checked := len(pods)
	for i, pod := range pods {
		if vs := evaluate(enforce.Level, &pod.ObjectMeta, &pod.Spec); len(vs) > 0 {
			reason := forbiddenReason(vs)
			c, ok := counts[reason]
			if !ok {
				c = &count{first: pod.Name}
				counts[reason] = c
				reasons = append(reasons, reason)
			}
			c.first = min(c.first, pod.Name)
			c.n++
		}
		if ctx.Err() != nil {
			checked = i + 1
			break
		}
	}
	var warnings []string
	if checked < total {
		warnings = append(warnings, fmt.Sprintf("new PodSecurity enforce level only checked against the first %d of %d existing pods", checked, total))
	}
	if len(reasons) > 0 {
		warnings = append(warnings, fmt.Sprintf("existing pods in namespace %q violate the new PodSecurity enforce level %q", ns, enforce.String()))
	}
	var perReason []string
	for _, r := range reasons {
		c := counts[r]
		switch c.n {
		case 1:
			perReason = append(perReason, fmt.Sprintf("%s: %s", c.first, r))
		case 2:
			perReason = append(perReason, fmt.Sprintf("%s (and 1 other pod): %s", c.first, r))
		default:
			perReason = append(perReason, fmt.Sprintf("%s (and %d other pods): %s", c.first, c.n-1, r))
		}
	}
	slices.Sort(perReason)
	return append(warnings, perReason...)
}

// prioritize orders pods for checking: every pod without a controller
// and the first of each controller's, then the other pods of
// controllers, which are most likely copies of one template. It returns
// a new slice.
func prioritize(pods []*corev1.Pod) []*corev1.Pod {
	out := make([]*corev1.Pod, 0, len(pods))
	var copies []*corev1.Pod
	seen := map[string]bool{}
	for _, pod := range pods {
		ref := controllerOf(pod)
		if ref == nil {
			out = append(out, pod)
			continue
		}
		if seen[string(ref.UID)] {
			copies = append(copies, pod)
			continue
		}
		seen[string(ref.UID)] = true
		out = append(out, pod)
	}
	return append(out, copies...)
}

func controllerOf(pod *corev1.Pod) *metav1.OwnerReference {
	for i, ref := range pod.OwnerReferences {
		if ref.Controller != nil && *ref.Controller {
			return &pod.OwnerReferences[i]
		}
	}
	return nil
}
