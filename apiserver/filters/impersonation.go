package filters

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// The impersonation headers, as kubectl's --as, --as-group and --as-uid
// send them.
const (
	ImpersonateUserHeader  = "Impersonate-User"
	ImpersonateGroupHeader = "Impersonate-Group"
	ImpersonateUIDHeader   = "Impersonate-Uid"
)

// serviceAccountPrefix starts a ServiceAccount's user name:
// system:serviceaccount:<namespace>:<name>.
const serviceAccountPrefix = "system:serviceaccount:"

// WithImpersonation lets a user act as another: when a request carries
// Impersonate-User (and optionally Impersonate-Group, Impersonate-Uid),
// the authorizer must allow the authenticated user the verb "impersonate"
// on each (users, groups or serviceaccounts in the core group, uids in
// authentication.k8s.io), and the rest of the chain then sees the
// impersonated user. A refusal is 403, worded as the authorization
// filter words one. The impersonated user is in system:authenticated
// (system:unauthenticated for system:anonymous) unless the groups say
// otherwise, and a ServiceAccount impersonated without groups is in its
// ServiceAccount groups.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/filters (WithImpersonation).
func WithImpersonation(h http.Handler, a authz.Authorizer) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		username := r.Header.Get(ImpersonateUserHeader)
		groups := r.Header.Values(ImpersonateGroupHeader)
		uid := r.Header.Get(ImpersonateUIDHeader)
		if username == "" && len(groups) == 0 && uid == "" {
			h.ServeHTTP(w, r)
			return
		}
		if username == "" {
			responsewriters.WriteError(w, r, apierrors.NewBadRequest(
				fmt.Sprintf("requested impersonation of groups %q or uid %q without impersonating a user", groups, uid)))
			return
		}
		requestor, _ := request.UserFrom(r.Context())
		check := func(info *request.RequestInfo) bool {
			attrs := authz.Attributes{User: requestor, RequestInfo: info}
			d, reason, err := a.Authorize(r.Context(), attrs)
			if err != nil || d != authz.DecisionAllow {
				responsewriters.WriteError(w, r, forbidden(attrs, reason))
				return false
			}
			return true
		}
		impersonate := func(group, resource, ns, name string) *request.RequestInfo {
			return &request.RequestInfo{IsResourceRequest: true, Verb: "impersonate", APIGroup: group,
				APIVersion: "v1", Resource: resource, Namespace: ns, Name: name}
		}
		if rest, ok := strings.CutPrefix(username, serviceAccountPrefix); ok && strings.Count(rest, ":") == 1 {
			ns, name, _ := strings.Cut(rest, ":")
			if !check(impersonate("", "serviceaccounts", ns, name)) {
				return
			}
			if len(groups) == 0 {
				groups = []string{"system:serviceaccounts", "system:serviceaccounts:" + ns}
			}
		} else if !check(impersonate("", "users", "", username)) {
			return
		}
		for _, g := range r.Header.Values(ImpersonateGroupHeader) {
			if !check(impersonate("", "groups", "", g)) {
				return
			}
		}
		if uid != "" && !check(impersonate("authentication.k8s.io", "uids", "", uid)) {
			return
		}
		groups = slices.Clone(groups)
		if username != request.AnonymousUser {
			if !slices.Contains(groups, request.AllAuthenticated) && !slices.Contains(groups, request.AllUnauthenticated) {
				groups = append(groups, request.AllAuthenticated)
			}
		} else if !slices.Contains(groups, request.AllUnauthenticated) {
			groups = append(groups, request.AllUnauthenticated)
		}
		for _, hdr := range []string{ImpersonateUserHeader, ImpersonateGroupHeader, ImpersonateUIDHeader} {
			r.Header.Del(hdr)
		}
		u := &request.User{Name: username, UID: uid, Groups: groups}
		h.ServeHTTP(w, r.WithContext(request.WithUser(r.Context(), u)))
	})
}
