package filters

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// WithAuthorization asks the authorizer whether the user may do what the
// RequestInfo says; anything but Allow is 403 Forbidden with the reason.
func WithAuthorization(h http.Handler, a authz.Authorizer, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, _ := request.RequestInfoFrom(r.Context())
		user, _ := request.UserFrom(r.Context())
		attrs := authz.Attributes{User: user, RequestInfo: info}
		decision, reason, err := a.Authorize(r.Context(), attrs)
		if err != nil {
			responsewriters.WriteError(w, r, apierrors.NewInternalError(fmt.Errorf("authorize: %w", err)))
			return
		}
		log.Debug("authorized", "hop", "authz", "verb", info.Verb, "resource", info.Resource,
			"allowed", decision == authz.DecisionAllow)
		if decision != authz.DecisionAllow {
			responsewriters.WriteError(w, r, forbidden(attrs, reason))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// forbidden words the 403 as kube-apiserver does: for a resource
// request `pods "x" is forbidden: User "u" cannot get resource "pods" in
// API group "" in the namespace "ns"` (or "at the cluster scope"), the
// resource carrying its subresource ("pods/log"); for any other request
// `forbidden: User "u" cannot get path "/x"`; and the authorizer's
// reason, when it gave one, after ": ".
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/responsewriters
// (Forbidden, forbiddenMessage).
func forbidden(a authz.Attributes, reason string) error {
	name := ""
	if a.User != nil {
		name = a.User.Name
	}
	var msg string
	switch {
	case a.RequestInfo == nil:
		msg = fmt.Sprintf("User %q cannot %s path %q", name, "", "")
	case !a.IsResourceRequest:
		msg = fmt.Sprintf("User %q cannot %s path %q", name, a.Verb, a.Path)
	default:
		resource := a.Resource
		if a.Subresource != "" {
			resource += "/" + a.Subresource
		}
		msg = fmt.Sprintf("User %q cannot %s resource %q in API group %q", name, a.Verb, resource, a.APIGroup)
		if a.Namespace != "" {
			msg += fmt.Sprintf(" in the namespace %q", a.Namespace)
		} else {
			msg += " at the cluster scope"
		}
	}
	if reason != "" {
		msg += ": " + reason
	}
	var gr runtime.GroupResource
	objName := ""
	if a.RequestInfo != nil && a.IsResourceRequest {
		gr, objName = runtime.GroupResource{Group: a.APIGroup, Resource: a.Resource}, a.Name
	}
	return apierrors.NewForbidden(gr, objName, errors.New(msg))
}
