package replicaset_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/replicaset"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/wait"
)

// webLabels are the labels of the pods of newReplicaSet's ReplicaSets.
var webLabels = map[string]string{"app": "web"}

// newReplicaSet returns a ReplicaSet named name that wants n nginx pods
// labelled app=web (and tier=frontend, which its selector does not need).
func newReplicaSet(name string, n int32) *appsv1.ReplicaSet {
	return &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: appsv1.ReplicaSetSpec{
			Replicas: &n,
			Selector: &metav1.LabelSelector{MatchLabels: webLabels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{
					Labels:      map[string]string{"app": "web", "tier": "frontend"},
					Annotations: map[string]string{"example.com/note": "from the template"},
				},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
			},
		},
	}
}

// apiEnv is an API server alone (no scheduler, no nodes: pods stay
// Pending and unassigned) with a Manager running the replicaset controller.
type apiEnv struct {
	cs  *client.Clientset
	mgr *manager.Manager
}

// newAPIEnvAfter is newAPIEnv with setup run against the API server
// before the Manager starts, so what setup creates is in the Manager's
// caches before the controller runs: the pod and ReplicaSet informers
// are not ordered with each other (upstream's neither), and a ReplicaSet
// seen before its orphans would create pods in their place.
func newAPIEnvAfter(t *testing.T, clk clock.Clock, setup func(cs *client.Clientset)) *apiEnv {
	t.Helper()
	cl := clustertest.InMemoryClient(t, apiservertest.New(t))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	setup(cs)
	return &apiEnv{cs: cs, mgr: clustertest.StartManager(t, cl, clk, replicaset.Add)}
}

// newAPIEnv starts an API server, changed by mutate, and a Manager on clk
// (clock.Real when nil) running the controller.
func newAPIEnv(t *testing.T, clk clock.Clock, mutate ...func(*apiserver.Options)) *apiEnv {
	t.Helper()
	cl := clustertest.InMemoryClient(t, apiservertest.New(t, mutate...))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	return &apiEnv{cs: cs, mgr: clustertest.StartManager(t, cl, clk, replicaset.Add)}
}

// createRS creates rs.
func createRS(t *testing.T, cs *client.Clientset, rs *appsv1.ReplicaSet) *appsv1.ReplicaSet {
	t.Helper()
	out, err := cs.ReplicaSets(rs.Namespace).Create(t.Context(), rs, client.WriteOptions{})
	require.NoError(t, err, "create replicaset %s", rs.Name)
	return out
}

// scale sets the spec.replicas of the ReplicaSet name to n, retrying
// conflicts with the controller's status writes.
func scale(t *testing.T, cs *client.Clientset, name string, n int32) *appsv1.ReplicaSet {
	t.Helper()
	var out *appsv1.ReplicaSet
	err := client.RetryOnConflict(t.Context(), wait.Backoff{Initial: time.Millisecond, Factor: 2, Steps: 10}, func() error {
		rs, err := cs.ReplicaSets("default").Get(t.Context(), name, client.GetOptions{})
		if err != nil {
			return err
		}
		rs.Spec.Replicas = &n
		out, err = cs.ReplicaSets("default").Update(t.Context(), rs, client.WriteOptions{})
		return err
	})
	require.NoError(t, err, "scale %s to %d", name, n)
	return out
}

// createPod creates an nginx pod name with lbls, on node when node is set
// (the API server then deletes it gracefully: nothing runs it here).
func createPod(t *testing.T, cs *client.Clientset, name, node string, lbls map[string]string) *corev1.Pod {
	t.Helper()
	p, err := cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: lbls},
		Spec:       corev1.PodSpec{NodeName: node, Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", name)
	return p
}

// listPods returns the pods of default by name, from the API server.
func listPods(t *testing.T, cs *client.Clientset) map[string]*corev1.Pod {
	t.Helper()
	list, err := cs.Pods("default").List(t.Context(), client.ListOptions{})
	require.NoError(t, err, "list pods")
	pods := map[string]*corev1.Pod{}
	for i := range list.Items {
		pods[list.Items[i].Name] = &list.Items[i]
	}
	return pods
}

// ownedBy returns the pods of pods that rs controls, active or not.
func ownedBy(rs *appsv1.ReplicaSet, pods map[string]*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range pods {
		if ref := p.ControllerRef(); ref != nil && ref.UID == rs.UID {
			out = append(out, p)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// active returns the pods of pods that are not being deleted or finished.
func active(pods []*corev1.Pod) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range pods {
		if p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			out = append(out, p)
		}
	}
	return out
}

// waitForPods waits until cond holds for the pods of default (by name),
// and returns them.
func waitForPods(t *testing.T, cs *client.Clientset, what string, cond func(map[string]*corev1.Pod) bool) map[string]*corev1.Pod {
	t.Helper()
	return clustertest.WaitForList(t, cs.Pods("default"), client.ListOptions{}, what, cond)
}

// describePods lists pods with their owner, node, phase and deletion, for
// failure messages.
func describePods(pods map[string]*corev1.Pod) string {
	var lines []string
	for name, p := range pods {
		owner := "-"
		if ref := p.ControllerRef(); ref != nil {
			owner = ref.Name
		}
		lines = append(lines, fmt.Sprintf("  %s owner=%s node=%q phase=%s deleting=%v labels=%v",
			name, owner, p.Spec.NodeName, p.Status.Phase, p.DeletionTimestamp != nil, p.Labels))
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// waitForRS waits until cond holds for the ReplicaSet name, and returns
// it.
func waitForRS(t *testing.T, cs *client.Clientset, name, what string, cond func(*appsv1.ReplicaSet) bool) *appsv1.ReplicaSet {
	t.Helper()
	return clustertest.WaitFor(t, cs.ReplicaSets("default"), name, what, func(rs *appsv1.ReplicaSet, found bool) bool {
		return found && cond(rs)
	})
}

// statusIs is a waitForRS condition: the controller has seen the current
// spec and counts replicas pods.
func statusIs(replicas int32) func(*appsv1.ReplicaSet) bool {
	return func(rs *appsv1.ReplicaSet) bool {
		return rs.Status.ObservedGeneration == rs.Generation && rs.Status.Replicas == replicas
	}
}

// terminating is rs's status.terminatingReplicas, -1 when unset.
func terminating(rs *appsv1.ReplicaSet) int32 {
	if rs.Status.TerminatingReplicas == nil {
		return -1
	}
	return *rs.Status.TerminatingReplicas
}

// waitCached blocks until the informer of mgr's cache for obj's resource
// holds obj at its resourceVersion or later, or with gone, no longer holds
// it. WaitIdle cannot see a change that has not reached the informers;
// after waitCached it covers the controller's reaction to obj.
func waitCached(t *testing.T, mgr *manager.Manager, obj metav1.Object, gone bool) {
	t.Helper()
	inf, err := mgr.GetCache().GetInformer(obj)
	require.NoError(t, err)
	meta := obj.GetObjectMeta()
	key := meta.Namespace + "/" + meta.Name
	want, err := strconv.ParseUint(meta.ResourceVersion, 10, 64)
	require.NoError(t, err, "resourceVersion of %s", key)
	changedCh := make(chan struct{}, 1)
	notify := func() {
		select {
		case changedCh <- struct{}{}:
		default:
		}
	}
	reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(runtime.Object, bool) { notify() },
		UpdateFunc: func(_, _ runtime.Object) { notify() },
		DeleteFunc: func(any) { notify() },
	}, informer.HandlerOptions{})
	require.NoError(t, err)
	defer func() { _ = inf.RemoveEventHandler(reg) }()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	for {
		cur, exists, err := inf.Indexer().GetByKey(key)
		require.NoError(t, err)
		if exists && !gone {
			rv, err := strconv.ParseUint(cur.(metav1.Object).GetObjectMeta().ResourceVersion, 10, 64)
			require.NoError(t, err)
			if rv >= want {
				return
			}
		}
		if !exists && gone {
			return
		}
		select {
		case <-changedCh:
		case <-ctx.Done():
			t.Fatalf("the cache never caught up with %s at %d (gone=%v)", key, want, gone)
		}
	}
}

// slowWatch is an http.RoundTripper that holds back the events of every
// watch of one resource until Release: a watch that is slow to deliver,
// as on a loaded API server or network. Lists and other watches pass.
type slowWatch struct {
	next      http.RoundTripper
	resource  string
	releaseCh chan struct{}
	once      sync.Once
}

// newSlowWatch holds back the watches of resource ("pods") made through
// next.
func newSlowWatch(next http.RoundTripper, resource string) *slowWatch {
	return &slowWatch{next: next, resource: resource, releaseCh: make(chan struct{})}
}

// Release lets the held watches deliver their events, and later ones run
// freely.
func (s *slowWatch) Release() { s.once.Do(func() { close(s.releaseCh) }) }

// RoundTrip implements http.RoundTripper.
func (s *slowWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := s.next.RoundTrip(req)
	if err != nil || req.URL.Query().Get("watch") != "true" || !strings.HasSuffix(req.URL.Path, "/"+s.resource) {
		return resp, err
	}
	resp.Body = &heldBody{ReadCloser: resp.Body, ctx: req.Context(), releaseCh: s.releaseCh, closedCh: make(chan struct{})}
	return resp, nil
}

// heldBody is a watch response body whose reads wait for releaseCh, or
// fail once the request is cancelled or the body closed.
type heldBody struct {
	io.ReadCloser
	ctx       context.Context
	releaseCh <-chan struct{}
	closedCh  chan struct{}
	closeOnce sync.Once
}

func (b *heldBody) Read(p []byte) (int, error) {
	select {
	case <-b.releaseCh:
		return b.ReadCloser.Read(p)
	case <-b.ctx.Done():
		return 0, b.ctx.Err()
	case <-b.closedCh:
		return 0, io.ErrClosedPipe
	}
}

func (b *heldBody) Close() error {
	b.closeOnce.Do(func() { close(b.closedCh) })
	return b.ReadCloser.Close()
}

// waitForEvent returns an event of default with reason about the
// ReplicaSet web.
func waitForEvent(t *testing.T, cs *client.Clientset, reason string) *corev1.Event {
	t.Helper()
	return clustertest.WaitForEvent(t, cs, "default", func(e *corev1.Event) bool {
		return e.Reason == reason && e.InvolvedObject.Kind == "ReplicaSet" && e.InvolvedObject.Name == "web"
	})
}
