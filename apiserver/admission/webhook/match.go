package webhook

import (
	"context"
	"errors"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

// invocation is one webhook to call for one request, with the resource and
// kind the request is presented to it as: the request's own, or under
// matchPolicy Equivalent those of the version its rule names.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/generic (WebhookInvocation).
type invocation struct {
	hook     *hook
	resource runtime.GroupVersionResource
	kind     runtime.GroupVersionKind
}

// matcher decides which webhooks a request calls. It is safe for
// concurrent use.
type matcher struct {
	namespaces admission.NamespaceGetter
	resources  ResourceLister
}

// shouldCall returns the invocation of h for a, or nil when h does not
// apply. An error is a Status: the namespace's 404, or a 500 for a
// selector that does not parse or a namespace that cannot be read.
//
// The rules are checked first, since they cost nothing; a selector that
// fails to evaluate only matters when the other one matches, which is the
// outcome of upstream's order (selectors first, their errors held until
// the rules matched).
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/generic (Webhook.ShouldCallHook).
func (m matcher) shouldCall(ctx context.Context, h *hook, a *admission.Attributes) (*invocation, error) {
	inv := m.matchRules(h, a)
	if inv == nil {
		return nil, nil
	}
	nsMatch, nsErr := m.matchNamespaceSelector(ctx, h, a)
	if !nsMatch && nsErr == nil {
		return nil, nil
	}
	objMatch, objErr := matchObjectSelector(h, a)
	if !objMatch && objErr == nil {
		return nil, nil
	}
	if nsErr != nil {
		return nil, nsErr
	}
	if objErr != nil {
		return nil, objErr
	}
	return inv, nil
}

// matchRules finds the first rule of h matching the request itself and,
// failing that under matchPolicy Equivalent, the first rule matching one
// of the other versions the server serves of the request's resource.
func (m matcher) matchRules(h *hook, a *admission.Attributes) *invocation {
	for i := range h.rules {
		if ruleMatches(&h.rules[i], a, a.Resource) {
			return &invocation{hook: h, resource: a.Resource, kind: a.Kind}
		}
	}
	if h.matchPolicy != admissionregistrationv1.Equivalent || m.resources == nil {
		return nil
	}
	equivalents := m.equivalents(a.Resource)
	// Earlier rules first, as upstream: the rule order says which version
	// the webhook prefers.
	for i := range h.rules {
		for _, info := range equivalents {
			if !ruleMatches(&h.rules[i], a, info.GVR) {
				continue
			}
			kind := a.Kind
			if a.Kind.GroupVersion() == a.Resource.GroupVersion() {
				// The body is the resource's own kind (the object, or its
				// status): present it in the matched version. A body of
				// another kind (a Scale) stays as it is.
				kind = info.GVK()
			}
			return &invocation{hook: h, resource: info.GVR, kind: kind}
		}
	}
	return nil
}

// equivalents returns the other served versions of gvr's group and
// resource. minicp serves each built-in resource in one version, so only a
// CRD with several served versions has any.
func (m matcher) equivalents(gvr runtime.GroupVersionResource) []runtime.ResourceInfo {
	var out []runtime.ResourceInfo
	for _, info := range m.resources.Resources() {
		if info.GVR.Group == gvr.Group && info.GVR.Resource == gvr.Resource && info.GVR.Version != gvr.Version {
			out = append(out, info)
		}
	}
	return out
}

// isNamespace reports requests on namespace objects themselves.
func isNamespace(a *admission.Attributes) bool {
	return a.Resource.Group == "" && a.Resource.Resource == "namespaces"
}

// matchNamespaceSelector matches h's namespaceSelector against the labels
// of the request's namespace. Requests on other cluster-scoped resources
// always match: they have no namespace to be exempted by.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/namespace
// (Matcher.MatchNamespaceSelector).
func (m matcher) matchNamespaceSelector(ctx context.Context, h *hook, a *admission.Attributes) (bool, error) {
	if a.Namespace == "" && !isNamespace(a) {
		return true, nil
	}
	sel, err := labels.FromLabelSelector(h.namespaceSelector)
	if err != nil {
		return false, apierrors.NewInternalError(err)
	}
	if sel.Empty() {
		return true, nil
	}
	nsLabels, err := m.namespaceLabels(ctx, a)
	if apierrors.IsNotFound(err) {
		// Upstream returns the namespace's 404 as it is.
		return false, err
	}
	if err != nil {
		return false, apierrors.NewInternalError(err)
	}
	return sel.Matches(labels.Set(nsLabels)), nil
}

// namespaceLabels returns the labels of the request's namespace. A
// namespace being created or updated is matched by its new labels, which
// no store has yet; anything else reads the namespace, from the cache and,
// when the cache does not have it (a namespace created a moment ago), from
// etcd.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/namespace
// (Matcher.GetNamespaceLabels).
func (m matcher) namespaceLabels(ctx context.Context, a *admission.Attributes) (map[string]string, error) {
	if isNamespace(a) && a.Subresource == "" && (a.Operation == admission.Create || a.Operation == admission.Update) {
		meta, err := metav1.Accessor(a.Object)
		if err != nil {
			return nil, err
		}
		return meta.Labels, nil
	}
	if m.namespaces == nil {
		return nil, errors.New("webhook: no namespace getter to match namespaceSelector with")
	}
	name := a.Namespace
	if name == "" {
		// A namespace's own requests are named by it.
		name = a.Name
	}
	ns, err := m.namespaces.GetNamespace(ctx, name, admission.GetNamespaceOptions{})
	if apierrors.IsNotFound(err) {
		ns, err = m.namespaces.GetNamespace(ctx, name, admission.GetNamespaceOptions{Live: true})
	}
	if err != nil {
		return nil, err
	}
	return ns.Labels, nil
}

// matchObjectSelector matches h's objectSelector against the labels of the
// new object and of the old one: either matching is enough. A missing
// object (the old one of a create, the new one of a delete) does not match.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/predicates/object
// (Matcher.MatchObjectSelector).
func matchObjectSelector(h *hook, a *admission.Attributes) (bool, error) {
	sel, err := labels.FromLabelSelector(h.objectSelector)
	if err != nil {
		return false, apierrors.NewInternalError(err)
	}
	if sel.Empty() {
		return true, nil
	}
	obj, old := requestObjects(a)
	return objectMatches(obj, sel) || objectMatches(old, sel), nil
}

func objectMatches(obj runtime.Object, sel labels.Selector) bool {
	if obj == nil {
		return false
	}
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return false
	}
	return sel.Matches(labels.Set(meta.Labels))
}

// requestObjects returns the new and old objects of a request as a webhook
// sees them. The registry validates a delete with the object being deleted
// as Attributes.Object; a webhook sees it as the old object, with no new
// one, as upstream sends it.
func requestObjects(a *admission.Attributes) (obj, old runtime.Object) {
	if a.Operation == admission.Delete {
		if a.OldObject != nil {
			return nil, a.OldObject
		}
		return nil, a.Object
	}
	return a.Object, a.OldObject
}
