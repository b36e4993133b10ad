package validation

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
)

func TestValidateNamespace(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*corev1.Namespace)
		want   []string
	}{
		{name: "valid", mutate: func(*corev1.Namespace) {}, want: []string{}},
		{name: "dots", mutate: func(ns *corev1.Namespace) { ns.Name = "a.b" }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "too long", mutate: func(ns *corev1.Namespace) { ns.Name = strings.Repeat("a", 64) }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "namespaced", mutate: func(ns *corev1.Namespace) { ns.Namespace = "default" }, want: []string{"FieldValueForbidden metadata.namespace"}},
		{name: "qualified finalizer", mutate: func(ns *corev1.Namespace) { ns.Spec.Finalizers = append(ns.Spec.Finalizers, "example.com/x") }, want: []string{}},
		{name: "unknown finalizer", mutate: func(ns *corev1.Namespace) { ns.Spec.Finalizers = []corev1.FinalizerName{"cleanup"} },
			want: []string{"FieldValueInvalid spec.finalizers"}},
	}
	for _, tc := range tests {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
		corev1.SetDefaults(ns)
		tc.mutate(ns)
		got := ValidateNamespace(ns)
		assert.Equal(t, tc.want, summary(got), "ValidateNamespace(%s): %v", tc.name, got)
	}
}

func TestValidateNamespaceUpdates(t *testing.T) {
	now := metav1.NewTime(time.Unix(100, 0))
	stored := func() *corev1.Namespace {
		ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop", UID: "u", ResourceVersion: "3", CreationTimestamp: now}}
		corev1.SetDefaults(ns)
		return ns
	}
	old, ns := stored(), stored()
	ns.Labels["team"] = "a"
	assert.Empty(t, ValidateNamespaceUpdate(ns, old))
	ns.Name = "other"
	assert.Equal(t, []string{"FieldValueInvalid metadata.name"}, summary(ValidateNamespaceUpdate(ns, old)))

	old, ns = stored(), stored()
	assert.Empty(t, ValidateNamespaceStatusUpdate(ns, old), "Active without deletionTimestamp")
	ns.Status.Phase = corev1.NamespaceTerminating
	assert.Equal(t, []string{"FieldValueInvalid status.phase"}, summary(ValidateNamespaceStatusUpdate(ns, old)))
	old.DeletionTimestamp, ns.DeletionTimestamp = &now, &now
	assert.Empty(t, ValidateNamespaceStatusUpdate(ns, old), "Terminating with deletionTimestamp")
	ns.Status.Phase = corev1.NamespaceActive
	assert.EqualError(t, ValidateNamespaceStatusUpdate(ns, old),
		`status.phase: Invalid value: "Active": may only be 'Terminating' if `+"`deletionTimestamp`"+` is not empty`)

	old, ns = stored(), stored()
	ns.Spec.Finalizers = nil
	assert.Empty(t, ValidateNamespaceFinalizeUpdate(ns, old), "finalizers removed")
	ns.Spec.Finalizers = []corev1.FinalizerName{"kubernetes", "bad"}
	assert.Equal(t, []string{"FieldValueInvalid spec.finalizers[1]"}, summary(ValidateNamespaceFinalizeUpdate(ns, old)))
}

func validNode() *corev1.Node {
	node := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: "kind-worker", Labels: map[string]string{"kubernetes.io/hostname": "kind-worker"}},
		Spec: corev1.NodeSpec{
			PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24", "fd00:10:244:1::/64"},
			ProviderID: "kind://docker/kind/kind-worker",
			Taints:     []corev1.Taint{{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule}},
		},
		Status: corev1.NodeStatus{
			Capacity:  corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourcePods: resource.MustParse("110")},
			Addresses: []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "172.18.0.3"}, {Type: corev1.NodeHostName, Address: "kind-worker"}},
		},
	}
	corev1.SetDefaults(node)
	return node
}

func TestValidateNode(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*corev1.Node)
		want   []string
	}{
		{name: "valid", mutate: func(*corev1.Node) {}, want: []string{}},
		{name: "bad name", mutate: func(n *corev1.Node) { n.Name = "Node_1" }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "namespaced", mutate: func(n *corev1.Node) { n.Namespace = "default" }, want: []string{"FieldValueForbidden metadata.namespace"}},
		{name: "taint without effect", mutate: func(n *corev1.Node) { n.Spec.Taints[0].Effect = "" }, want: []string{"FieldValueRequired spec.taints[0].effect"}},
		{name: "taint bad effect", mutate: func(n *corev1.Node) { n.Spec.Taints[0].Effect = "Evict" }, want: []string{"FieldValueNotSupported spec.taints[0].effect"}},
		{name: "taint bad key", mutate: func(n *corev1.Node) { n.Spec.Taints[0].Key = "" }, want: []string{"FieldValueInvalid spec.taints[0].key", "FieldValueInvalid spec.taints[0].key"}},
		{name: "taint bad value", mutate: func(n *corev1.Node) { n.Spec.Taints[0].Value = "a b" }, want: []string{"FieldValueInvalid spec.taints[0].value"}},
		{name: "duplicate taint", mutate: func(n *corev1.Node) {
			n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: "dedicated", Effect: corev1.TaintEffectNoSchedule})
		},
			want: []string{"FieldValueDuplicate spec.taints[1]"}},
		{name: "same key other effect", mutate: func(n *corev1.Node) {
			n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: "dedicated", Effect: corev1.TaintEffectNoExecute})
		},
			want: []string{}},
		{name: "bad podCIDR", mutate: func(n *corev1.Node) { n.Spec.PodCIDRs[0] = "10.244.1.0" }, want: []string{"FieldValueInvalid spec.podCIDRs[0]"}},
		{name: "two IPv4 podCIDRs", mutate: func(n *corev1.Node) { n.Spec.PodCIDRs[1] = "10.245.0.0/24" }, want: []string{"FieldValueInvalid spec.podCIDRs"}},
		{name: "negative capacity", mutate: func(n *corev1.Node) { n.Status.Capacity[corev1.ResourceCPU] = resource.MustParse("-1") },
			want: []string{"FieldValueInvalid status.capacity.cpu"}},
		{name: "fractional pods", mutate: func(n *corev1.Node) { n.Status.Allocatable[corev1.ResourcePods] = resource.MustParse("1.5") },
			want: []string{"FieldValueInvalid status.allocatable.pods"}},
	}
	for _, tc := range tests {
		node := validNode()
		tc.mutate(node)
		got := ValidateNode(node)
		assert.Equal(t, tc.want, summary(got), "ValidateNode(%s): %v", tc.name, got)
	}
}

func TestValidateNodeUpdate(t *testing.T) {
	stored := func() *corev1.Node {
		n := validNode()
		n.UID, n.ResourceVersion = "u", "7"
		return n
	}
	tests := []struct {
		name      string
		mutateOld func(*corev1.Node)
		mutateNew func(*corev1.Node)
		want      []string
	}{
		{name: "heartbeat", mutateNew: func(n *corev1.Node) {
			n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
		}, want: []string{}},
		{name: "cordon and taint", mutateNew: func(n *corev1.Node) {
			n.Spec.Unschedulable = true
			n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule})
		}, want: []string{}},
		{name: "podCIDRs assigned", mutateOld: func(n *corev1.Node) { n.Spec.PodCIDRs = nil }, want: []string{}},
		{name: "podCIDRs changed", mutateNew: func(n *corev1.Node) { n.Spec.PodCIDRs[0] = "10.244.9.0/24" },
			want: []string{"FieldValueForbidden spec.podCIDRs"}},
		{name: "podCIDRs removed", mutateNew: func(n *corev1.Node) { n.Spec.PodCIDRs = nil },
			want: []string{"FieldValueForbidden spec.podCIDRs"}},
		{name: "providerID changed", mutateNew: func(n *corev1.Node) { n.Spec.ProviderID = "other" },
			want: []string{"FieldValueForbidden spec.providerID"}},
		{name: "providerID assigned", mutateOld: func(n *corev1.Node) { n.Spec.ProviderID = "" }, want: []string{}},
		{name: "duplicate address", mutateNew: func(n *corev1.Node) { n.Status.Addresses = append(n.Status.Addresses, n.Status.Addresses[0]) },
			want: []string{"FieldValueDuplicate status.addresses[2]"}},
		{name: "bad taint", mutateNew: func(n *corev1.Node) { n.Spec.Taints[0].Effect = "" }, want: []string{"FieldValueRequired spec.taints[0].effect"}},
	}
	for _, tc := range tests {
		old := stored()
		if tc.mutateOld != nil {
			tc.mutateOld(old)
		}
		node := stored()
		if tc.mutateNew != nil {
			tc.mutateNew(node)
		}
		got := ValidateNodeUpdate(node, old)
		assert.Equal(t, tc.want, summary(got), "ValidateNodeUpdate(%s): %v", tc.name, got)
	}
}

func TestValidateBinding(t *testing.T) {
	tests := []struct {
		name   string
		target corev1.ObjectReference
		want   []string
	}{
		{name: "node", target: corev1.ObjectReference{Kind: "Node", Name: "n1"}, want: []string{}},
		{name: "no kind", target: corev1.ObjectReference{Name: "n1"}, want: []string{}},
		{name: "not a node", target: corev1.ObjectReference{Kind: "Pod", Name: "p"}, want: []string{"FieldValueNotSupported target.kind"}},
		{name: "no name", target: corev1.ObjectReference{Kind: "Node"}, want: []string{"FieldValueRequired target.name"}},
	}
	for _, tc := range tests {
		b := &corev1.Binding{ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "shop"}, Target: tc.target}
		got := ValidateBinding(b)
		assert.Equal(t, tc.want, summary(got), "ValidateBinding(%s): %v", tc.name, got)
	}
	assert.EqualError(t, ValidateBinding(&corev1.Binding{Target: corev1.ObjectReference{Kind: "Pod", Name: "x"}}),
		`target.kind: Unsupported value: "Pod": supported values: "Node", "<empty>"`)
}

func TestValidateEvent(t *testing.T) {
	micro := metav1.NewMicroTime(time.Unix(100, 0))
	legacy := func() *corev1.Event {
		return &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: "web-0.17f4a3b2c1d0e9f8", Namespace: "shop"},
			InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "shop", Name: "web-0"},
			Reason:         "Scheduled", Type: corev1.EventTypeNormal, Count: 1,
		}
	}
	tests := []struct {
		name   string
		mutate func(*corev1.Event)
		want   []string
	}{
		{name: "legacy", mutate: func(*corev1.Event) {}, want: []string{}},
		{name: "legacy node event in default", mutate: func(e *corev1.Event) {
			e.Namespace = "default"
			e.InvolvedObject = corev1.ObjectReference{Kind: "Node", Name: "n1"}
		}, want: []string{}},
		{name: "legacy node event elsewhere", mutate: func(e *corev1.Event) { e.InvolvedObject.Namespace = "" },
			want: []string{"FieldValueInvalid involvedObject.namespace"}},
		{name: "namespace mismatch", mutate: func(e *corev1.Event) { e.InvolvedObject.Namespace = "other" },
			want: []string{"FieldValueInvalid involvedObject.namespace"}},
		{name: "no name", mutate: func(e *corev1.Event) { e.Name = "" }, want: []string{"FieldValueRequired metadata.name"}},
		{name: "name with slash", mutate: func(e *corev1.Event) { e.Name = "a/b" }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "no namespace", mutate: func(e *corev1.Event) { e.Namespace = "" },
			want: []string{"FieldValueRequired metadata.namespace", "FieldValueInvalid involvedObject.namespace"}},
		{name: "new style", mutate: func(e *corev1.Event) {
			e.EventTime = micro
			e.ReportingController, e.ReportingInstance, e.Action = "default-scheduler", "sched-1", "Binding"
		}, want: []string{}},
		{name: "new style missing fields", mutate: func(e *corev1.Event) { e.EventTime = micro; e.Reason = "" },
			want: []string{
				"FieldValueRequired reportingComponent",
				"FieldValueRequired reportingInstance", "FieldValueRequired action", "FieldValueRequired reason",
			}},
		{name: "new style too long", mutate: func(e *corev1.Event) {
			e.EventTime = micro
			e.ReportingController, e.ReportingInstance, e.Action = "k", "i", strings.Repeat("a", 129)
			e.Message = strings.Repeat("m", 1025)
		}, want: []string{"FieldValueInvalid action", "FieldValueInvalid message"}},
	}
	for _, tc := range tests {
		ev := legacy()
		tc.mutate(ev)
		got := ValidateEvent(ev)
		assert.Equal(t, tc.want, summary(got), "ValidateEvent(%s): %v", tc.name, got)
	}

	old := legacy()
	old.UID, old.ResourceVersion = "u", "1"
	ev := old.DeepCopy()
	ev.Count = 2
	assert.Empty(t, ValidateEventUpdate(ev, old), "count bumped")
	ev.InvolvedObject.Namespace = "other"
	assert.Equal(t, []string{"FieldValueInvalid involvedObject.namespace"}, summary(ValidateEventUpdate(ev, old)))
}
