package request

import (
	"context"
	"slices"
	"strings"
)

// User is who made a request, as authentication established it.
type User struct {
	Name   string
	UID    string
	Groups []string
	// Extra holds what an authenticator knows besides name and groups,
	// such as the pod a service account token is bound to
	// (authentication.kubernetes.io/pod-name).
	Extra map[string][]string
}

// Well-known users and groups, spelled as Kubernetes spells them.
const (
	AnonymousUser         = "system:anonymous"
	AllUnauthenticated    = "system:unauthenticated"
	AllAuthenticated      = "system:authenticated"
	SystemPrivilegedGroup = "system:masters"
	// AllServiceAccounts is the group of every service account; each is
	// also in ServiceAccountGroupPrefix + its namespace.
	AllServiceAccounts        = "system:serviceaccounts"
	ServiceAccountGroupPrefix = "system:serviceaccounts:"
	// ServiceAccountUsernamePrefix starts every service account's user
	// name: system:serviceaccount:<namespace>:<name>.
	ServiceAccountUsernamePrefix = "system:serviceaccount:"
)

type userKey struct{}

// WithUser returns ctx carrying u.
func WithUser(ctx context.Context, u *User) context.Context {
	return context.WithValue(ctx, userKey{}, u)
}

// UserFrom returns the user in ctx, if authentication ran.
func UserFrom(ctx context.Context) (*User, bool) {
	u, ok := ctx.Value(userKey{}).(*User)
	return u, ok
}

// Node users and their group, as kubelets' client certificates name them.
const (
	NodesGroup         = "system:nodes"
	NodeUsernamePrefix = "system:node:"
)

// NodeIdentity reports whether u is a node, in NodesGroup, and which:
// the name after NodeUsernamePrefix, empty when u's name lacks it (a node
// user that names no node, which the Node authorizer and NodeRestriction
// refuse).
//
// Upstream: k8s.io/kubernetes/pkg/auth/nodeidentifier
// (defaultNodeIdentifier.NodeIdentity).
func NodeIdentity(u *User) (name string, isNode bool) {
	if u == nil || !slices.Contains(u.Groups, NodesGroup) {
		return "", false
	}
	name, ok := strings.CutPrefix(u.Name, NodeUsernamePrefix)
	if !ok {
		return "", true
	}
	return name, true
}
