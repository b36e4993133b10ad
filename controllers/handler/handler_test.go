package handler_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/reconcile"
)

// fakeQueue records every Add, duplicates included, so a test sees what a
// handler enqueued per event.
type fakeQueue struct{ added []reconcile.Request }

func (q *fakeQueue) Add(req reconcile.Request) { q.added = append(q.added, req) }

func req(ns, name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: ns, Name: name}}
}

func pod(name string, owners ...metav1.OwnerReference) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, OwnerReferences: owners}}
}

func ownerRef(apiVersion, kind, name string, controller bool) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: "uid-" + name, Controller: &controller}
}

func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	s := runtime.NewScheme()
	require.NoError(t, corev1.AddToScheme(s))
	require.NoError(t, coordinationv1.AddToScheme(s))
	return s
}

// events runs every kind of event about objs through h and returns what
// each enqueued.
func events(h handler.EventHandler, obj metav1.Object, old metav1.Object) map[string][]reconcile.Request {
	ctx := context.Background()
	out := map[string][]reconcile.Request{}
	var q fakeQueue
	h.Create(ctx, event.CreateEvent{Object: obj}, &q)
	out["create"], q.added = q.added, nil
	h.Update(ctx, event.UpdateEvent{ObjectOld: old, ObjectNew: obj}, &q)
	out["update"], q.added = q.added, nil
	h.Delete(ctx, event.DeleteEvent{Object: obj}, &q)
	out["delete"], q.added = q.added, nil
	h.Generic(ctx, event.GenericEvent{Object: obj}, &q)
	out["generic"] = q.added
	return out
}

func TestEnqueueRequestForObject(t *testing.T) {
	got := events(handler.EnqueueRequestForObject{}, pod("web"), pod("web"))
	for kind, reqs := range got {
		assert.Equal(t, []reconcile.Request{req("default", "web")}, reqs, "%s event", kind)
	}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}
	got = events(handler.EnqueueRequestForObject{}, node, node)
	assert.Equal(t, []reconcile.Request{req("", "node-1")}, got["create"], "a cluster-scoped object has no namespace")
}

func TestEnqueueRequestForOwner(t *testing.T) {
	s := newScheme(t)
	tests := []struct {
		name      string
		ownerType runtime.Object
		opts      []handler.OwnerOption
		obj, old  metav1.Object
		want      []reconcile.Request
	}{
		{
			name:      "namespaced owner is in the object's namespace",
			ownerType: &corev1.Pod{},
			obj:       pod("child", ownerRef("v1", "Pod", "parent", true)),
			want:      []reconcile.Request{req("default", "parent")},
		},
		{
			name:      "cluster-scoped owner has no namespace",
			ownerType: &corev1.Node{},
			obj:       pod("child", ownerRef("v1", "Node", "node-1", true)),
			want:      []reconcile.Request{req("", "node-1")},
		},
		{
			name:      "other kinds and groups are ignored",
			ownerType: &corev1.Pod{},
			obj: pod("child", ownerRef("v1", "Node", "node-1", true),
				ownerRef("apps/v1", "Pod", "not-core", true), ownerRef("v1", "Pod", "parent", false)),
			want: []reconcile.Request{req("default", "parent")},
		},
		{
			name:      "OnlyControllerOwner skips non-controller references",
			ownerType: &corev1.Pod{},
			opts:      []handler.OwnerOption{handler.OnlyControllerOwner()},
			obj:       pod("child", ownerRef("v1", "Pod", "a", false), ownerRef("v1", "Pod", "b", true)),
			want:      []reconcile.Request{req("default", "b")},
		},
		{
			name:      "a reference without controller is not the controller",
			ownerType: &corev1.Pod{},
			opts:      []handler.OwnerOption{handler.OnlyControllerOwner()},
			obj:       pod("child", metav1.OwnerReference{APIVersion: "v1", Kind: "Pod", Name: "a"}),
		},
		{
			name:      "any version of the owner's group matches",
			ownerType: &coordinationv1.Lease{},
			obj:       pod("child", ownerRef("coordination.k8s.io/v1beta1", "Lease", "l", true)),
			want:      []reconcile.Request{req("default", "l")},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := events(handler.EnqueueRequestForOwner(s, tc.ownerType, tc.opts...), tc.obj, tc.obj)
			for kind, reqs := range got {
				assert.Equal(t, tc.want, reqs, "%s event", kind)
			}
		})
	}
}

func TestEnqueueRequestForOwnerUpdateEnqueuesOldAndNewOwnersOnce(t *testing.T) {
	h := handler.EnqueueRequestForOwner(newScheme(t), &corev1.Pod{}, handler.OnlyControllerOwner())
	var q fakeQueue
	old := pod("child", ownerRef("v1", "Pod", "before", true))
	moved := pod("child", ownerRef("v1", "Pod", "after", true))
	h.Update(t.Context(), event.UpdateEvent{ObjectOld: old, ObjectNew: moved}, &q)
	assert.Equal(t, []reconcile.Request{req("default", "before"), req("default", "after")}, q.added, "owner changed")

	q.added = nil
	h.Update(t.Context(), event.UpdateEvent{ObjectOld: moved, ObjectNew: moved}, &q)
	assert.Equal(t, []reconcile.Request{req("default", "after")}, q.added, "same owner: enqueued once")
}

func TestEnqueueRequestForOwnerPanicsOnUnknownType(t *testing.T) {
	assert.Panics(t, func() { handler.EnqueueRequestForOwner(runtime.NewScheme(), &corev1.Pod{}) },
		"an owner type missing from the scheme is a programmer error")
}

func TestEnqueueRequestsFromMapFunc(t *testing.T) {
	// Map a pod to the node named in its label, as a controller of nodes
	// watching pods would.
	h := handler.EnqueueRequestsFromMapFunc(func(_ context.Context, obj metav1.Object) []reconcile.Request {
		node := obj.GetObjectMeta().Labels["node"]
		if node == "" {
			return nil
		}
		return []reconcile.Request{req("", node), req("", node)}
	})
	labelled := func(node string) *corev1.Pod {
		p := pod("web")
		p.Labels = map[string]string{"node": node}
		return p
	}
	got := events(h, labelled("a"), labelled("b"))
	assert.Equal(t, []reconcile.Request{req("", "a")}, got["create"], "duplicates in one event are dropped")
	assert.Equal(t, []reconcile.Request{req("", "b"), req("", "a")}, got["update"], "old then new")
	assert.Equal(t, []reconcile.Request{req("", "a")}, got["delete"])
	assert.Equal(t, []reconcile.Request{req("", "a")}, got["generic"])
	assert.Empty(t, events(h, pod("plain"), pod("plain"))["update"], "no mapping, nothing enqueued")
}

func TestFuncs(t *testing.T) {
	var calls []string
	h := handler.Funcs{
		CreateFunc: func(context.Context, event.CreateEvent, handler.Queue) { calls = append(calls, "create") },
		DeleteFunc: func(context.Context, event.DeleteEvent, handler.Queue) { calls = append(calls, "delete") },
	}
	events(h, pod("web"), pod("web"))
	assert.Equal(t, []string{"create", "delete"}, calls, "nil funcs ignore their events")
}
