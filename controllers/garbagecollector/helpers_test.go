package garbagecollector_test

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/garbagecollector"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/wait"
)

// env is an API server, a clientset of it, and a manager running only
// the garbage collector. The manager keeps the real clock: nothing the
// tests check depends on time passing, but a transient error (a 429 on a
// loaded machine) must be retried after the controllers' short backoff,
// as in production, where a fake clock would stall the test.
type env struct {
	api  *apiserver.Server
	cs   *client.Clientset
	mgr  *manager.Manager
	gc   *garbagecollector.GarbageCollector
	seen *informerTracker
}

// newEnv returns an env whose manager is not started yet, so a test can
// create objects the collector finds at startup.
func newEnv(t *testing.T) *env {
	t.Helper()
	api := apiservertest.New(t)
	cl := clustertest.InMemoryClient(t, api)
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	mgr, err := manager.New(manager.Options{Client: cl})
	require.NoError(t, err, "manager.New")
	gc, err := garbagecollector.New(mgr, garbagecollector.Options{})
	require.NoError(t, err, "garbagecollector.New")
	require.NoError(t, mgr.Add(gc), "add the collector")
	return &env{api: api, cs: cs, mgr: mgr, gc: gc, seen: trackInformers(t, mgr)}
}

// start runs the manager until the test ends; the cleanup checks that it
// stops cleanly.
func (e *env) start(t *testing.T) {
	t.Helper()
	clustertest.Start(t, e.mgr)
}

// newStartedEnv is newEnv, started.
func newStartedEnv(t *testing.T) *env {
	t.Helper()
	e := newEnv(t)
	e.start(t)
	return e
}

// waitIdle waits for the manager's informers to have seen every object
// the test created, then for the collector to have nothing left to do:
// WaitIdle alone cannot see a change the informers have not received.
func (e *env) waitIdle(t *testing.T) {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, e.seen.waitCreated(ctx), "the informers see the objects created")
	require.NoError(t, e.mgr.WaitIdle(ctx), "WaitIdle")
}

// ref is an ownerReference to obj, blocking its owner's foreground
// deletion when block is set.
func ref(obj metav1.Object, apiVersion, kind string, block *bool) metav1.OwnerReference {
	meta := obj.GetObjectMeta()
	return metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: meta.Name, UID: meta.UID, BlockOwnerDeletion: block}
}

func cmRef(cm *corev1.ConfigMap, block *bool) metav1.OwnerReference {
	return ref(cm, "v1", "ConfigMap", block)
}

func ptr[T any](v T) *T { return &v }

func (e *env) createConfigMap(t *testing.T, ns, name string, owners ...metav1.OwnerReference) *corev1.ConfigMap {
	t.Helper()
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, OwnerReferences: owners}}
	created, err := e.cs.ConfigMaps(ns).Create(t.Context(), cm, client.WriteOptions{})
	require.NoError(t, err, "create configmap %s/%s", ns, name)
	e.seen.created(t, "configmaps", created)
	return created
}

func (e *env) createPod(t *testing.T, ns, name string, owners ...metav1.OwnerReference) *corev1.Pod {
	t.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, OwnerReferences: owners},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
	return e.createPodObject(t, p)
}

// createPodObject creates p as it is.
func (e *env) createPodObject(t *testing.T, p *corev1.Pod) *corev1.Pod {
	t.Helper()
	created, err := e.cs.Pods(p.Namespace).Create(t.Context(), p, client.WriteOptions{})
	require.NoError(t, err, "create pod %s/%s", p.Namespace, p.Name)
	e.seen.created(t, "pods", created)
	return created
}

// createReplicaSet creates a ReplicaSet and the pods it controls (no
// ReplicaSet controller runs here).
func (e *env) createReplicaSet(t *testing.T, name string, pods ...string) *appsv1.ReplicaSet {
	t.Helper()
	labels := map[string]string{"app": name}
	rs, err := e.cs.ReplicaSets("default").Create(t.Context(), &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
		Spec: appsv1.ReplicaSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
			},
		},
	}, client.WriteOptions{})
	require.NoError(t, err, "create replicaset %s", name)
	e.seen.created(t, "replicasets", rs)
	owner := ref(rs, "apps/v1", "ReplicaSet", ptr(true))
	owner.Controller = ptr(true)
	for _, p := range pods {
		e.createPod(t, "default", p, owner)
	}
	return rs
}

func (e *env) createNamespace(t *testing.T, name string) {
	t.Helper()
	created, err := e.cs.Namespaces().Create(t.Context(), &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace %s", name)
	e.seen.created(t, "namespaces", created)
}

// deleteWith deletes name with the propagation policy.
func deleteWith[T metav1.Object, L metav1.ListInterface](t *testing.T, res *client.Resource[T, L], name string, policy metav1.DeletionPropagation) {
	t.Helper()
	require.NoError(t, res.Delete(t.Context(), name, metav1.DeleteOptions{PropagationPolicy: &policy}), "delete %s with %s", name, policy)
}

// get returns the object called name, or false when it does not exist.
func get[T metav1.Object, L metav1.ListInterface](t *testing.T, res *client.Resource[T, L], name string) (T, bool) {
	t.Helper()
	obj, err := res.Get(t.Context(), name, client.GetOptions{})
	if err != nil {
		var zero T
		require.Truef(t, apierrors.IsNotFound(err), "get %s: %v", name, err)
		return zero, false
	}
	return obj, true
}

// waitFor watches name until cond holds for it (exists is false, and obj
// the zero T, once it is gone) and returns its state then. It fails the
// test after clustertest.WaitTimeout.
func waitFor[T metav1.Object, L metav1.ListInterface](t *testing.T, res *client.Resource[T, L], name, what string,
	cond func(obj T, exists bool) bool) T {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	selector := client.ListOptions{FieldSelector: "metadata.name=" + name}
	for {
		list, err := res.List(ctx, selector)
		require.NoError(t, err, "list %s while waiting for %s", name, what)
		items, err := runtime.ListItems(list)
		require.NoError(t, err)
		var zero T
		if len(items) == 0 {
			if cond(zero, false) {
				return zero
			}
		} else if obj := items[0].(T); cond(obj, true) {
			return obj
		}
		opts := selector
		opts.ResourceVersion = list.GetListMeta().ResourceVersion
		w, err := res.Watch(ctx, opts)
		require.NoError(t, err, "watch %s while waiting for %s", name, what)
		for ev := range w.ResultChan() {
			switch ev.Type {
			case watch.Added, watch.Modified:
				if obj, ok := ev.Object.(T); ok && cond(obj, true) {
					w.Stop()
					return obj
				}
			case watch.Deleted:
				if cond(zero, false) {
					w.Stop()
					return zero
				}
			}
		}
		w.Stop()
		// The watch ended: by the deadline, or the server; list again.
		require.NoError(t, ctx.Err(), "%s: %s", name, what)
	}
}

// waitGone waits for name to be deleted.
func waitGone[T metav1.Object, L metav1.ListInterface](t *testing.T, res *client.Resource[T, L], name string) {
	t.Helper()
	waitFor(t, res, name, "to be gone", func(_ T, exists bool) bool { return !exists })
}

func ownerUIDs(obj metav1.Object) []string {
	var uids []string
	for _, r := range obj.GetObjectMeta().OwnerReferences {
		uids = append(uids, r.UID)
	}
	return uids
}

// waitForEvent returns the first event in ns with reason.
func waitForEvent(t *testing.T, cs *client.Clientset, ns, reason string) *corev1.Event {
	t.Helper()
	return clustertest.WaitForEvent(t, cs, ns, func(e *corev1.Event) bool { return e.Reason == reason })
}

// informerTracker records the latest resourceVersion the manager's shared
// informers have delivered for each object, through a handler of its own
// on each: once it has seen an object, the informer's cache holds it, and
// the collector's Idle covers handing it to the collector.
type informerTracker struct {
	// mu guards the fields below. seen and want map "resource/key" to a
	// resourceVersion: delivered, and created by the test.
	mu      sync.Mutex
	seen    map[string]int64
	want    map[string]int64
	changed wait.Broadcast
}

// trackInformers adds the tracker's handlers to mgr's informers of the
// resources the tests create.
func trackInformers(t *testing.T, mgr *manager.Manager) *informerTracker {
	t.Helper()
	tr := &informerTracker{seen: map[string]int64{}, want: map[string]int64{}}
	gvrs := []runtime.GroupVersionResource{
		corev1.SchemeGroupVersion.WithResource("configmaps"), corev1.SchemeGroupVersion.WithResource("pods"),
		corev1.SchemeGroupVersion.WithResource("namespaces"), corev1.SchemeGroupVersion.WithResource("nodes"),
		appsv1.SchemeGroupVersion.WithResource("replicasets"),
	}
	for _, gvr := range gvrs {
		inf, err := mgr.GetCache().InformerFor(gvr)
		require.NoError(t, err)
		record := func(obj any) {
			if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if o, ok := obj.(metav1.Object); ok {
				tr.record(gvr.Resource, o)
			}
		}
		_, err = inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
			AddFunc:    func(obj runtime.Object, _ bool) { record(obj) },
			UpdateFunc: func(_, obj runtime.Object) { record(obj) },
			DeleteFunc: record,
		}, informer.HandlerOptions{})
		require.NoError(t, err)
	}
	return tr
}

func trackerKey(resource string, obj metav1.Object) string {
	meta := obj.GetObjectMeta()
	return resource + "/" + meta.Namespace + "/" + meta.Name
}

func parseRV(t *testing.T, obj metav1.Object) int64 {
	t.Helper()
	rv, err := strconv.ParseInt(obj.GetObjectMeta().ResourceVersion, 10, 64)
	require.NoError(t, err, "resourceVersion of %s", obj.GetObjectMeta().Name)
	return rv
}

func (tr *informerTracker) record(resource string, obj metav1.Object) {
	rv, err := strconv.ParseInt(obj.GetObjectMeta().ResourceVersion, 10, 64)
	if err != nil {
		return
	}
	key := trackerKey(resource, obj)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if rv > tr.seen[key] {
		tr.seen[key] = rv
	}
	tr.changed.Notify()
}

// created records that the test created obj.
func (tr *informerTracker) created(t *testing.T, resource string, obj metav1.Object) {
	t.Helper()
	rv := parseRV(t, obj)
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.want[trackerKey(resource, obj)] = rv
}

// waitCreated waits until the informers have delivered every object
// created so far, or ctx ends.
func (tr *informerTracker) waitCreated(ctx context.Context) error {
	for {
		tr.mu.Lock()
		missing := ""
		for key, rv := range tr.want {
			if tr.seen[key] < rv {
				missing = key
				break
			}
		}
		ch := tr.changed.Wait()
		tr.mu.Unlock()
		if missing == "" {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return fmt.Errorf("%s not seen by the informers: %w", missing, ctx.Err())
		}
	}
}
