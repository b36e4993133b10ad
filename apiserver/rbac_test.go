package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	authorizationv1 "github.com/minicp/minicp/api/authorization/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/request"
)

const (
	aliceToken = "alice-token"
	bobToken   = "bob-token"
	rolesPath  = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/roles"
	bindsPath  = "/apis/rbac.authorization.k8s.io/v1/namespaces/default/rolebindings"
)

// newRBACServer is a test server in RBAC mode with an admin in
// system:masters and two users with no bindings, alice and bob; mutate
// changes its options after that.
func newRBACServer(t testing.TB, mutate ...func(*apiserver.Options)) *testServer {
	t.Helper()
	return newTestServer(t, append([]func(*apiserver.Options){func(o *apiserver.Options) {
		o.AuthorizationMode = authz.ModeRBAC
		o.Authenticator = authn.NewTokenFile([]authn.TokenUser{
			{Token: apiservertest.AdminToken, User: request.User{Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}},
			{Token: aliceToken, User: request.User{Name: "alice", UID: "a-1"}},
			{Token: bobToken, User: request.User{Name: "bob"}},
		})
	}}, mutate...)...)
}

// create POSTs obj as the admin (or with opts) and waits until the
// watch caches, which the authorizer reads, have it: a list at the
// created resourceVersion answers only once the cache is that fresh.
func (s *testServer) createRBAC(path string, obj any, opts ...requestOption) {
	s.t.Helper()
	body, err := json.Marshal(obj)
	require.NoError(s.t, err)
	r := s.mustDo(http.StatusCreated, "POST", path, string(body), opts...)
	var meta struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	require.NoError(s.t, json.Unmarshal(r.body, &meta))
	s.mustDo(http.StatusOK, "GET", path+"?resourceVersion="+meta.Metadata.ResourceVersion, "")
}

func role(name string, rules ...rbacv1.PolicyRule) rbacv1.Role {
	return rbacv1.Role{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "Role"},
		ObjectMeta: metav1.ObjectMeta{Name: name}, Rules: rules}
}

func roleBinding(name, kind, roleName, userName string) rbacv1.RoleBinding {
	return rbacv1.RoleBinding{TypeMeta: metav1.TypeMeta{APIVersion: "rbac.authorization.k8s.io/v1", Kind: "RoleBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		RoleRef:    rbacv1.RoleRef{Kind: kind, Name: roleName},
		Subjects:   []rbacv1.Subject{{Kind: "User", Name: userName}}}
}

func policyRule(verbs, groups, resources []string) rbacv1.PolicyRule {
	return rbacv1.PolicyRule{Verbs: verbs, APIGroups: groups, Resources: resources}
}

func strs(s ...string) []string { return s }

func TestRBACForbiddenMessages(t *testing.T) {
	s := newRBACServer(t)
	tests := []struct {
		name, method, path string
		want               string
	}{
		{"namespaced list", "GET", "/api/v1/namespaces/kube-system/secrets",
			`secrets is forbidden: User "alice" cannot list resource "secrets" in API group "" in the namespace "kube-system"`},
		{"cluster-scoped list", "GET", "/api/v1/nodes",
			`nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope`},
		{"named object", "DELETE", "/apis/apps/v1/namespaces/default/deployments/web",
			`deployments.apps "web" is forbidden: User "alice" cannot delete resource "deployments" in API group "apps" in the namespace "default"`},
		{"subresource", "GET", "/api/v1/namespaces/default/pods/p/log",
			`pods "p" is forbidden: User "alice" cannot get resource "pods/log" in API group "" in the namespace "default"`},
		{"non-resource path", "GET", "/metrics", `forbidden: User "alice" cannot get path "/metrics"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do(tc.method, tc.path, "", withToken(aliceToken))
			require.Equal(t, http.StatusForbidden, r.code, "%s", r.body)
			st := r.status(t)
			assert.Equal(t, tc.want, st.Message)
			assert.Equal(t, metav1.StatusReasonForbidden, st.Reason)
		})
	}
	// The default policy lets every authenticated user discover the API
	// and ask about itself.
	s.mustDo(http.StatusOK, "GET", "/apis", "", withToken(aliceToken))
	s.mustDo(http.StatusOK, "GET", "/version", "", withToken(aliceToken))
	// system:masters needs no binding.
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/kube-system/secrets", "")
}

func TestRBACBootstrapPolicy(t *testing.T) {
	s := newRBACServer(t)
	for _, name := range []string{"cluster-admin", "admin", "edit", "view", "system:basic-user", "system:discovery",
		"system:public-info-viewer", "system:monitoring", "system:kube-scheduler", "system:kube-controller-manager", "system:node",
		"system:node-proxier", "system:controller:deployment-controller", "system:controller:clusterrole-aggregation-controller"} {
		var cr rbacv1.ClusterRole
		require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/"+name, "").body, &cr), name)
		assert.Equal(t, "true", cr.Annotations[rbacv1.AutoUpdateAnnotationKey], "%s is reconciled at start", name)
		assert.Equal(t, "rbac-defaults", cr.Labels["kubernetes.io/bootstrapping"], name)
	}
	var edit rbacv1.ClusterRole
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/edit", "").body, &edit))
	require.NotNil(t, edit.AggregationRule)
	assert.Equal(t, "true", edit.AggregationRule.ClusterRoleSelectors[0].MatchLabels["rbac.authorization.k8s.io/aggregate-to-edit"])
	assert.Equal(t, "true", edit.Labels["rbac.authorization.k8s.io/aggregate-to-admin"])

	var crb rbacv1.ClusterRoleBinding
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/apis/rbac.authorization.k8s.io/v1/clusterrolebindings/cluster-admin", "").body, &crb))
	assert.Equal(t, []rbacv1.Subject{{Kind: "Group", APIGroup: rbacv1.GroupName, Name: "system:masters"}}, crb.Subjects)

	// A second reconciliation writes nothing and keeps additions.
	r := s.do("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:discovery", "")
	var before rbacv1.ClusterRole
	require.NoError(t, json.Unmarshal(r.body, &before))
	require.NoError(t, s.api.EnsureBootstrapPolicy(t.Context()))
	var after rbacv1.ClusterRole
	require.NoError(t, json.Unmarshal(s.do("GET", "/apis/rbac.authorization.k8s.io/v1/clusterroles/system:discovery", "").body, &after))
	assert.Equal(t, before.ResourceVersion, after.ResourceVersion, "nothing to reconcile")
}

func TestRBACGrantEscalateAndBind(t *testing.T) {
	s := newRBACServer(t)
	asAlice := withToken(aliceToken)
	s.mustDo(http.StatusForbidden, "GET", "/api/v1/namespaces/default/pods", "", asAlice)

	// alice may read pods and manage roles and bindings in default.
	s.createRBAC(rolesPath, role("pod-reader", policyRule(strs("get", "list", "watch"), strs(""), strs("pods"))))
	s.createRBAC(rolesPath, role("rbac-manager", policyRule(strs("create", "get", "list", "update"), strs("rbac.authorization.k8s.io"), strs("roles", "rolebindings"))))
	s.createRBAC(bindsPath, roleBinding("alice-pods", "Role", "pod-reader", "alice"))
	s.createRBAC(bindsPath, roleBinding("alice-rbac", "Role", "rbac-manager", "alice"))
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods", "", asAlice)
	s.mustDo(http.StatusForbidden, "GET", "/api/v1/namespaces/kube-system/pods", "", asAlice)

	// She may create a role with what she holds...
	body, _ := json.Marshal(role("pods-too", policyRule(strs("get"), strs(""), strs("pods"))))
	s.mustDo(http.StatusCreated, "POST", rolesPath, string(body), asAlice)
	// ...but not one with more.
	body, _ = json.Marshal(role("secrets", policyRule(strs("get", "list"), strs(""), strs("secrets"))))
	r := s.mustDo(http.StatusForbidden, "POST", rolesPath, string(body), asAlice)
	assert.Equal(t, `roles.rbac.authorization.k8s.io "secrets" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:
{APIGroups:[""], Resources:["secrets"], Verbs:["get" "list"]}`, r.status(t).Message)

	// Nor bind a role she does not hold.
	body, _ = json.Marshal(roleBinding("bob-admin", "ClusterRole", "cluster-admin", "bob"))
	r = s.mustDo(http.StatusForbidden, "POST", bindsPath, string(body), asAlice)
	assert.Contains(t, r.status(t).Message, `rolebindings.rbac.authorization.k8s.io "bob-admin" is forbidden: user "alice" (groups=["system:authenticated"]) is attempting to grant RBAC permissions not currently held:`)
	// Binding a role that does not exist is its NotFound.
	body, _ = json.Marshal(roleBinding("bob-ghost", "Role", "ghost", "bob"))
	r = s.mustDo(http.StatusNotFound, "POST", bindsPath, string(body), asAlice)
	assert.Equal(t, `roles.rbac.authorization.k8s.io "ghost" not found`, r.status(t).Message)
	// But a role she holds, she may bind.
	body, _ = json.Marshal(roleBinding("bob-pods", "Role", "pod-reader", "bob"))
	s.mustDo(http.StatusCreated, "POST", bindsPath, string(body), asAlice)

	// The escalate verb lifts the first check, bind the second.
	s.createRBAC(rolesPath, role("escalator",
		rbacv1.PolicyRule{Verbs: strs("escalate"), APIGroups: strs("rbac.authorization.k8s.io"), Resources: strs("roles")},
		rbacv1.PolicyRule{Verbs: strs("bind"), APIGroups: strs("rbac.authorization.k8s.io"), Resources: strs("clusterroles"), ResourceNames: strs("cluster-admin")}))
	s.createRBAC(bindsPath, roleBinding("alice-escalator", "Role", "escalator", "alice"))
	body, _ = json.Marshal(role("secrets", policyRule(strs("get", "list"), strs(""), strs("secrets"))))
	s.mustDo(http.StatusCreated, "POST", rolesPath, string(body), asAlice)
	body, _ = json.Marshal(roleBinding("bob-admin", "ClusterRole", "cluster-admin", "bob"))
	s.mustDo(http.StatusCreated, "POST", bindsPath, string(body), asAlice)
	body, _ = json.Marshal(roleBinding("bob-scheduler", "ClusterRole", "system:kube-scheduler", "bob"))
	s.mustDo(http.StatusForbidden, "POST", bindsPath, string(body), asAlice)
}

func TestRBACRoleRefImmutable(t *testing.T) {
	s := newRBACServer(t)
	s.createRBAC(bindsPath, roleBinding("b", "ClusterRole", "view", "bob"))
	b := roleBinding("b", "ClusterRole", "edit", "bob")
	body, _ := json.Marshal(b)
	r := s.mustDo(http.StatusUnprocessableEntity, "PUT", bindsPath+"/b", string(body))
	assert.Contains(t, r.status(t).Message, "roleRef: Invalid value")
	assert.Contains(t, r.status(t).Message, "cannot change roleRef")

	r = s.mustDo(http.StatusUnprocessableEntity, "POST", bindsPath,
		`{"metadata":{"name":"bad"},"roleRef":{"kind":"Secret","name":"x"},"subjects":[{"kind":"Robot","name":"r"}]}`)
	msg := r.status(t).Message
	assert.Contains(t, msg, `roleRef.kind: Unsupported value: "Secret": supported values: "Role", "ClusterRole"`)
	assert.Contains(t, msg, `subjects[0].kind: Unsupported value: "Robot"`)
}

func TestAccessReviews(t *testing.T) {
	s := newRBACServer(t)
	s.createRBAC(rolesPath, role("pod-reader", policyRule(strs("get", "list"), strs(""), strs("pods"))))
	s.createRBAC(bindsPath, roleBinding("alice-pods", "Role", "pod-reader", "alice"))

	ssar := func(token, verb, resource, ns string) authorizationv1.SubjectAccessReviewStatus {
		t.Helper()
		body, _ := json.Marshal(authorizationv1.SelfSubjectAccessReview{Spec: authorizationv1.SelfSubjectAccessReviewSpec{
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: verb, Resource: resource, Namespace: ns}}})
		var out authorizationv1.SelfSubjectAccessReview
		r := s.mustDo(http.StatusCreated, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews", string(body), withToken(token))
		require.NoError(t, json.Unmarshal(r.body, &out))
		assert.Equal(t, "SelfSubjectAccessReview", out.Kind)
		return out.Status
	}
	st := ssar(aliceToken, "list", "pods", "default")
	assert.True(t, st.Allowed)
	assert.Equal(t, `RBAC: allowed by RoleBinding "alice-pods/default" of Role "pod-reader" to User "alice"`, st.Reason)
	assert.False(t, ssar(aliceToken, "list", "pods", "kube-system").Allowed)
	assert.False(t, ssar(bobToken, "list", "pods", "default").Allowed)
	assert.True(t, ssar(apiservertest.AdminToken, "delete", "nodes", "").Allowed)

	// SubjectAccessReview asks about someone else; bob may not ask.
	sar := `{"spec":{"user":"alice","resourceAttributes":{"verb":"get","resource":"pods","namespace":"default"}}}`
	r := s.mustDo(http.StatusCreated, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", sar)
	assert.Contains(t, string(r.body), `"allowed":true`)
	s.mustDo(http.StatusForbidden, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", sar, withToken(bobToken))
	r = s.mustDo(http.StatusUnprocessableEntity, "POST", "/apis/authorization.k8s.io/v1/subjectaccessreviews", `{"spec":{"resourceAttributes":{"verb":"get"}}}`)
	assert.Contains(t, r.status(t).Message, "spec.user: Invalid value: \"\": at least one of user or group must be specified")

	// LocalSubjectAccessReview stays in its namespace.
	r = s.mustDo(http.StatusBadRequest, "POST", "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
		`{"spec":{"user":"alice","resourceAttributes":{"verb":"get","resource":"pods","namespace":"other"}}}`)
	assert.Equal(t, "spec.resourceAttributes.namespace must match namespace: default", r.status(t).Message)
	r = s.mustDo(http.StatusCreated, "POST", "/apis/authorization.k8s.io/v1/namespaces/default/localsubjectaccessreviews",
		`{"spec":{"user":"alice","resourceAttributes":{"verb":"get","resource":"pods","namespace":"default"}}}`)
	assert.Contains(t, string(r.body), `"allowed":true`)

	// SelfSubjectRulesReview lists alice's rules in default.
	r = s.mustDo(http.StatusCreated, "POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews",
		`{"spec":{"namespace":"default"}}`, withToken(aliceToken))
	var rules authorizationv1.SelfSubjectRulesReview
	require.NoError(t, json.Unmarshal(r.body, &rules))
	assert.Contains(t, rules.Status.ResourceRules, authorizationv1.ResourceRule{Verbs: strs("get", "list"), APIGroups: strs(""), Resources: strs("pods")})
	assert.Contains(t, rules.Status.ResourceRules, authorizationv1.ResourceRule{Verbs: strs("create"), APIGroups: strs("authorization.k8s.io"), Resources: strs("selfsubjectaccessreviews", "selfsubjectrulesreviews")})
	assert.NotEmpty(t, rules.Status.NonResourceRules)
	s.mustDo(http.StatusBadRequest, "POST", "/apis/authorization.k8s.io/v1/selfsubjectrulesreviews", `{"spec":{}}`, withToken(aliceToken))

	// SelfSubjectReview says who alice is, and impersonation who she acts as.
	var who authenticationv1.SelfSubjectReview
	r = s.mustDo(http.StatusCreated, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", `{}`, withToken(aliceToken))
	require.NoError(t, json.Unmarshal(r.body, &who))
	assert.Equal(t, authenticationv1.UserInfo{Username: "alice", UID: "a-1", Groups: strs("system:authenticated")}, who.Status.UserInfo)
	r = s.mustDo(http.StatusCreated, "POST", "/apis/authentication.k8s.io/v1/selfsubjectreviews", `{}`,
		withHeader("Impersonate-User", "system:serviceaccount:default:ci"))
	who = authenticationv1.SelfSubjectReview{}
	require.NoError(t, json.Unmarshal(r.body, &who))
	assert.Equal(t, authenticationv1.UserInfo{Username: "system:serviceaccount:default:ci",
		Groups: strs("system:serviceaccounts", "system:serviceaccounts:default", "system:authenticated")}, who.Status.UserInfo)
	r = s.mustDo(http.StatusForbidden, "GET", "/api/v1/pods", "", withToken(aliceToken), withHeader("Impersonate-User", "bob"))
	assert.Equal(t, `users "bob" is forbidden: User "alice" cannot impersonate resource "users" in API group "" at the cluster scope`, r.status(t).Message)
}
