package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/authz"
)

// BenchmarkCreateAuthorization measures a create under each
// authorization mode, with and without admission, in one run, so the
// figures read as ratios: the admin under AlwaysAllow and
// AllowAuthenticated; under RBAC and Node,RBAC an unprivileged user
// allowed by a RoleBinding (the RBAC authorizer resolves it from the
// watch caches' subject index; the Node authorizer has no opinion on a
// user that is not a node); and a system:masters member (the
// privileged-group authorizer answers first). The -no-admission cases run
// defaulting alone, against the default chain (defaulting, LimitRanger,
// DefaultTolerationSeconds, NodeRestriction, Priority, the webhooks,
// NamespaceLifecycle, ResourceQuota). Run with:
//
//	go test -run='^$' -bench=BenchmarkCreateAuthorization -benchmem ./apiserver/
func BenchmarkCreateAuthorization(b *testing.B) {
	mode := func(m string) func(*apiserver.Options) {
		return func(o *apiserver.Options) { o.AuthorizationMode = m }
	}
	// Defaulting stays: kube-apiserver defaults while decoding, before
	// admission, and RBAC objects are invalid without it.
	noAdmission := func(o *apiserver.Options) {
		o.Admission = admission.Chain{&admission.Defaulting{SetDefaults: apiserver.SetDefaults}}
	}
	alwaysAllow := newTestServer(b, mode(authz.ModeAlwaysAllow))
	alwaysAllowNoAdmission := newTestServer(b, mode(authz.ModeAlwaysAllow), noAdmission)
	allowAuthenticated := newTestServer(b)
	rbac := newRBACServer(b)
	rbacNoAdmission := newRBACServer(b, noAdmission)
	nodeRBAC := newRBACServer(b, mode(authz.ModeNode+","+authz.ModeRBAC))
	for _, s := range []*testServer{rbac, rbacNoAdmission, nodeRBAC} {
		s.createRBAC(rolesPath, role("cm-writer", policyRule(strs("create"), strs(""), strs("configmaps"))))
		s.createRBAC(bindsPath, roleBinding("alice-cm", "Role", "cm-writer", "alice"))
	}

	seq := 0
	for _, bc := range []struct {
		name string
		s    *testServer
		opts []requestOption
	}{
		{"AlwaysAllow", alwaysAllow, nil},
		{"AlwaysAllow-no-admission", alwaysAllowNoAdmission, nil},
		{"AllowAuthenticated", allowAuthenticated, nil},
		{"RBAC-rolebinding", rbac, []requestOption{withToken(aliceToken)}},
		{"RBAC-rolebinding-no-admission", rbacNoAdmission, []requestOption{withToken(aliceToken)}},
		{"Node,RBAC-rolebinding", nodeRBAC, []requestOption{withToken(aliceToken)}},
		{"RBAC-system:masters", rbac, nil},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				seq++
				bc.s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/configmaps",
					fmt.Sprintf(`{"metadata":{"name":"cm-%d"},"data":{"k":"v"}}`, seq), bc.opts...)
			}
		})
	}
}
