package apiserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/storage/storagetest"
)

// TestAuthorizationModes: a mode is a list, as kube-apiserver's
// --authorization-mode, whose unknown or repeated members are refused.
func TestAuthorizationModes(t *testing.T) {
	for _, tc := range []struct {
		mode    string
		wantErr string
	}{
		{mode: "Node,RBAC"},
		{mode: " RBAC , Node "},
		{mode: "AlwaysAllow"},
		{mode: "Node,Bogus", wantErr: `unknown authorization mode "Bogus" in "Node,Bogus"`},
		{mode: "RBAC,RBAC", wantErr: `AuthorizationMode "RBAC,RBAC" names "RBAC" twice`},
	} {
		t.Run(tc.mode, func(t *testing.T) {
			_, err := apiserver.New(apiserver.Options{Etcd: storagetest.Client(t), AnonymousAuth: true, AuthorizationMode: tc.mode})
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// TestAlwaysAllowLetsAnonymousIn: under AlwaysAllow, with anonymous
// requests let in, anyone may do anything, as upstream's mode.
func TestAlwaysAllowLetsAnonymousIn(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) {
		o.AuthorizationMode = "AlwaysAllow"
		o.AnonymousAuth = true
	})
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"anon"}}`, withToken(""))
}
