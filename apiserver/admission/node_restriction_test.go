package admission_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/api/apierrors"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/request"
)

// fakePods is an admission.PodGetter over a map by namespace/name.
type fakePods map[string]*corev1.Pod

func (f fakePods) GetPod(_ context.Context, ns, name string) (*corev1.Pod, error) {
	if p, ok := f[ns+"/"+name]; ok {
		return p, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "pods"}, name)
}

func TestNodeRestriction(t *testing.T) {
	n1 := &request.User{Name: "system:node:n1", Groups: []string{"system:nodes", "system:authenticated"}}
	mine := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "mine", UID: "uid-mine", Labels: map[string]string{"a": "b"}},
		Spec: corev1.PodSpec{NodeName: "n1"}}
	theirs := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "theirs", UID: "uid-theirs"}, Spec: corev1.PodSpec{NodeName: "n2"}}
	plugin := &admission.NodeRestriction{Pods: fakePods{"ns/mine": mine, "ns/theirs": theirs}}
	pods := corev1.SchemeGroupVersion.WithResource("pods")
	nodes := corev1.SchemeGroupVersion.WithResource("nodes")
	node := func(name string, labels map[string]string, taints ...corev1.Taint) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels}, Spec: corev1.NodeSpec{Taints: taints}}
	}
	yes := true
	mirror := func(mutate func(*corev1.Pod)) *corev1.Pod {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "static-n1", Annotations: map[string]string{admission.MirrorPodAnnotationKey: "x"},
				OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "Node", Name: "n1", UID: "n1-uid", Controller: &yes}}},
			Spec: corev1.PodSpec{NodeName: "n1"},
		}
		if mutate != nil {
			mutate(p)
		}
		return p
	}
	relabelled := mine.DeepCopy()
	relabelled.Labels = map[string]string{"a": "c"}
	tests := []struct {
		name    string
		attrs   admission.Attributes
		wantErr string
	}{
		{"another user passes", admission.Attributes{Operation: admission.Delete, Resource: pods, Namespace: "ns", Name: "theirs", Object: theirs,
			User: &request.User{Name: "alice", Groups: []string{"system:authenticated"}}}, ""},
		{"a node user naming no node", admission.Attributes{Operation: admission.Create, Resource: nodes, Name: "n1", Object: node("n1", nil),
			User: &request.User{Name: "someone", Groups: []string{"system:nodes"}}}, `nodes "n1" is forbidden: could not determine node from user "someone"`},
		{"its own node", admission.Attributes{Operation: admission.Create, Resource: nodes, Name: "n1", User: n1,
			Object: node("n1", map[string]string{"kubernetes.io/hostname": "n1", "disk": "ssd", "node.kubernetes.io/pool": "a"})}, ""},
		{"another node", admission.Attributes{Operation: admission.Update, Resource: nodes, Name: "n2", User: n1, Object: node("n2", nil), OldObject: node("n2", nil)},
			`nodes "n2" is forbidden: node "n1" is not allowed to modify node "n2"`},
		{"a restricted label at registration", admission.Attributes{Operation: admission.Create, Resource: nodes, Name: "n1", User: n1,
			Object: node("n1", map[string]string{"node-role.kubernetes.io/control-plane": "", "node-restriction.kubernetes.io/trusted": "x"})},
			`nodes "n1" is forbidden: node "n1" is not allowed to set the following labels: node-restriction.kubernetes.io/trusted, node-role.kubernetes.io/control-plane`},
		{"a restricted label later", admission.Attributes{Operation: admission.Update, Resource: nodes, Name: "n1", User: n1,
			Object: node("n1", map[string]string{"node-role.kubernetes.io/control-plane": ""}), OldObject: node("n1", nil)},
			`nodes "n1" is forbidden: is not allowed to modify labels: node-role.kubernetes.io/control-plane`},
		{"its taints", admission.Attributes{Operation: admission.Update, Resource: nodes, Name: "n1", User: n1,
			Object: node("n1", nil), OldObject: node("n1", nil, corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoSchedule})},
			`nodes "n1" is forbidden: node "n1" is not allowed to modify taints`},
		{"a mirror pod", admission.Attributes{Operation: admission.Create, Resource: pods, Namespace: "ns", User: n1, Object: mirror(nil)}, ""},
		{"a pod that is not a mirror pod", admission.Attributes{Operation: admission.Create, Resource: pods, Namespace: "ns", Name: "p", User: n1,
			Object: &corev1.Pod{Spec: corev1.PodSpec{NodeName: "n1"}}},
			`pods "p" is forbidden: pod does not have "kubernetes.io/config.mirror" annotation, node "n1" can only create mirror pods`},
		{"a mirror pod on another node", admission.Attributes{Operation: admission.Create, Resource: pods, Namespace: "ns", User: n1,
			Object: mirror(func(p *corev1.Pod) { p.Spec.NodeName = "n2" })}, `node "n1" can only create pods with spec.nodeName set to itself`},
		{"a mirror pod with a secret", admission.Attributes{Operation: admission.Create, Resource: pods, Namespace: "ns", User: n1,
			Object: mirror(func(p *corev1.Pod) {
				p.Spec.Volumes = []corev1.Volume{{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "x"}}}}
			})}, `node "n1" can not create pods that reference secrets`},
		{"deleting its pod", admission.Attributes{Operation: admission.Delete, Resource: pods, Namespace: "ns", Name: "mine", User: n1, Object: mine}, ""},
		{"deleting another node's pod", admission.Attributes{Operation: admission.Delete, Resource: pods, Namespace: "ns", Name: "theirs", User: n1, Object: theirs},
			`pods "theirs" is forbidden: node "n1" can only delete pods with spec.nodeName set to itself`},
		{"updating a pod", admission.Attributes{Operation: admission.Update, Resource: pods, Namespace: "ns", Name: "mine", User: n1, Object: mine, OldObject: mine},
			`unexpected operation "UPDATE", node "n1" can only create and delete mirror pods`},
		{"its pod's status", admission.Attributes{Operation: admission.Update, Resource: pods, Subresource: "status", Namespace: "ns", Name: "mine", User: n1,
			Object: mine, OldObject: mine}, ""},
		{"another node's pod's status", admission.Attributes{Operation: admission.Update, Resource: pods, Subresource: "status", Namespace: "ns", Name: "theirs", User: n1,
			Object: theirs, OldObject: theirs}, `pods "theirs" is forbidden: node "n1" can only update pod status for pods with spec.nodeName set to itself`},
		{"labels through status", admission.Attributes{Operation: admission.Update, Resource: pods, Subresource: "status", Namespace: "ns", Name: "mine", User: n1,
			Object: relabelled, OldObject: mine}, `node "n1" cannot update labels through pod status`},
		{"evicting its pod", admission.Attributes{Operation: admission.Create, Resource: pods, Subresource: "eviction", Namespace: "ns", Name: "mine", User: n1,
			Object: &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "mine"}}}, ""},
		{"evicting another node's pod", admission.Attributes{Operation: admission.Create, Resource: pods, Subresource: "eviction", Namespace: "ns", Name: "theirs", User: n1,
			Object: &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "theirs"}}}, `pods "theirs" is forbidden: node n1 can only evict pods with spec.nodeName set to itself`},
		{"evicting a missing pod", admission.Attributes{Operation: admission.Create, Resource: pods, Subresource: "eviction", Namespace: "ns", Name: "gone", User: n1,
			Object: &policyv1.Eviction{ObjectMeta: metav1.ObjectMeta{Name: "gone"}}}, `pods "gone" not found`},
		{"a token bound to its pod", admission.Attributes{Operation: admission.Create, Resource: corev1.SchemeGroupVersion.WithResource("serviceaccounts"),
			Subresource: "token", Namespace: "ns", Name: "default", User: n1, Object: tokenRequest("mine", "uid-mine")}, ""},
		{"a token bound to another node's pod", admission.Attributes{Operation: admission.Create, Resource: corev1.SchemeGroupVersion.WithResource("serviceaccounts"),
			Subresource: "token", Namespace: "ns", Name: "default", User: n1, Object: tokenRequest("theirs", "uid-theirs")},
			`serviceaccounts "default" is forbidden: node requested token bound to a pod scheduled on a different node`},
		{"a token bound to nothing", admission.Attributes{Operation: admission.Create, Resource: corev1.SchemeGroupVersion.WithResource("serviceaccounts"),
			Subresource: "token", Namespace: "ns", Name: "default", User: n1, Object: &authenticationv1.TokenRequest{}},
			`node requested token not bound to a pod`},
		{"its lease", admission.Attributes{Operation: admission.Create, Resource: coordinationv1.SchemeGroupVersion.WithResource("leases"),
			Namespace: "kube-node-lease", User: n1, Object: &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}}, ""},
		{"another node's lease", admission.Attributes{Operation: admission.Create, Resource: coordinationv1.SchemeGroupVersion.WithResource("leases"),
			Namespace: "kube-node-lease", User: n1, Object: &coordinationv1.Lease{ObjectMeta: metav1.ObjectMeta{Name: "n2"}}},
			`can only access node lease with the same name as the requesting node`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := plugin.Validate(t.Context(), &tc.attrs)
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.wantErr)
			if !apierrors.IsNotFound(err) {
				assert.True(t, apierrors.IsForbidden(err), "%v is a 403", err)
			}
		})
	}
}

func tokenRequest(pod string, uid string) *authenticationv1.TokenRequest {
	return &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{
		BoundObjectRef: &authenticationv1.BoundObjectReference{APIVersion: "v1", Kind: "Pod", Name: pod, UID: uid},
	}}
}
