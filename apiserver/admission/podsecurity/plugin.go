package podsecurity

import (
	"context"
	"fmt"
	"slices"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/request"
)

// The audit annotations PodSecurity adds to a request's audit Event.
const (
	// EnforcedPolicyAnnotation is the enforce policy a pod was held to.
	EnforcedPolicyAnnotation = labelPrefix + "enforce-policy"
	// AuditViolationsAnnotation says what the audit policy would refuse.
	AuditViolationsAnnotation = labelPrefix + "audit-violations"
	// ExemptAnnotation says why a request was exempt: user, namespace or
	// runtimeClass.
	ExemptAnnotation = labelPrefix + "exempt"
	// ErrorAnnotation carries a namespace's unreadable labels.
	ErrorAnnotation = labelPrefix + "error"
)

// PodLister lists a namespace's pods, for the warnings about existing
// pods when a namespace's enforce level tightens.
type PodLister interface {
	// ListPods returns the pods of ns, possibly from a cache a moment
	// behind. The result is shared: callers must not modify it.
	ListPods(ctx context.Context, ns string) ([]*corev1.Pod, error)
}

// Exemptions are requests PodSecurity does not check at all, as
// kube-apiserver's PodSecurityConfiguration lists them. A request is
// exempt if its user, its namespace or its pod's runtimeClassName is
// listed.
type Exemptions struct {
	Usernames      []string
	Namespaces     []string
	RuntimeClasses []string
}

// Plugin is the PodSecurity validating admission plugin: see the package
// documentation. Namespaces is required; without Pods, tightening a
// namespace's enforce level gives no warnings about its existing pods.
// The zero value with Namespaces set exempts nothing and is safe for
// concurrent use.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/security/podsecurity (Plugin).
type Plugin struct {
	Namespaces admission.NamespaceGetter
	Pods       PodLister
	Exemptions Exemptions

	// mu guards pending.
	mu sync.Mutex
	// pending holds, by namespace, the PodSecurity labels of the last
	// change of them this server admitted, until the cache shows them
	// (see expectLabels); at most maxPending namespaces.
	pending map[string]map[string]string
}

var _ admission.ValidationInterface = (*Plugin)(nil)

// Name implements admission.Plugin.
func (*Plugin) Name() string { return "PodSecurity" }

// Handles implements admission.Plugin: creates and updates.
func (*Plugin) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Update
}

// ignoredPodSubresources change nothing a policy looks at.
var ignoredPodSubresources = []string{"attach", "binding", "eviction", "exec", "log", "portforward", "proxy", "status"}

// Validate implements admission.ValidationInterface.
func (p *Plugin) Validate(ctx context.Context, a *admission.Attributes) error {
	switch gr := a.Resource.GroupResource(); {
	case gr.Group == "" && gr.Resource == "namespaces":
		return p.validateNamespace(ctx, a)
	case gr.Group == "" && gr.Resource == "pods":
		return p.validatePod(ctx, a)
	default:
		return p.validateWorkload(ctx, a)
	}
}

// validatePod checks a pod against its namespace's enforce, audit and
// warn policies.
func (p *Plugin) validatePod(ctx context.Context, a *admission.Attributes) error {
	if slices.Contains(ignoredPodSubresources, a.Subresource) {
		return nil
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return nil
	}
	if p.exempt(ctx, a) {
		return nil
	}
	policy, errs, ok, err := p.policyOf(ctx, a.Namespace)
	if err != nil || !ok {
		return err
	}
	if len(errs) == 0 && policy.Enforce.Level == LevelPrivileged && policy.Audit.Level == LevelPrivileged &&
		policy.Warn.Level == LevelPrivileged {
		return nil
	}
	if a.Operation == admission.Update {
		if old, ok := a.OldObject.(*corev1.Pod); ok && !significantPodUpdate(pod, old) {
			return nil
		}
	}
	return p.evaluate(ctx, a, policy, errs, &pod.ObjectMeta, &pod.Spec, true)
}

// validateWorkload gives a workload's pod template the namespace's
// audit and warn policies; it never refuses, since the pods the
// workload's controller creates meet enforce.
func (p *Plugin) validateWorkload(ctx context.Context, a *admission.Attributes) error {
	if a.Subresource != "" {
		return nil
	}
	meta, spec := podTemplateOf(a.Object)
	if spec == nil || p.exempt(ctx, a) {
		return nil
	}
	policy, errs, ok, err := p.policyOf(ctx, a.Namespace)
	if err != nil || !ok {
		// A workload is never refused, not even when its namespace
		// cannot be read.
		return nil
	}
	if policy.Audit.Level == LevelPrivileged && policy.Warn.Level == LevelPrivileged && len(errs) == 0 {
		return nil
	}
	return p.evaluate(ctx, a, policy, errs, meta, spec, false)
}

// podTemplateOf returns the pod template of a workload minicp serves;
// nil for any other object.
//
// Upstream: k8s.io/pod-security-admission/admission (DefaultPodSpecExtractor).
func podTemplateOf(obj runtime.Object) (*metav1.ObjectMeta, *corev1.PodSpec) {
	var t *corev1.PodTemplateSpec
	switch o := obj.(type) {
	case *appsv1.Deployment:
		t = &o.Spec.Template
	case *appsv1.ReplicaSet:
		t = &o.Spec.Template
	case *appsv1.StatefulSet:
		t = &o.Spec.Template
	case *batchv1.Job:
		t = &o.Spec.Template
	default:
		return nil, nil
	}
	return &t.ObjectMeta, &t.Spec
}

// policyOf reads the policy of namespace ns, with the errors of its
// labels. ok is false when the namespace does not exist: that is for
// NamespaceLifecycle to refuse.
func (p *Plugin) policyOf(ctx context.Context, ns string) (Policy, apierrors.FieldErrors, bool, error) {
	namespace, err := p.Namespaces.GetNamespace(ctx, ns, admission.GetNamespaceOptions{})
	// The cache may not have a namespace created a moment ago, nor its
	// labels changed a moment ago.
	if apierrors.IsNotFound(err) || err == nil && p.mustLookUpLive(ns, namespace.Labels) {
		namespace, err = p.Namespaces.GetNamespace(ctx, ns, admission.GetNamespaceOptions{Live: true})
	}
	switch {
	case apierrors.IsNotFound(err):
		return Policy{}, nil, false, nil
	case err != nil:
		return Policy{}, nil, false, apierrors.NewInternalError(fmt.Errorf("failed to lookup namespace %s: %w", ns, err))
	}
	policy, errs := PolicyFromLabels(namespace.Labels)
	return policy, errs, true, nil
}

// evaluate holds a pod or pod template to policy: enforce (when
// enforce is set) refuses it with 403, audit annotates the audit Event,
// warn adds a Warning for the client unless the request is refused.
//
// Upstream: k8s.io/pod-security-admission/admission (Admission.EvaluatePod).
func (p *Plugin) evaluate(ctx context.Context, a *admission.Attributes, policy Policy, labelErrs apierrors.FieldErrors,
	meta *metav1.ObjectMeta, spec *corev1.PodSpec, enforce bool) error {
	if spec.RuntimeClassName != nil && slices.Contains(p.Exemptions.RuntimeClasses, *spec.RuntimeClassName) {
		request.AddAuditAnnotation(ctx, ExemptAnnotation, "runtimeClass")
		return nil
	}
	if len(labelErrs) > 0 {
		request.AddAuditAnnotation(ctx, ErrorAnnotation, "Failed to parse policy: "+labelErrs.Error())
	}
	// Modes that share a level share one evaluation.
	results := map[Level][]violation{}
	resultOf := func(l Level) []violation {
		vs, ok := results[l]
		if !ok {
			vs = evaluate(l, meta, spec)
			results[l] = vs
		}
		return vs
	}
	var refusal error
	if enforce {
		request.AddAuditAnnotation(ctx, EnforcedPolicyAnnotation, policy.Enforce.String())
		if vs := resultOf(policy.Enforce.Level); len(vs) > 0 {
			refusal = apierrors.NewForbidden(a.Resource.GroupResource(), a.Name,
				fmt.Errorf("violates PodSecurity %q: %s", policy.Enforce.String(), forbiddenDetail(vs)))
		}
	}
	if vs := resultOf(policy.Audit.Level); len(vs) > 0 {
		request.AddAuditAnnotation(ctx, AuditViolationsAnnotation,
			fmt.Sprintf("would violate PodSecurity %q: %s", policy.Audit.String(), forbiddenDetail(vs)))
	}
	if refusal != nil {
		// A refused request needs no warning about the same pod.
		return refusal
	}
	if vs := resultOf(policy.Warn.Level); len(vs) > 0 {
		request.AddWarning(ctx, fmt.Sprintf("would violate PodSecurity %q: %s", policy.Warn.String(), forbiddenDetail(vs)))
	}
	return nil
}

// exempt reports, and records for the audit Event, a request by an
// exempt user or in an exempt namespace.
func (p *Plugin) exempt(ctx context.Context, a *admission.Attributes) bool {
	reason := ""
	switch {
	case a.Namespace != "" && slices.Contains(p.Exemptions.Namespaces, a.Namespace):
		reason = "namespace"
	case a.User != nil && a.User.Name != "" && slices.Contains(p.Exemptions.Usernames, a.User.Name):
		reason = "user"
	default:
		return false
	}
	request.AddAuditAnnotation(ctx, ExemptAnnotation, reason)
	return true
}

// significantPodUpdate reports an update that can change what a policy
// sees. A pod's spec is immutable but for images (and what its
// subresources change, which PodSecurity ignores), so only images, the
// number of containers and the seccomp annotations matter.
//
// Upstream: k8s.io/pod-security-admission/admission (isSignificantPodUpdate).
func significantPodUpdate(pod, old *corev1.Pod) bool {
	const seccompPod = "seccomp.security.alpha.kubernetes.io/pod"
	const seccompContainer = "container.seccomp.security.alpha.kubernetes.io/"
	if pod.Annotations[seccompPod] != old.Annotations[seccompPod] ||
		len(pod.Spec.Containers) != len(old.Spec.Containers) || len(pod.Spec.InitContainers) != len(old.Spec.InitContainers) {
		return true
	}
	changed := func(c, oc []corev1.Container) bool {
		for i := range c {
			key := seccompContainer + c[i].Name
			if c[i].Image != oc[i].Image || pod.Annotations[key] != old.Annotations[key] {
				return true
			}
		}
		return false
	}
	return changed(pod.Spec.Containers, old.Spec.Containers) || changed(pod.Spec.InitContainers, old.Spec.InitContainers)
}
