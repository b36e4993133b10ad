package controller_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/controllers/source"
)

func newClientset(t *testing.T) *client.Clientset {
	t.Helper()
	return clustertest.InMemoryClientset(t, apiservertest.New(t))
}

func start(t *testing.T, mgr *manager.Manager) {
	t.Helper()
	clustertest.Start(t, mgr)
}

func createPod(t *testing.T, cs *client.Clientset, name string) {
	t.Helper()
	_, err := cs.Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, client.WriteOptions{})
	require.NoError(t, err, "create pod %s", name)
}

// reporter is a Reconciler that reports each Request on a channel.
func reporter() (reconcile.Reconciler, chan reconcile.Request) {
	ch := make(chan reconcile.Request, 100)
	return reconcile.Func(func(_ context.Context, req reconcile.Request) (reconcile.Result, error) {
		ch <- req
		return reconcile.Result{}, nil
	}), ch
}

// waitFor receives from ch until want comes.
func waitFor(t *testing.T, ch <-chan reconcile.Request, want reconcile.Request) {
	t.Helper()
	clustertest.ReceiveUntil(t, ch, want.String()+" reconciled", func(got reconcile.Request) bool { return got == want })
}

var webReq = reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "default", Name: "web"}}

func TestControllerByHand(t *testing.T) {
	cs := newClientset(t)
	mgr, err := manager.New(manager.Options{Client: cs.Client()})
	require.NoError(t, err)
	r, reconciled := reporter()
	c, err := controller.New("pods", mgr, controller.Options{Reconciler: r})
	require.NoError(t, err)
	assert.Equal(t, "pods", c.Name())
	assert.True(t, c.NeedLeaderElection(), "controllers run on the leader by default")
	require.NoError(t, c.Watch(source.Kind(mgr.GetCache(), &corev1.Pod{}, handler.EnqueueRequestForObject{})))
	start(t, mgr)
	createPod(t, cs, "web")
	waitFor(t, reconciled, webReq)
}

func TestControllerWithoutLeaderElectionRunsOnAStandby(t *testing.T) {
	cs := newClientset(t)
	clk := clocktest.NewFake(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	// Another manager holds the Lease, and keeps it as far as this
	// manager's clock goes.
	renewed := metav1.NewMicroTime(clk.Now())
	_, err := cs.Leases(manager.DefaultLeaderElectionNamespace).Create(t.Context(), &coordinationv1.Lease{
		ObjectMeta: metav1.ObjectMeta{Name: "lock"},
		Spec: coordinationv1.LeaseSpec{HolderIdentity: new("other"), LeaseDurationSeconds: new(int32(15)),
			RenewTime: &renewed},
	}, client.WriteOptions{})
	require.NoError(t, err)
	mgr, err := manager.New(manager.Options{Client: cs.Client(), Clock: clk,
		LeaderElection: true, LeaderElectionID: "lock", LeaderElectionIdentity: "standby"})
	require.NoError(t, err)

	leaderOnly, leaderCh := reporter()
	everywhere, everywhereCh := reporter()
	for name, opts := range map[string]controller.Options{
		"leader-only": {Reconciler: leaderOnly},
		"everywhere":  {Reconciler: everywhere, NeedLeaderElection: new(false), MaxConcurrentReconciles: 2},
	} {
		c, err := controller.New(name, mgr, opts)
		require.NoError(t, err)
		require.NoError(t, c.Watch(source.Kind(mgr.GetCache(), &corev1.Pod{}, handler.EnqueueRequestForObject{})))
	}
	start(t, mgr)
	createPod(t, cs, "web")
	waitFor(t, everywhereCh, webReq)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	require.NoError(t, mgr.WaitIdle(ctx))
	assert.Empty(t, leaderCh, "a leader-only controller does not run on a standby")
	select {
	case <-mgr.Elected():
		t.Fatal("the standby was elected")
	default:
	}
}

func TestNewValidates(t *testing.T) {
	cs := newClientset(t)
	mgr, err := manager.New(manager.Options{Client: cs.Client()})
	require.NoError(t, err)
	r, _ := reporter()
	_, err = controller.New("", mgr, controller.Options{Reconciler: r})
	assert.Error(t, err, "a name is required")
	_, err = controller.New("x", mgr, controller.Options{})
	assert.Error(t, err, "a Reconciler is required")
	_, err = controller.New("x", nil, controller.Options{Reconciler: r})
	assert.Error(t, err, "a Manager is required")
	_, err = controller.New("x", mgr, controller.Options{Reconciler: r, MaxConcurrentReconciles: -1})
	assert.Error(t, err, "MaxConcurrentReconciles must be positive")
}
