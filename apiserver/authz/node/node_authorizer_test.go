package node_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/authz/node"
	"github.com/minicp/minicp/apiserver/request"
)

// fakeGraph files pods by node.ReferenceKeys, as the pods watch cache's
// index does.
type fakeGraph map[string][]*corev1.Pod

func newGraph(pods ...*corev1.Pod) fakeGraph {
	g := fakeGraph{}
	for _, p := range pods {
		for _, k := range node.ReferenceKeys(p) {
			g[k] = append(g[k], p)
		}
	}
	return g
}

func (g fakeGraph) PodsReferencing(_ context.Context, key string) ([]*corev1.Pod, error) {
	return g[key], nil
}

func podOn(nodeName, ns, name string, mutate func(*corev1.PodSpec)) *corev1.Pod {
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: corev1.PodSpec{NodeName: nodeName, ServiceAccountName: "default"}}
	if mutate != nil {
		mutate(&p.Spec)
	}
	return p
}

func nodeUser(name string) *request.User {
	return &request.User{Name: "system:node:" + name, Groups: []string{"system:nodes", "system:authenticated"}}
}

func TestNodeAuthorizer(t *testing.T) {
	n1Pod := podOn("n1", "ns", "web", func(s *corev1.PodSpec) {
		s.Volumes = []corev1.Volume{
			{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "web-secret"}}},
			{Name: "p", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
				{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: corev1.LocalObjectReference{Name: "kube-root-ca.crt"}}},
			}}}},
			{Name: "c", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
		}
		s.Containers = []corev1.Container{{Name: "c", Env: []corev1.EnvVar{{Name: "X", ValueFrom: &corev1.EnvVarSource{
			ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "env-cm"}, Key: "k"},
		}}}}}
	})
	n2Pod := podOn("n2", "ns", "db", func(s *corev1.PodSpec) {
		s.ServiceAccountName = "db"
		s.Volumes = []corev1.Volume{{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "db-secret"}}}}
	})
	a := node.New(newGraph(n1Pod, n2Pod))

	res := func(verb, ns, resource, sub, name string) *request.RequestInfo {
		return &request.RequestInfo{IsResourceRequest: true, Verb: verb, Namespace: ns, Resource: resource, Subresource: sub, Name: name, APIVersion: "v1", APIPrefix: "api"}
	}
	withGroup := func(ri *request.RequestInfo, group string) *request.RequestInfo {
		ri.APIGroup, ri.APIPrefix = group, "apis"
		return ri
	}
	withSelector := func(ri *request.RequestInfo, sel string) *request.RequestInfo {
		ri.FieldSelector = sel
		return ri
	}
	tests := []struct {
		name       string
		user       *request.User
		info       *request.RequestInfo
		want       authz.Decision
		wantReason string
	}{
		{"not a node: no opinion", &request.User{Name: "alice", Groups: []string{"system:authenticated"}}, res("get", "ns", "secrets", "", "web-secret"), authz.DecisionNoOpinion, ""},
		{"node group without a node name", &request.User{Name: "bob", Groups: []string{"system:nodes"}}, res("get", "ns", "secrets", "", "web-secret"), authz.DecisionNoOpinion, `unknown node for user "bob"`},
		{"its pod's secret", nodeUser("n1"), res("get", "ns", "secrets", "", "web-secret"), authz.DecisionAllow, ""},
		{"another node's pod's secret", nodeUser("n1"), res("get", "ns", "secrets", "", "db-secret"), authz.DecisionNoOpinion, "no relationship found between node 'n1' and this object"},
		{"a secret no pod references", nodeUser("n1"), res("get", "ns", "secrets", "", "other"), authz.DecisionNoOpinion, "no relationship found between node 'n1' and this object"},
		{"its pod's secret, watched by name", nodeUser("n1"), withSelector(res("watch", "ns", "secrets", "", ""), "metadata.name=web-secret"), authz.DecisionAllow, ""},
		{"listing secrets", nodeUser("n1"), res("list", "ns", "secrets", "", ""), authz.DecisionNoOpinion, "No Object name found"},
		{"writing its pod's secret", nodeUser("n1"), res("update", "ns", "secrets", "", "web-secret"), authz.DecisionNoOpinion, "can only read resources of this type"},
		{"its pod's projected configmap", nodeUser("n1"), res("get", "ns", "configmaps", "", "kube-root-ca.crt"), authz.DecisionAllow, ""},
		{"its pod's env configmap", nodeUser("n1"), res("get", "ns", "configmaps", "", "env-cm"), authz.DecisionAllow, ""},
		{"its pod's claim", nodeUser("n1"), res("get", "ns", "persistentvolumeclaims", "", "data"), authz.DecisionAllow, ""},
		{"listing claims", nodeUser("n1"), res("list", "ns", "persistentvolumeclaims", "", ""), authz.DecisionNoOpinion, "can only get individual resources of this type"},
		{"a token for its pod's service account", nodeUser("n1"), res("create", "ns", "serviceaccounts", "token", "default"), authz.DecisionAllow, ""},
		{"a token for another node's pod's service account", nodeUser("n1"), res("create", "ns", "serviceaccounts", "token", "db"), authz.DecisionNoOpinion, "no relationship found between node 'n1' and this object"},
		{"reading a service account", nodeUser("n1"), res("get", "ns", "serviceaccounts", "", "default"), authz.DecisionNoOpinion, "can only create tokens for individual service accounts"},
		{"its pod", nodeUser("n1"), res("get", "ns", "pods", "", "web"), authz.DecisionAllow, ""},
		{"another node's pod", nodeUser("n1"), res("get", "ns", "pods", "", "db"), authz.DecisionNoOpinion, "no relationship found between node 'n1' and this object"},
		{"listing its pods", nodeUser("n1"), withSelector(res("list", "", "pods", "", ""), "spec.nodeName=n1"), authz.DecisionAllow, ""},
		{"watching another node's pods", nodeUser("n1"), withSelector(res("watch", "", "pods", "", ""), "spec.nodeName=n2"), authz.DecisionNoOpinion, "can only list/watch pods with spec.nodeName field selector"},
		{"listing every pod", nodeUser("n1"), res("list", "", "pods", "", ""), authz.DecisionNoOpinion, "can only list/watch pods with spec.nodeName field selector"},
		{"pod status", nodeUser("n1"), res("update", "ns", "pods", "status", "db"), authz.DecisionAllow, ""},
		{"evicting a pod", nodeUser("n1"), res("create", "ns", "pods", "eviction", "db"), authz.DecisionAllow, ""},
		{"its own node", nodeUser("n1"), res("get", "", "nodes", "", "n1"), authz.DecisionAllow, ""},
		{"another node", nodeUser("n1"), res("get", "", "nodes", "", "n2"), authz.DecisionNoOpinion, "node 'n1' cannot read 'n2', only its own Node object"},
		{"every node", nodeUser("n1"), res("list", "", "nodes", "", ""), authz.DecisionNoOpinion, "node 'n1' cannot read all nodes, only its own Node object"},
		{"its own node, watched by name", nodeUser("n1"), withSelector(res("watch", "", "nodes", "", ""), "metadata.name=n1"), authz.DecisionAllow, ""},
		{"node status", nodeUser("n1"), res("patch", "", "nodes", "status", "n1"), authz.DecisionAllow, ""},
		{"deleting a node", nodeUser("n1"), res("delete", "", "nodes", "", "n1"), authz.DecisionNoOpinion, ""},
		{"its lease", nodeUser("n1"), withGroup(res("update", "kube-node-lease", "leases", "", "n1"), "coordination.k8s.io"), authz.DecisionAllow, ""},
		{"another node's lease", nodeUser("n1"), withGroup(res("update", "kube-node-lease", "leases", "", "n2"), "coordination.k8s.io"), authz.DecisionNoOpinion, "can only access node lease with the same name as the requesting node"},
		{"a lease elsewhere", nodeUser("n1"), withGroup(res("get", "kube-system", "leases", "", "n1"), "coordination.k8s.io"), authz.DecisionNoOpinion, `can only access leases in the "kube-node-lease" system namespace`},
		{"events", nodeUser("n1"), res("create", "ns", "events", "", ""), authz.DecisionAllow, ""},
		{"services", nodeUser("n1"), res("list", "", "services", "", ""), authz.DecisionAllow, ""},
		{"deployments", nodeUser("n1"), withGroup(res("list", "", "deployments", "", ""), "apps"), authz.DecisionNoOpinion, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			d, reason, err := a.Authorize(t.Context(), authz.Attributes{User: tc.user, RequestInfo: tc.info})
			assert.NoError(t, err)
			assert.Equal(t, tc.want, d, "decision (reason %q)", reason)
			assert.Equal(t, tc.wantReason, reason)
		})
	}
}

func TestReferenceKeysOfAnUnboundPod(t *testing.T) {
	assert.Empty(t, node.ReferenceKeys(podOn("", "ns", "pending", nil)), "a pod bound to no node leads nowhere")
}
