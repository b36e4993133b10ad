package flowcontrol_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/apiserver/flowcontrol"
	"github.com/minicp/minicp/apiserver/request"
)

// TestClassifyBootstrap: the default configuration sends each kind of
// client to upstream's schema and level.
func TestClassifyBootstrap(t *testing.T) {
	authenticated := func(name string, groups ...string) *request.User {
		return &request.User{Name: name, Groups: append(groups, request.AllAuthenticated)}
	}
	resource := func(verb, group, resource, sub, ns string) *request.RequestInfo {
		return &request.RequestInfo{IsResourceRequest: true, Verb: verb, APIGroup: group, APIVersion: "v1",
			Resource: resource, Subresource: sub, Namespace: ns, Name: "x"}
	}
	nonResource := func(path string) *request.RequestInfo {
		return &request.RequestInfo{Verb: "get", Path: path}
	}
	tests := []struct {
		name       string
		user       *request.User
		info       *request.RequestInfo
		schema, pl string
	}{
		{"admin", authenticated("kubernetes-admin", request.SystemPrivilegedGroup),
			resource("create", "", "configmaps", "", "default"), "exempt", "exempt"},
		{"node lease update", authenticated("system:node:n1", "system:nodes"),
			resource("update", "coordination.k8s.io", "leases", "", "kube-node-lease"), "system-node-high", "node-high"},
		{"node status update", authenticated("system:node:n1", "system:nodes"),
			resource("patch", "", "nodes", "status", ""), "system-node-high", "node-high"},
		{"node reads its pods", authenticated("system:node:n1", "system:nodes"),
			resource("list", "", "pods", "", ""), "system-nodes", "system"},
		{"kube-scheduler binds", authenticated("system:kube-scheduler"),
			resource("create", "", "pods", "binding", "default"), "kube-scheduler", "workload-high"},
		{"kube-scheduler leader election", authenticated("system:kube-scheduler"),
			resource("update", "coordination.k8s.io", "leases", "", "kube-system"), "system-leader-election", "leader-election"},
		{"kube-controller-manager", authenticated("system:kube-controller-manager"),
			resource("update", "apps", "deployments", "status", "default"), "kube-controller-manager", "workload-high"},
		{"service account", authenticated("system:serviceaccount:default:builder", "system:serviceaccounts", "system:serviceaccounts:default"),
			resource("create", "", "configmaps", "", "default"), "service-accounts", "workload-low"},
		{"kube-system service account", authenticated("system:serviceaccount:kube-system:coredns", "system:serviceaccounts", "system:serviceaccounts:kube-system"),
			resource("list", "", "services", "", ""), "kube-system-service-accounts", "workload-high"},
		{"unauthenticated healthz", &request.User{Name: request.AnonymousUser, Groups: []string{request.AllUnauthenticated}},
			nonResource("/healthz"), "probes", "exempt"},
		{"readyz", authenticated("alice"), nonResource("/readyz"), "probes", "exempt"},
		{"plain user", authenticated("alice"), resource("create", "", "configmaps", "", "default"), "global-default", "global-default"},
		{"plain user, non-resource", authenticated("alice"), nonResource("/version"), "global-default", "global-default"},
		{"no group at all", &request.User{Name: "nobody"}, resource("get", "", "pods", "", "default"), "catch-all", "catch-all"},
	}
	c := flowcontrol.New(flowcontrol.Options{})
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cl := c.Classify(flowcontrol.RequestDigest{RequestInfo: tc.info, User: tc.user})
			assert.Equal(t, tc.schema, cl.FlowSchemaName, "schema of %s %+v", tc.user.Name, tc.info)
			assert.Equal(t, tc.pl, cl.PriorityLevelName, "priority level of %s %+v", tc.user.Name, tc.info)
		})
	}
}

// TestBootstrapConcurrencyLimits: the default levels share the default
// 600 seats as kube-apiserver's do, ceil(600 * shares / 245).
func TestBootstrapConcurrencyLimits(t *testing.T) {
	c := flowcontrol.New(flowcontrol.Options{})
	want := map[string]int{
		"exempt": 0, "catch-all": 13, "system": 74, "node-high": 98, "leader-election": 25,
		"workload-high": 98, "workload-low": 245, "global-default": 49,
	}
	for level, n := range want {
		assert.Equal(t, n, c.ConcurrencyLimit(level), "seats of %s", level)
	}
}
