package admission

import (
	"context"
	"errors"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// NamespaceGetter reads a namespace; NotFound when there is none.
type NamespaceGetter interface {
	GetNamespace(ctx context.Context, name string) (*corev1.Namespace, error)
}

// ImmortalNamespaces can never be deleted.
var ImmortalNamespaces = []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic}

// NamespaceLifecycle rejects new objects in a namespace that does not
// exist (404) or is being terminated (403), and the deletion of the
// namespaces every cluster needs (403).
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/namespace/lifecycle.
type NamespaceLifecycle struct {
	Namespaces NamespaceGetter
}

var _ ValidationInterface = (*NamespaceLifecycle)(nil)

// Name implements Plugin.
func (*NamespaceLifecycle) Name() string { return "NamespaceLifecycle" }

// Handles implements Plugin: creates, and deletes of namespaces.
func (*NamespaceLifecycle) Handles(op Operation) bool { return op == Create || op == Delete }

// Validate implements ValidationInterface.
func (p *NamespaceLifecycle) Validate(ctx context.Context, a *Attributes) error {
	nsResource := a.Resource.Group == "" && a.Resource.Resource == "namespaces"
	if a.Operation == Delete {
		if nsResource && a.Subresource == "" && slices.Contains(ImmortalNamespaces, a.Name) {
			return apierrors.NewForbidden(a.Resource.GroupResource(), a.Name, errors.New("this namespace may not be deleted"))
		}
		return nil
	}
	// A namespace itself, cluster-scoped objects, and writes to a
	// subresource of an object that already exists (a binding) are not
	// new content of a namespace.
	if nsResource || a.Namespace == "" || a.Subresource != "" {
		return nil
	}
	ns, err := p.Namespaces.GetNamespace(ctx, a.Namespace)
	if apierrors.IsNotFound(err) {
		return apierrors.NewNotFound(runtime.GroupResource{Resource: "namespaces"}, a.Namespace)
	}
	if err != nil {
		return apierrors.NewInternalError(err)
	}
	if ns.Status.Phase == corev1.NamespaceTerminating || ns.DeletionTimestamp != nil {
		se := apierrors.NewForbidden(a.Resource.GroupResource(), a.Name,
			errors.New("unable to create new content in namespace "+a.Namespace+" because it is being terminated"))
		se.ErrStatus.Details.Causes = []metav1.StatusCause{{Type: corev1.NamespaceTerminatingCause, Message: "namespace " + a.Namespace + " is terminating", Field: "metadata.namespace"}}
		return se
	}
	return nil
}
