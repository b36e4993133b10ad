package cluster_test

import (
	"crypto/tls"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/audit"
	"github.com/minicp/minicp/cluster"
)

// caller sends requests to a cluster as one identity: a client
// certificate, a bearer token, or nothing (anonymous).
type caller struct {
	name   string
	client *http.Client
	token  string
}

// certCaller is user in groups, by a client certificate of the cluster's CA.
func certCaller(t *testing.T, c *cluster.Cluster, user string, groups ...string) caller {
	t.Helper()
	certPEM, keyPEM, err := c.IssueClientCertificate(user, groups)
	require.NoError(t, err)
	cert, err := tls.X509KeyPair(certPEM, keyPEM)
	require.NoError(t, err)
	cfg := c.TLSClientConfig()
	cfg.Certificates = []tls.Certificate{cert}
	tr := &http.Transport{TLSClientConfig: cfg}
	t.Cleanup(tr.CloseIdleConnections)
	return caller{name: user, client: &http.Client{Transport: tr}}
}

// tokenCaller sends token.
func tokenCaller(t *testing.T, c *cluster.Cluster, name, token string) caller {
	tr := &http.Transport{TLSClientConfig: c.TLSClientConfig()}
	t.Cleanup(tr.CloseIdleConnections)
	return caller{name: name, client: &http.Client{Transport: tr}, token: token}
}

// do sends one request and returns its code and, for a failure, the
// Status message.
func (cl caller) do(t *testing.T, c *cluster.Cluster, method, path, body string) (int, string) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, c.URL()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	if method == http.MethodPatch {
		req.Header.Set("Content-Type", "application/merge-patch+json")
	}
	if cl.token != "" {
		req.Header.Set("Authorization", "Bearer "+cl.token)
	}
	resp, err := cl.client.Do(req)
	require.NoError(t, err, "%s %s as %s", method, path, cl.name)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	if resp.StatusCode < 300 {
		return resp.StatusCode, ""
	}
	var st metav1.Status
	require.NoError(t, json.Unmarshal(data, &st), "%s %s as %s: a Status: %s", method, path, cl.name, data)
	return resp.StatusCode, st.Message
}

// mustDo is do as the admin, requiring want.
func mustDo(t *testing.T, c *cluster.Cluster, want int, method, path, body string) []byte {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), method, c.URL()+path, strings.NewReader(body))
	require.NoError(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := c.HTTPClient().Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, want, resp.StatusCode, "%s %s: %s", method, path, data)
	return data
}

// podBoundTo is a pod on node that mounts secret.
func podBoundTo(name, node, secret string) string {
	return fmt.Sprintf(`{"metadata":{"name":%q},"spec":{"nodeName":%q,"containers":[{"name":"c","image":"busybox","command":["sleep","3600"]}],`+
		`"volumes":[{"name":"s","secret":{"secretName":%q}}]}}`, name, node, secret)
}

// TestAuthorizationMatrix runs a table of identities, verbs, resources
// and namespaces against a cluster under the default Node,RBAC
// authorization, with the codes and 403 wording kube-apiserver answers.
func TestAuthorizationMatrix(t *testing.T) {
	t.Parallel()
	c := startCluster(t, nodes(2))
	node1, node2 := cluster.NodeName(0), cluster.NodeName(1)

	for _, ns := range []string{"team", "other"} {
		mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces", fmt.Sprintf(`{"metadata":{"name":%q}}`, ns))
	}
	mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/team/configmaps", `{"metadata":{"name":"c1"}}`)
	for _, s := range []string{"s1", "s2", "loose"} {
		mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/team/secrets", fmt.Sprintf(`{"metadata":{"name":%q}}`, s))
	}
	mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/team/pods", podBoundTo("p1", node1, "s1"))
	mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/team/pods", podBoundTo("p2", node2, "s2"))
	rbac := "/apis/rbac.authorization.k8s.io/v1"
	mustDo(t, c, http.StatusCreated, "POST", rbac+"/namespaces/team/roles",
		`{"metadata":{"name":"cm-reader"},"rules":[{"apiGroups":[""],"resources":["configmaps"],"verbs":["get","list"]}]}`)
	mustDo(t, c, http.StatusCreated, "POST", rbac+"/namespaces/team/rolebindings",
		`{"metadata":{"name":"alice"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"cm-reader"},`+
			`"subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"alice"}]}`)
	mustDo(t, c, http.StatusCreated, "POST", rbac+"/clusterrolebindings",
		`{"metadata":{"name":"devs-view"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"view"},`+
			`"subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"Group","name":"devs"}]}`)
	mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/team/serviceaccounts", `{"metadata":{"name":"robot"}}`)
	mustDo(t, c, http.StatusCreated, "POST", rbac+"/namespaces/team/rolebindings",
		`{"metadata":{"name":"robot-edit"},"roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"edit"},`+
			`"subjects":[{"kind":"ServiceAccount","name":"robot","namespace":"team"}]}`)
	var tr authenticationv1.TokenRequest
	require.NoError(t, json.Unmarshal(mustDo(t, c, http.StatusCreated, "POST", "/api/v1/namespaces/team/serviceaccounts/robot/token", `{}`), &tr))
	// The objects reach the authorizers' watch caches through their
	// watches: a list no older than the last write of each resource
	// answers once its cache has it.
	for path, name := range map[string]string{
		rbac + "/namespaces/team/roles": "cm-reader", rbac + "/namespaces/team/rolebindings": "robot-edit",
		rbac + "/clusterrolebindings": "devs-view", "/api/v1/namespaces/team/pods": "p2",
		"/api/v1/namespaces/team/serviceaccounts": "robot",
	} {
		var obj metav1.PartialObjectMetadata
		require.NoError(t, json.Unmarshal(mustDo(t, c, http.StatusOK, "GET", path+"/"+name, ""), &obj))
		waitCached(t, c, path, obj.ResourceVersion)
	}
	robot := tokenCaller(t, c, "robot", tr.Status.Token)

	admin := tokenCaller(t, c, "admin", c.Token())
	alice := certCaller(t, c, "alice")
	bob := certCaller(t, c, "bob", "devs")
	carol := certCaller(t, c, "carol")
	node := certCaller(t, c, "system:node:"+node1, "system:nodes")
	tr2 := &http.Transport{TLSClientConfig: c.TLSClientConfig()}
	t.Cleanup(tr2.CloseIdleConnections)
	anonymous := caller{name: "anonymous", client: &http.Client{Transport: tr2}}

	const cmBody = `{"metadata":{"name":"new"}}`
	tests := []struct {
		who          caller
		method, path string
		body         string
		want         int
		wantMsg      string
	}{
		{admin, "GET", "/api/v1/namespaces/team/secrets", "", 200, ""},
		{admin, "DELETE", "/api/v1/namespaces/other", "", 200, ""},

		{alice, "GET", "/api/v1/namespaces/team/configmaps", "", 200, ""},
		{alice, "GET", "/api/v1/namespaces/team/configmaps/c1", "", 200, ""},
		{alice, "GET", "/api/v1/namespaces/other/configmaps", "", 403,
			`configmaps is forbidden: User "alice" cannot list resource "configmaps" in API group "" in the namespace "other"`},
		{alice, "DELETE", "/api/v1/namespaces/team/configmaps/c1", "", 403,
			`configmaps "c1" is forbidden: User "alice" cannot delete resource "configmaps" in API group "" in the namespace "team"`},
		{alice, "GET", "/api/v1/namespaces/team/secrets/s1", "", 403,
			`secrets "s1" is forbidden: User "alice" cannot get resource "secrets" in API group "" in the namespace "team"`},
		{alice, "GET", "/api/v1/nodes", "", 403, `nodes is forbidden: User "alice" cannot list resource "nodes" in API group "" at the cluster scope`},

		{bob, "GET", "/apis/apps/v1/namespaces/team/deployments", "", 200, ""},
		{bob, "GET", "/api/v1/namespaces/team/configmaps/c1", "", 200, ""},
		{bob, "GET", "/api/v1/namespaces/team/secrets", "", 403,
			`secrets is forbidden: User "bob" cannot list resource "secrets" in API group "" in the namespace "team"`},
		{bob, "POST", "/api/v1/namespaces/team/configmaps", cmBody, 403,
			`configmaps is forbidden: User "bob" cannot create resource "configmaps" in API group "" in the namespace "team"`},

		{carol, "GET", "/api", "", 200, ""},
		{carol, "POST", "/apis/authorization.k8s.io/v1/selfsubjectaccessreviews",
			`{"spec":{"resourceAttributes":{"verb":"get","resource":"pods"}}}`, 201, ""},
		{carol, "GET", "/api/v1/namespaces/team/pods", "", 403,
			`pods is forbidden: User "carol" cannot list resource "pods" in API group "" in the namespace "team"`},
		{carol, "GET", "/metrics", "", 403, `forbidden: User "carol" cannot get path "/metrics"`},

		{robot, "GET", "/api/v1/namespaces/team/pods", "", 200, ""},
		{robot, "POST", "/api/v1/namespaces/team/configmaps", cmBody, 201, ""},
		{robot, "GET", "/api/v1/namespaces/default/pods", "", 403,
			`pods is forbidden: User "system:serviceaccount:team:robot" cannot list resource "pods" in API group "" in the namespace "default"`},
		{robot, "POST", rbac + "/namespaces/team/roles", `{"metadata":{"name":"r"},"rules":[]}`, 403,
			`roles.rbac.authorization.k8s.io is forbidden: User "system:serviceaccount:team:robot" cannot create resource "roles" in API group "rbac.authorization.k8s.io" in the namespace "team"`},

		{node, "GET", "/api/v1/namespaces/team/secrets/s1", "", 200, ""},
		{node, "GET", "/api/v1/namespaces/team/secrets/s2", "", 403,
			`secrets "s2" is forbidden: User "system:node:` + node1 + `" cannot get resource "secrets" in API group "" in the namespace "team": no relationship found between node '` + node1 + `' and this object`},
		{node, "GET", "/api/v1/namespaces/team/secrets/loose", "", 403, "no relationship found between node '" + node1 + "' and this object"},
		{node, "GET", "/api/v1/namespaces/team/secrets", "", 403, `cannot list resource "secrets"`},
		{node, "GET", "/api/v1/namespaces/team/pods/p1", "", 200, ""},
		{node, "GET", "/api/v1/namespaces/team/pods/p2", "", 403, "no relationship found between node '" + node1 + "' and this object"},
		{node, "GET", "/api/v1/pods?fieldSelector=spec.nodeName%3D" + node1, "", 200, ""},
		{node, "GET", "/api/v1/pods", "", 403, "can only list/watch pods with spec.nodeName field selector"},
		{node, "GET", "/api/v1/nodes/" + node1, "", 200, ""},
		{node, "GET", "/api/v1/nodes/" + node2, "", 403, "node '" + node1 + "' cannot read '" + node2 + "', only its own Node object"},
		{node, "DELETE", "/api/v1/namespaces/team/pods/p2", "", 403,
			`pods "p2" is forbidden: node "` + node1 + `" can only delete pods with spec.nodeName set to itself`},
		{node, "GET", "/apis/apps/v1/deployments", "", 403, `cannot list resource "deployments" in API group "apps" at the cluster scope`},
		{node, "GET", "/api/v1/services", "", 200, ""},

		{anonymous, "GET", "/healthz", "", 200, ""},
		{anonymous, "GET", "/version", "", 200, ""},
		{anonymous, "GET", "/api/v1/namespaces", "", 401, "Unauthorized"},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%s %s %s", tc.who.name, tc.method, tc.path), func(t *testing.T) {
			code, msg := tc.who.do(t, c, tc.method, tc.path, tc.body)
			assert.Equal(t, tc.want, code, "message: %s", msg)
			if tc.wantMsg != "" {
				assert.Contains(t, msg, tc.wantMsg)
			}
		})
	}
}

// TestComponentsActAsThemselves: the scheduler, the controller-manager
// (and each controller as its ServiceAccount), every kubelet, the proxy,
// its writer of load balancer status and the DNS server reach the API
// server as their own users, which the audit log records.
func TestComponentsActAsThemselves(t *testing.T) {
	var mu sync.Mutex
	users := map[string]bool{}
	sink := audit.SinkFunc(func(events ...*audit.Event) bool {
		mu.Lock()
		defer mu.Unlock()
		for _, ev := range events {
			users[ev.User.Username] = true
		}
		return true
	})
	c := startCluster(t, nodes(2), serviceNetwork, func(o *cluster.Options) { o.AuditSink = sink })
	k := newKubectl(t, c)
	k.Run("create", "deployment", "web", "--image=nginx", "--replicas=2")
	assert.Contains(t, k.Run("rollout", "status", "deploy/web", "--timeout=60s"), "successfully rolled out")
	// A LoadBalancer Service's ingress is the service controller's write.
	k.Run("expose", "deploy/web", "--type=LoadBalancer", "--port=80")
	k.Run("wait", "svc/web", "--for=jsonpath={.status.loadBalancer.ingress}", "--timeout=60s")

	mu.Lock()
	defer mu.Unlock()
	for _, want := range []string{
		"system:kube-scheduler",
		"system:kube-controller-manager",
		"system:serviceaccount:kube-system:deployment-controller",
		"system:serviceaccount:kube-system:replicaset-controller",
		"system:node:" + cluster.NodeName(0),
		"system:node:" + cluster.NodeName(1),
		"system:kube-proxy",
		"system:serviceaccount:kube-system:service-controller",
		"system:serviceaccount:kube-system:coredns",
	} {
		assert.True(t, users[want], "%s sent requests (users seen: %v)", want, users)
	}
}
