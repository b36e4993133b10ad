package registry

import (
	"context"

	"github.com/minicp/minicp/api/runtime"
)

// NamedCreater creates from a POST to a subresource such as pods/binding,
// or to a resource whose objects are not stored (the access reviews). The
// registry provides it; the handlers decode, admit and answer around it.
//
// Upstream: k8s.io/apiserver/pkg/registry/rest (NamedCreater).
type NamedCreater struct {
	// New returns the empty body object to decode into.
	New func() runtime.Object
	// Create applies the decoded, admitted body to the object ns/name (""
	// when the body names it, as for the bindings resource). opts carries
	// the request's ?dryRun. A *metav1.Status it returns is the answer,
	// with the Status's code (upstream answers 500 that way when a pod has
	// more than one disruption budget).
	Create func(ctx context.Context, ns, name string, body runtime.Object, opts CreateOptions) (runtime.Object, error)
	// Kind is the body's kind as discovery reports it, when it is neither
	// the resource's own nor one the handlers know (pods/eviction takes a
	// policy/v1 Eviction). Optional.
	Kind runtime.GroupVersionKind
	// AcceptedVersions are other group/versions the body may be spelled
	// in, decoded into the same Go type: a policy/v1beta1 Eviction.
	//
	// Upstream: k8s.io/apiserver/pkg/registry/rest (GroupVersionAcceptor).
	AcceptedVersions []runtime.GroupVersion
	// ReturnObject answers with what Create returns instead of a Success
	// Status: the review kinds (SubjectAccessReview, ...) are created to
	// read their status.
	ReturnObject bool
}
