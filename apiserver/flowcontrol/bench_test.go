package flowcontrol_test

import (
	"testing"

	"github.com/minicp/minicp/apiserver/flowcontrol"
	"github.com/minicp/minicp/apiserver/request"
)

// BenchmarkHandle measures classification and dispatch of one request
// through the default configuration, for an ordinary user (tried against
// every schema before global-default) and a node renewing its lease.
// Run with:
//
//	go test -run='^$' -bench=BenchmarkHandle -benchmem ./apiserver/flowcontrol/
func BenchmarkHandle(b *testing.B) {
	c := flowcontrol.New(flowcontrol.Options{})
	for _, tc := range []struct {
		name string
		d    flowcontrol.RequestDigest
	}{
		{"plain-user-create", flowcontrol.RequestDigest{
			User:        &request.User{Name: "alice", Groups: []string{request.AllAuthenticated}},
			RequestInfo: &request.RequestInfo{IsResourceRequest: true, Verb: "create", APIVersion: "v1", Resource: "configmaps", Namespace: "default"},
		}},
		{"node-lease-update", flowcontrol.RequestDigest{
			User: &request.User{Name: "system:node:n1", Groups: []string{"system:nodes", request.AllAuthenticated}},
			RequestInfo: &request.RequestInfo{IsResourceRequest: true, Verb: "update", APIGroup: "coordination.k8s.io", APIVersion: "v1",
				Resource: "leases", Namespace: "kube-node-lease", Name: "n1"},
		}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if !c.Handle(b.Context(), tc.d, func(flowcontrol.Classification) {}).Served {
					b.Fatal("rejected")
				}
			}
		})
	}
}
