package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"
)

// BenchmarkCreateAuthorization measures a create under each
// authorization mode in one run, so the figures read as a ratio: the
// admin under AllowAuthenticated, and under RBAC a user allowed by a
// RoleBinding (the RBAC authorizer resolves it from the watch caches'
// subject index) and a system:masters member (the privileged-group
// authorizer answers first). Run with:
//
//	go test -run='^$' -bench=BenchmarkCreateAuthorization -benchmem ./apiserver/
func BenchmarkCreateAuthorization(b *testing.B) {
	plain := newTestServer(b)
	rbac := newRBACServer(b)
	rbac.createRBAC(rolesPath, role("cm-writer", policyRule(strs("create"), strs(""), strs("configmaps"))))
	rbac.createRBAC(bindsPath, roleBinding("alice-cm", "Role", "cm-writer", "alice"))

	seq := 0
	for _, bc := range []struct {
		name string
		s    *testServer
		opts []requestOption
	}{
		{"AllowAuthenticated", plain, nil},
		{"RBAC-rolebinding", rbac, []requestOption{withToken(aliceToken)}},
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
