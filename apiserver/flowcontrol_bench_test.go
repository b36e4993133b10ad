package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/apiserver/request"
)

// BenchmarkFlowControlCreate measures what API Priority and Fairness adds
// to a create: the same create by an ordinary user (classified through
// the default schemas to global-default) on a server with APF and on one
// with the flat max-in-flight limit, so the figures read as a ratio from
// one run. Run with:
//
//	go test -run='^$' -bench=BenchmarkFlowControlCreate -benchmem ./apiserver/
func BenchmarkFlowControlCreate(b *testing.B) {
	users := func(o *apiserver.Options) {
		o.Authenticator = authn.NewTokenFile([]authn.TokenUser{
			{Token: apiservertest.AdminToken, User: request.User{Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}},
			{Token: plainUserToken, User: request.User{Name: "plain"}},
		})
	}
	servers := []struct {
		name string
		s    *testServer
	}{
		{"apf", newTestServer(b, users)},
		{"max-in-flight", newTestServer(b, users, func(o *apiserver.Options) { o.Limits = filters.Limits{MaxInFlight: 400} })},
	}
	seq := 0
	for _, srv := range servers {
		b.Run(srv.name, func(b *testing.B) {
			for b.Loop() {
				seq++
				srv.s.mustDo(http.StatusCreated, "POST", configMapsPath,
					fmt.Sprintf(`{"metadata":{"name":"c-%d"}}`, seq), withToken(plainUserToken))
			}
		})
	}
}
