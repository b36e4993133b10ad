package deployment_test

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/deployment"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/wait"
)

const ns = metav1.NamespaceDefault

// t0 is when every fake clock starts: a whole second, as condition times
// are stored.
var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// retryNow retries a conflicting test write at once: the test re-reads
// the object, so a second attempt almost surely succeeds.
var retryNow = wait.Backoff{Steps: 50}

// env is a Manager running the deployment controller (and whatever else
// the test adds) against an API server, with the manager's cache as the
// test's view of what the controller has seen.
type env struct {
	t           *testing.T
	cs          *client.Clientset
	mgr         *manager.Manager
	deployments *informer.Lister[*appsv1.Deployment]
	replicaSets *informer.Lister[*appsv1.ReplicaSet]
	pods        *informer.Lister[*corev1.Pod]
	// changedCh receives (without blocking, buffer 1) after any change to
	// a deployment, replica set or pod reaches the cache.
	changedCh chan struct{}
	// othersIdle waits for the other components of the cluster, if any.
	othersIdle func(context.Context) error
}

type envConfig struct {
	client     *client.Client
	clock      clock.Clock
	adds       []func(*manager.Manager) error
	othersIdle func(context.Context) error
}

type envOption func(*envConfig)

// withClock runs the manager on clk instead of the real clock.
func withClock(clk clock.Clock) envOption { return func(c *envConfig) { c.clock = clk } }

// withCluster runs the manager against c (whose controllers the test
// chose) and waits for c to be idle too when settling.
func withCluster(c *clustertest.Cluster) envOption {
	return func(cfg *envConfig) {
		cfg.client = c.Clientset().Client()
		cfg.othersIdle = c.WaitIdle
	}
}

// withController adds another controller to the manager.
func withController(add func(*manager.Manager) error) envOption {
	return func(c *envConfig) { c.adds = append(c.adds, add) }
}

// newEnv starts the deployment controller on a Manager, against an API
// server of its own unless withCluster says otherwise, and stops it when
// the test ends.
func newEnv(t *testing.T, opts ...envOption) *env {
	t.Helper()
	cfg := envConfig{clock: clock.Real}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.client == nil {
		cfg.client = clustertest.InMemoryClient(t, apiservertest.New(t))
	}
	cs, err := client.NewClientset(cfg.client)
	require.NoError(t, err)
	mgr, err := manager.New(manager.Options{Client: cfg.client, Clock: cfg.clock})
	require.NoError(t, err)
	require.NoError(t, deployment.Add(mgr), "deployment.Add")
	for _, add := range cfg.adds {
		require.NoError(t, add(mgr))
	}
	e := &env{t: t, cs: cs, mgr: mgr, changedCh: make(chan struct{}, 1), othersIdle: cfg.othersIdle}
	e.deployments, err = cache.ListerFor[*appsv1.Deployment](mgr.GetCache())
	require.NoError(t, err)
	e.replicaSets, err = cache.ListerFor[*appsv1.ReplicaSet](mgr.GetCache())
	require.NoError(t, err)
	e.pods, err = cache.ListerFor[*corev1.Pod](mgr.GetCache())
	require.NoError(t, err)
	signal := func() {
		select {
		case e.changedCh <- struct{}{}:
		default:
		}
	}
	for _, obj := range []metav1.Object{&appsv1.Deployment{}, &appsv1.ReplicaSet{}, &corev1.Pod{}} {
		inf, err := mgr.GetCache().GetInformer(obj)
		require.NoError(t, err)
		_, err = inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
			AddFunc:    func(runtime.Object, bool) { signal() },
			UpdateFunc: func(_, _ runtime.Object) { signal() },
			DeleteFunc: func(any) { signal() },
		}, informer.HandlerOptions{})
		require.NoError(t, err)
	}
	clustertest.Start(t, mgr)
	return e
}

// ctx is a context bounded by clustertest.WaitTimeout.
func (e *env) ctx() context.Context {
	ctx, cancel := clustertest.WaitContext(e.t)
	e.t.Cleanup(cancel)
	return ctx
}

// settle returns once nothing is left to do: the manager is idle with
// every deployment, replica set and pod of the API server in its cache
// (so no event is on its way), and the rest of the cluster is idle.
//
// The manager must be idle after the API server's state was seen, and
// that state must not have moved by the end: a reconcile can start and
// finish between WaitIdle and Idle (an event reached the cache just
// after WaitIdle), and its writes are then in the API server but not
// yet in the cache.
func (e *env) settle() {
	e.t.Helper()
	ctx, cancel := clustertest.WaitContext(e.t)
	defer cancel()
	for {
		if e.othersIdle != nil {
			require.NoError(e.t, e.othersIdle(ctx), "cluster WaitIdle")
		}
		require.NoError(e.t, e.mgr.WaitIdle(ctx), "manager WaitIdle")
		before, ok := e.caughtUp(ctx)
		if !ok {
			// An event is on its way to the cache.
			select {
			case <-e.changedCh:
			case <-ctx.Done():
				e.t.Fatalf("the cache did not catch up with the API server within %v", clustertest.WaitTimeout)
			}
			continue
		}
		// A delay that fell due since WaitIdle (a retry) is work too.
		if !e.mgr.Idle() {
			continue
		}
		if after, ok := e.caughtUp(ctx); ok && maps.Equal(before, after) {
			return
		}
	}
}

// caughtUp reports whether the cache holds exactly the API server's
// deployments, replica sets and pods, at their resourceVersions, and
// returns what the API server holds: the resourceVersion of each, by
// kind and name.
func (e *env) caughtUp(ctx context.Context) (map[string]string, bool) {
	e.t.Helper()
	ds, err := e.cs.Deployments(ns).List(ctx, client.ListOptions{})
	require.NoError(e.t, err)
	rss, err := e.cs.ReplicaSets(ns).List(ctx, client.ListOptions{})
	require.NoError(e.t, err)
	pods, err := e.cs.Pods(ns).List(ctx, client.ListOptions{})
	require.NoError(e.t, err)
	state := map[string]string{}
	ok := sameRVs(e.t, "deployment", ds.Items, e.deployments, state)
	ok = sameRVs(e.t, "replicaset", rss.Items, e.replicaSets, state) && ok
	ok = sameRVs(e.t, "pod", pods.Items, e.pods, state) && ok
	return state, ok
}

// sameRVs reports whether lister holds exactly items, by name and
// resourceVersion, and records each item's resourceVersion in state
// under kind/name.
func sameRVs[T any, PT interface {
	*T
	metav1.Object
}](t *testing.T, kind string, items []T, lister *informer.Lister[PT], state map[string]string) bool {
	for i := range items {
		meta := PT(&items[i]).GetObjectMeta()
		state[kind+"/"+meta.Name] = meta.ResourceVersion
	}
	cached, err := lister.ByNamespace(ns).List(nil)
	require.NoError(t, err)
	if len(cached) != len(items) {
		return false
	}
	for i := range items {
		meta := PT(&items[i]).GetObjectMeta()
		c, err := lister.Get(ns, meta.Name)
		if err != nil || c.GetObjectMeta().ResourceVersion != meta.ResourceVersion {
			return false
		}
	}
	return true
}

// waitFor waits until cond holds, checking it after every change the
// cache sees.
func (e *env) waitFor(what string, cond func() bool) {
	e.t.Helper()
	ctx, cancel := clustertest.WaitContext(e.t)
	defer cancel()
	for !cond() {
		select {
		case <-e.changedCh:
		case <-ctx.Done():
			e.t.Fatalf("%s: not within %v", what, clustertest.WaitTimeout)
		}
	}
}

// newDeployment is a Deployment of replicas nginx pods labelled app=name.
func newDeployment(name string, replicas int32) *appsv1.Deployment {
	lbls := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: lbls},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: maps.Clone(lbls)},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.25"}}},
			},
		},
	}
}

// rolling sets d's strategy to a RollingUpdate with these bounds.
func rolling(d *appsv1.Deployment, surge, unavailable intstr.IntOrString) *appsv1.Deployment {
	d.Spec.Strategy = appsv1.DeploymentStrategy{
		Type:          appsv1.RollingUpdateDeploymentStrategyType,
		RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable},
	}
	return d
}

// create stores d.
func (e *env) create(d *appsv1.Deployment) *appsv1.Deployment {
	e.t.Helper()
	out, err := e.cs.Deployments(ns).Create(e.ctx(), d, client.WriteOptions{})
	require.NoError(e.t, err, "create deployment %s", d.Name)
	return out
}

// update changes the Deployment name with mutate, retrying conflicts
// with the controller's status writes.
func (e *env) update(name string, mutate func(*appsv1.Deployment)) *appsv1.Deployment {
	e.t.Helper()
	ctx := e.ctx()
	var out *appsv1.Deployment
	require.NoError(e.t, client.RetryOnConflict(ctx, retryNow, func() error {
		d, err := e.cs.Deployments(ns).Get(ctx, name, client.GetOptions{})
		if err != nil {
			return err
		}
		mutate(d)
		out, err = e.cs.Deployments(ns).Update(ctx, d, client.WriteOptions{})
		return err
	}), "update deployment %s", name)
	return out
}

// setImage rolls the Deployment name out to image.
func (e *env) setImage(name, image string) *appsv1.Deployment {
	e.t.Helper()
	return e.update(name, func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image })
}

// get reads the Deployment name from the API server.
func (e *env) get(name string) *appsv1.Deployment {
	e.t.Helper()
	d, err := e.cs.Deployments(ns).Get(e.ctx(), name, client.GetOptions{})
	require.NoError(e.t, err, "get deployment %s", name)
	return d
}

// replicaSetsOf returns the replica sets the Deployment name controls,
// oldest first, from the API server.
func (e *env) replicaSetsOf(name string) []*appsv1.ReplicaSet {
	e.t.Helper()
	d := e.get(name)
	list, err := e.cs.ReplicaSets(ns).List(e.ctx(), client.ListOptions{})
	require.NoError(e.t, err)
	var out []*appsv1.ReplicaSet
	for i := range list.Items {
		if ref := list.Items[i].ControllerRef(); ref != nil && ref.UID == d.UID {
			out = append(out, &list.Items[i])
		}
	}
	slices.SortFunc(out, func(a, b *appsv1.ReplicaSet) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return cmp.Compare(a.ResourceVersion, b.ResourceVersion)
	})
	return out
}

// replicaSetFor returns the replica set of the Deployment name running
// image, or nil.
func (e *env) replicaSetFor(name, image string) *appsv1.ReplicaSet {
	e.t.Helper()
	for _, rs := range e.replicaSetsOf(name) {
		if rs.Spec.Template.Spec.Containers[0].Image == image {
			return rs
		}
	}
	return nil
}

// setRSStatus writes the status the replicaset controller would once
// replicas pods exist, available of them available (and ready), for the
// replica set's current generation.
func (e *env) setRSStatus(name string, replicas, available int32) {
	e.t.Helper()
	ctx := e.ctx()
	require.NoError(e.t, client.RetryOnConflict(ctx, retryNow, func() error {
		rs, err := e.cs.ReplicaSets(ns).Get(ctx, name, client.GetOptions{})
		if err != nil {
			return err
		}
		rs.Status = appsv1.ReplicaSetStatus{
			Replicas: replicas, FullyLabeledReplicas: replicas, ReadyReplicas: available,
			AvailableReplicas: available, ObservedGeneration: rs.Generation,
		}
		_, err = e.cs.ReplicaSets(ns).UpdateStatus(ctx, rs, client.WriteOptions{})
		return err
	}), "update status of replica set %s", name)
}

// completeRollout plays the replicaset controller until the Deployment
// name rests: every replica set's pods exist and are available as soon
// as it is scaled.
func (e *env) completeRollout(name string) {
	e.t.Helper()
	for range 100 {
		e.settle()
		changed := false
		for _, rs := range e.replicaSetsOf(name) {
			n := *rs.Spec.Replicas
			if rs.Status.Replicas != n || rs.Status.AvailableReplicas != n || rs.Status.ObservedGeneration != rs.Generation {
				e.setRSStatus(rs.Name, n, n)
				changed = true
			}
		}
		if !changed {
			return
		}
	}
	e.t.Fatalf("deployment %s did not finish its rollout", name)
}

// condition returns the Deployment's condition of type t, or nil.
func condition(d *appsv1.Deployment, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range d.Status.Conditions {
		if d.Status.Conditions[i].Type == t {
			return &d.Status.Conditions[i]
		}
	}
	return nil
}

// requireCondition fails the test unless d has condition t with status
// and reason.
func requireCondition(t *testing.T, d *appsv1.Deployment, ct appsv1.DeploymentConditionType, status corev1.ConditionStatus, reason string) *appsv1.DeploymentCondition {
	t.Helper()
	c := condition(d, ct)
	require.NotNil(t, c, "deployment %s has no %s condition: %+v", d.Name, ct, d.Status.Conditions)
	require.Equal(t, status, c.Status, "%s status of %s", ct, d.Name)
	require.Equal(t, reason, c.Reason, "%s reason of %s", ct, d.Name)
	return c
}

// waitForEvent waits for an event about the Deployment name with reason
// and the message want.
func (e *env) waitForEvent(name, reason, want string) {
	e.t.Helper()
	evt := clustertest.WaitForEvent(e.t, e.cs, ns, func(evt *corev1.Event) bool {
		return evt.InvolvedObject.Name == name && evt.Reason == reason && evt.Message == want
	})
	require.Equal(e.t, "Deployment", evt.InvolvedObject.Kind)
}

// recorder collects what a check finds while a watch runs.
type recorder struct {
	mu     sync.Mutex
	states int
	errs   []string
}

func (r *recorder) observe(errs ...string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.states++
	r.errs = append(r.errs, errs...)
}

func (r *recorder) result() (int, []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.states, slices.Clone(r.errs)
}

// watchAll runs check on every state of the namespace's objects of one
// resource, as a watch delivers them in order from the current list, until
// the returned stop is called. check gets the objects by name and returns
// what is wrong with the state.
func watchAll[T any, PT interface {
	*T
	metav1.Object
}](e *env, list func(context.Context) ([]T, string, error), watchFrom func(context.Context, string) (watch.Interface, error),
	check func(map[string]PT) []string) (stop func() *recorder) {
	e.t.Helper()
	ctx, cancel := context.WithCancel(e.t.Context())
	items, rv, err := list(ctx)
	require.NoError(e.t, err)
	state := map[string]PT{}
	for i := range items {
		state[PT(&items[i]).GetObjectMeta().Name] = &items[i]
	}
	rec := &recorder{}
	rec.observe(check(state)...)
	w, err := watchFrom(ctx, rv)
	require.NoError(e.t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer w.Stop()
		for {
			select {
			case ev, ok := <-w.ResultChan():
				if !ok {
					if ctx.Err() == nil {
						rec.observe("watch ended early")
					}
					return
				}
				obj, isT := ev.Object.(PT)
				if !isT {
					continue
				}
				switch ev.Type {
				case watch.Added, watch.Modified:
					state[obj.GetObjectMeta().Name] = obj
				case watch.Deleted:
					delete(state, obj.GetObjectMeta().Name)
				default:
					continue
				}
				rec.observe(check(state)...)
			case <-ctx.Done():
				return
			}
		}
	}()
	var once sync.Once
	stop = func() *recorder {
		once.Do(func() {
			cancel()
			<-done
		})
		return rec
	}
	e.t.Cleanup(func() { stop() })
	return stop
}

// watchReplicaSets is watchAll over replica sets.
func (e *env) watchReplicaSets(check func(map[string]*appsv1.ReplicaSet) []string) func() *recorder {
	rsClient := e.cs.ReplicaSets(ns)
	return watchAll(e, func(ctx context.Context) ([]appsv1.ReplicaSet, string, error) {
		l, err := rsClient.List(ctx, client.ListOptions{})
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.ResourceVersion, nil
	}, func(ctx context.Context, rv string) (watch.Interface, error) {
		return rsClient.Watch(ctx, client.ListOptions{ResourceVersion: rv})
	}, check)
}

// watchPods is watchAll over pods.
func (e *env) watchPods(check func(map[string]*corev1.Pod) []string) func() *recorder {
	podClient := e.cs.Pods(ns)
	return watchAll(e, func(ctx context.Context) ([]corev1.Pod, string, error) {
		l, err := podClient.List(ctx, client.ListOptions{})
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.ResourceVersion, nil
	}, func(ctx context.Context, rv string) (watch.Interface, error) {
		return podClient.Watch(ctx, client.ListOptions{ResourceVersion: rv})
	}, check)
}

// watchProgressing records the reasons the Progressing condition of the
// Deployment name takes, in order, until stop.
func (e *env) watchProgressing(name string) func() []string {
	dClient := e.cs.Deployments(ns)
	var mu sync.Mutex
	var reasons []string
	stop := watchAll(e, func(ctx context.Context) ([]appsv1.Deployment, string, error) {
		l, err := dClient.List(ctx, client.ListOptions{})
		if err != nil {
			return nil, "", err
		}
		return l.Items, l.ResourceVersion, nil
	}, func(ctx context.Context, rv string) (watch.Interface, error) {
		return dClient.Watch(ctx, client.ListOptions{ResourceVersion: rv})
	}, func(state map[string]*appsv1.Deployment) []string {
		d, ok := state[name]
		if !ok {
			return nil
		}
		c := condition(d, appsv1.DeploymentProgressing)
		if c == nil {
			return nil
		}
		mu.Lock()
		defer mu.Unlock()
		if len(reasons) == 0 || reasons[len(reasons)-1] != c.Reason {
			reasons = append(reasons, c.Reason)
		}
		return nil
	})
	return func() []string {
		stop()
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(reasons)
	}
}

// hashOf returns the pod-template-hash label of a replica set or pod.
func hashOf(meta *metav1.ObjectMeta) string {
	return meta.Labels[appsv1.DefaultDeploymentUniqueLabelKey]
}

// joinErrs formats check failures for a message.
func joinErrs(errs []string) string { return strings.Join(errs, "\n") }
