package rbac_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/authz/rbac"
	"github.com/minicp/minicp/apiserver/request"
)

// policy is the cluster the matrix runs against:
//
//	alice   RoleBinding to Role pod-reader in "dev"
//	bob     RoleBinding to ClusterRole secret-reader in "dev" only
//	carol   ClusterRoleBinding to secret-reader, everywhere
//	group ops  ClusterRoleBinding to ClusterRole node-admin (nodes, /healthz*, logs, */scale)
//	dev/ci  ServiceAccount: RoleBinding to edit-deployments in "dev" (namespace defaulted)
//	system:serviceaccounts:prod  RoleBinding to pod-reader-cluster in "prod"
//	dan     RoleBinding to a Role that does not exist
//	erin    a Role limited to the ConfigMap named "settings"
//	anyone authenticated  system:discovery-like /api* rule
func policy() *fakeSource {
	f := newFakeSource()
	f.addRole("dev", "pod-reader", rule(l("get", "list", "watch"), l(""), l("pods")))
	f.addRole("dev", "one-configmap", rbacv1.PolicyRule{Verbs: l("get", "update"), APIGroups: l(""), Resources: l("configmaps"), ResourceNames: l("settings")})
	f.addRole("dev", "edit-deployments", rule(l("*"), l("apps"), l("deployments", "deployments/scale")))
	f.addClusterRole("secret-reader", rule(l("get", "list"), l(""), l("secrets")))
	f.addClusterRole("pod-reader-cluster", rule(l("get", "list"), l(""), l("pods", "pods/log")))
	f.addClusterRole("node-admin",
		rule(l("*"), l(""), l("nodes")),
		rule(l("get"), l("*"), l("*/scale")),
		rbacv1.PolicyRule{Verbs: l("get"), NonResourceURLs: l("/healthz", "/logs/*")},
	)
	f.addClusterRole("discovery", rbacv1.PolicyRule{Verbs: l("get"), NonResourceURLs: l("/api", "/api/*", "/apis", "/apis/*")})

	f.addRoleBinding("dev", "alice-pods", "Role", "pod-reader", user("alice"))
	f.addRoleBinding("dev", "erin-settings", "Role", "one-configmap", user("erin"))
	f.addRoleBinding("dev", "bob-secrets", "ClusterRole", "secret-reader", user("bob"))
	f.addRoleBinding("dev", "ci", "Role", "edit-deployments", rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: "ci"})
	f.addRoleBinding("prod", "prod-sas", "ClusterRole", "pod-reader-cluster", group("system:serviceaccounts:prod"))
	f.addRoleBinding("dev", "dan-missing", "Role", "no-such-role", user("dan"))
	f.addClusterRoleBinding("carol-secrets", "secret-reader", user("carol"))
	f.addClusterRoleBinding("ops", "node-admin", group("ops"))
	f.addClusterRoleBinding("discovery", "discovery", group("system:authenticated"))
	return f
}

var (
	alice     = &request.User{Name: "alice", Groups: l("system:authenticated")}
	bob       = &request.User{Name: "bob", Groups: l("system:authenticated")}
	carol     = &request.User{Name: "carol", Groups: l("system:authenticated")}
	dan       = &request.User{Name: "dan", Groups: l("system:authenticated")}
	erin      = &request.User{Name: "erin", Groups: l("system:authenticated")}
	opsMember = &request.User{Name: "olga", Groups: l("ops", "system:authenticated")}
	ciSA      = &request.User{Name: rbac.ServiceAccountUsername("dev", "ci"),
		Groups: append(rbac.ServiceAccountGroups("dev"), "system:authenticated")}
	prodSA = &request.User{Name: rbac.ServiceAccountUsername("prod", "web"),
		Groups: append(rbac.ServiceAccountGroups("prod"), "system:authenticated")}
	anonymous = &request.User{Name: request.AnonymousUser, Groups: l(request.AllUnauthenticated)}
	master    = &request.User{Name: "root", Groups: l(request.SystemPrivilegedGroup, "system:authenticated")}
)

// res builds the attributes of a resource request: verb, group,
// resource[/subresource], namespace, name.
func res(u *request.User, verb, group, resource, ns, name string) authz.Attributes {
	info := &request.RequestInfo{IsResourceRequest: true, Verb: verb, APIGroup: group, APIVersion: "v1", Namespace: ns, Name: name}
	info.Resource, info.Subresource = resource, ""
	for i := range resource {
		if resource[i] == '/' {
			info.Resource, info.Subresource = resource[:i], resource[i+1:]
			break
		}
	}
	return authz.Attributes{User: u, RequestInfo: info}
}

func path(u *request.User, verb, p string) authz.Attributes {
	return authz.Attributes{User: u, RequestInfo: &request.RequestInfo{Verb: verb, Path: p}}
}

func TestAuthorizationMatrix(t *testing.T) {
	a := rbac.New(policy())
	chain := authz.Union{authz.PrivilegedGroups(request.SystemPrivilegedGroup), a}
	tests := []struct {
		name  string
		attrs authz.Attributes
		want  bool
	}{
		{"role grants its verb", res(alice, "get", "", "pods", "dev", "p"), true},
		{"role grants list", res(alice, "list", "", "pods", "dev", ""), true},
		{"role does not grant another verb", res(alice, "delete", "", "pods", "dev", "p"), false},
		{"role binding is namespaced", res(alice, "get", "", "pods", "prod", "p"), false},
		{"role is not cluster-wide", res(alice, "list", "", "pods", "", ""), false},
		{"role does not grant a subresource", res(alice, "get", "", "pods/log", "dev", "p"), false},
		{"role does not grant another group", res(alice, "get", "apps", "pods", "dev", "p"), false},
		{"rolebinding to clusterrole in its namespace", res(bob, "get", "", "secrets", "dev", "s"), true},
		{"rolebinding to clusterrole only there", res(bob, "get", "", "secrets", "kube-system", "s"), false},
		{"rolebinding to clusterrole not cluster-wide", res(bob, "list", "", "secrets", "", ""), false},
		{"clusterrolebinding in any namespace", res(carol, "list", "", "secrets", "kube-system", ""), true},
		{"clusterrolebinding across namespaces", res(carol, "list", "", "secrets", "", ""), true},
		{"clusterrolebinding keeps verbs", res(carol, "delete", "", "secrets", "dev", "s"), false},
		{"group subject, verb *", res(opsMember, "delete", "", "nodes", "", "n1"), true},
		{"group subject, */scale", res(opsMember, "get", "apps", "deployments/scale", "dev", "d"), true},
		{"*/scale is not the resource", res(opsMember, "get", "apps", "deployments", "dev", "d"), false},
		{"*/scale is not another subresource", res(opsMember, "get", "apps", "deployments/status", "dev", "d"), false},
		{"non-resource exact path", path(opsMember, "get", "/healthz"), true},
		{"non-resource prefix *", path(opsMember, "get", "/logs/kubelet.log"), true},
		{"non-resource other verb", path(opsMember, "post", "/healthz"), false},
		{"non-resource other path", path(opsMember, "get", "/metrics"), false},
		{"not in the group", res(alice, "get", "", "nodes", "", "n1"), false},
		{"resourceNames match", res(erin, "get", "", "configmaps", "dev", "settings"), true},
		{"resourceNames other name", res(erin, "get", "", "configmaps", "dev", "other"), false},
		{"resourceNames no name (list)", res(erin, "list", "", "configmaps", "dev", ""), false},
		{"serviceaccount, namespace defaulted to the binding's", res(ciSA, "update", "apps", "deployments", "dev", "d"), true},
		{"serviceaccount subresource listed", res(ciSA, "patch", "apps", "deployments/scale", "dev", "d"), true},
		{"serviceaccount elsewhere", res(ciSA, "update", "apps", "deployments", "prod", "d"), false},
		{"serviceaccounts group of a namespace", res(prodSA, "get", "", "pods/log", "prod", "p"), true},
		{"serviceaccounts group, other namespace", res(prodSA, "get", "", "pods", "dev", "p"), false},
		{"another namespace's serviceaccount", res(ciSA, "get", "", "pods", "prod", "p"), false},
		{"system:authenticated group", path(alice, "get", "/apis/apps"), true},
		{"anonymous is not authenticated", path(anonymous, "get", "/apis"), false},
		{"anonymous gets nothing", res(anonymous, "get", "", "pods", "dev", "p"), false},
		{"binding to a missing role", res(dan, "get", "", "pods", "dev", "p"), false},
		{"system:masters may do anything", res(master, "delete", "", "secrets", "kube-system", "s"), true},
		{"system:masters, non-resource", path(master, "delete", "/anything"), true},
		{"nobody", res(&request.User{Name: "zed"}, "get", "", "pods", "dev", "p"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, reason, err := chain.Authorize(t.Context(), tc.attrs)
			require.NoError(t, err)
			assert.Equal(t, tc.want, d == authz.DecisionAllow, "decision for %s %+v (reason %q)", tc.attrs.User.Name, *tc.attrs.RequestInfo, reason)
			assert.NotEqual(t, authz.DecisionDeny, d, "RBAC never denies outright")
		})
	}
}

func TestAuthorizeReasons(t *testing.T) {
	a := rbac.New(policy())
	d, reason, err := a.Authorize(t.Context(), res(alice, "get", "", "pods", "dev", "p"))
	require.NoError(t, err)
	assert.Equal(t, authz.DecisionAllow, d)
	assert.Equal(t, `RBAC: allowed by RoleBinding "alice-pods/dev" of Role "pod-reader" to User "alice"`, reason)

	_, reason, _ = a.Authorize(t.Context(), res(carol, "get", "", "secrets", "", "s"))
	assert.Equal(t, `RBAC: allowed by ClusterRoleBinding "carol-secrets" of ClusterRole "secret-reader" to User "carol"`, reason)

	d, reason, err = a.Authorize(t.Context(), res(dan, "get", "", "pods", "dev", "p"))
	require.NoError(t, err, "a broken binding is not an evaluation error")
	assert.Equal(t, authz.DecisionNoOpinion, d)
	assert.Equal(t, `RBAC: role.rbac.authorization.k8s.io "no-such-role" not found`, reason)

	_, reason, _ = a.Authorize(t.Context(), res(alice, "delete", "", "pods", "dev", "p"))
	assert.Empty(t, reason, "a plain denial has no reason")
}

func TestRulesFor(t *testing.T) {
	r := rbac.New(policy()).Resolver()
	rules, err := r.RulesFor(t.Context(), bob, "dev")
	require.NoError(t, err)
	assert.Contains(t, rules, rule(l("get", "list"), l(""), l("secrets")))
	assert.Contains(t, rules, rbacv1.PolicyRule{Verbs: l("get"), NonResourceURLs: l("/api", "/api/*", "/apis", "/apis/*")})

	rules, err = r.RulesFor(t.Context(), bob, "prod")
	require.NoError(t, err)
	assert.NotContains(t, rules, rule(l("get", "list"), l(""), l("secrets")), "bob's binding is in dev")

	_, err = r.RulesFor(t.Context(), dan, "dev")
	assert.EqualError(t, err, `role.rbac.authorization.k8s.io "no-such-role" not found`)
}

func TestCovers(t *testing.T) {
	tests := []struct {
		name           string
		owner, servant []rbacv1.PolicyRule
		want           bool
	}{
		{"same rule", []rbacv1.PolicyRule{rule(l("get"), l(""), l("pods"))}, []rbacv1.PolicyRule{rule(l("get"), l(""), l("pods"))}, true},
		{"star covers", []rbacv1.PolicyRule{rule(l("*"), l("*"), l("*"))}, []rbacv1.PolicyRule{rule(l("get", "delete"), l("apps"), l("deployments/scale"))}, true},
		{"missing verb", []rbacv1.PolicyRule{rule(l("get"), l(""), l("pods"))}, []rbacv1.PolicyRule{rule(l("get", "delete"), l(""), l("pods"))}, false},
		{"split across rules", []rbacv1.PolicyRule{rule(l("get"), l(""), l("pods")), rule(l("delete"), l(""), l("pods"))}, []rbacv1.PolicyRule{rule(l("get", "delete"), l(""), l("pods"))}, true},
		{"*/scale covers a scale", []rbacv1.PolicyRule{rule(l("get"), l("apps"), l("*/scale"))}, []rbacv1.PolicyRule{rule(l("get"), l("apps"), l("deployments/scale"))}, true},
		{"named owner does not cover all names", []rbacv1.PolicyRule{{Verbs: l("get"), APIGroups: l(""), Resources: l("pods"), ResourceNames: l("a")}}, []rbacv1.PolicyRule{rule(l("get"), l(""), l("pods"))}, false},
		{"unnamed owner covers a name", []rbacv1.PolicyRule{rule(l("get"), l(""), l("pods"))}, []rbacv1.PolicyRule{{Verbs: l("get"), APIGroups: l(""), Resources: l("pods"), ResourceNames: l("a")}}, true},
		{"url prefix", []rbacv1.PolicyRule{{Verbs: l("get"), NonResourceURLs: l("/logs/*")}}, []rbacv1.PolicyRule{{Verbs: l("get"), NonResourceURLs: l("/logs/x")}}, true},
		{"url outside prefix", []rbacv1.PolicyRule{{Verbs: l("get"), NonResourceURLs: l("/logs/*")}}, []rbacv1.PolicyRule{{Verbs: l("get"), NonResourceURLs: l("/metrics")}}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, missing := rbac.Covers(tc.owner, tc.servant)
			assert.Equal(t, tc.want, got, "missing %v", missing)
		})
	}
}

func TestConfirmNoEscalationMessage(t *testing.T) {
	r := rbac.New(policy()).Resolver()
	err := r.ConfirmNoEscalation(t.Context(), alice, "dev", []rbacv1.PolicyRule{
		rule(l("get", "list"), l(""), l("pods")),
		rule(l("get", "delete"), l(""), l("secrets")),
	})
	require.Error(t, err)
	assert.Equal(t, `user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:
{APIGroups:[""], Resources:["secrets"], Verbs:["get" "delete"]}`, err.Error())
	assert.NoError(t, r.ConfirmNoEscalation(t.Context(), alice, "dev", []rbacv1.PolicyRule{rule(l("get"), l(""), l("pods"))}))
}

// BenchmarkAuthorize measures one RBAC decision over a policy of the
// default size plus many unrelated bindings: the index keeps a decision
// to the user's own bindings.
func BenchmarkAuthorize(b *testing.B) {
	f := policy()
	for i := range 1000 {
		f.addRoleBinding("dev", fmt.Sprintf("other-%d", i), "Role", "pod-reader", user(fmt.Sprintf("user-%d", i)))
		f.addClusterRoleBinding(fmt.Sprintf("other-%d", i), "secret-reader", user(fmt.Sprintf("user-%d", i)))
	}
	a := rbac.New(f)
	for _, bc := range []struct {
		name  string
		attrs authz.Attributes
	}{
		{"allowed-by-rolebinding", res(alice, "get", "", "pods", "dev", "p")},
		{"allowed-by-group", res(opsMember, "delete", "", "nodes", "", "n1")},
		{"denied", res(alice, "delete", "", "secrets", "dev", "s")},
	} {
		b.Run(bc.name, func(b *testing.B) {
			ctx := b.Context()
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := a.Authorize(ctx, bc.attrs); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
