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
	// when the body names it, as for the bindings resource).
	Create func(ctx context.Context, ns, name string, body runtime.Object) (runtime.Object, error)
	// ReturnObject answers with what Create returns instead of a Success
	// Status: the review kinds (SubjectAccessReview, ...) are created to
	// read their status.
	ReturnObject bool
}
