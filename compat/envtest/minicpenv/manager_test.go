package minicpenv_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/builder"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/config"
	"sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/manager"
	metricsserver "sigs.k8s.io/controller-runtime/pkg/metrics/server"
	"sigs.k8s.io/controller-runtime/pkg/reconcile"

	"github.com/minicp/minicp/compat/envtest/minicpenv"
)

// testTimeout bounds each wait of these tests; minicp answers in
// milliseconds, the margin is for a loaded machine.
const testTimeout = 30 * time.Second

var widgetGVK = schema.GroupVersionKind{Group: "example.minicp.io", Version: "v1", Kind: "Widget"}

// start starts env and stops it when t ends.
func start(t *testing.T, env *minicpenv.Environment) *rest.Config {
	t.Helper()
	cfg, err := env.Start()
	require.NoError(t, err, "Start")
	t.Cleanup(func() { assert.NoError(t, env.Stop(), "Stop") })
	return cfg
}

// startManager runs mgr until t ends, and waits until its caches synced.
func startManager(t *testing.T, mgr manager.Manager) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- mgr.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done, "manager.Start")
	})
	syncCtx, cancelSync := context.WithTimeout(ctx, testTimeout)
	defer cancelSync()
	require.True(t, mgr.GetCache().WaitForCacheSync(syncCtx), "WaitForCacheSync")
}

// newManager is a manager on cfg with nothing listening besides its
// controllers: no metrics or health server.
func newManager(t *testing.T, cfg *rest.Config) manager.Manager {
	t.Helper()
	mgr, err := manager.New(cfg, manager.Options{
		Scheme:                 scheme.Scheme,
		Metrics:                metricsserver.Options{BindAddress: "0"},
		HealthProbeBindAddress: "0",
		// Each test builds its controllers anew under the same names.
		Controller: config.Controller{SkipNameValidation: ptr.To(true)},
	})
	require.NoError(t, err, "manager.New")
	return mgr
}

// widgetReconciler keeps a ConfigMap per Widget with the widget's size,
// owned by the widget, and reports the size in status.observedSize. It
// sends each size it wrote on sizes.
type widgetReconciler struct {
	client client.Client
	sizes  chan<- int64
}

func (r *widgetReconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	w := &unstructured.Unstructured{}
	w.SetGroupVersionKind(widgetGVK)
	if err := r.client.Get(ctx, req.NamespacedName, w); err != nil {
		return reconcile.Result{}, client.IgnoreNotFound(err)
	}
	size, _, err := unstructured.NestedInt64(w.Object, "spec", "size")
	if err != nil {
		return reconcile.Result{}, reconcile.TerminalError(err)
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: req.Namespace, Name: "widget-" + req.Name}}
	if _, err := controllerutil.CreateOrUpdate(ctx, r.client, cm, func() error {
		cm.Data = map[string]string{"size": fmt.Sprint(size)}
		return controllerutil.SetControllerReference(w, cm, r.client.Scheme())
	}); err != nil {
		return reconcile.Result{}, err
	}
	if err := unstructured.SetNestedField(w.Object, size, "status", "observedSize"); err != nil {
		return reconcile.Result{}, reconcile.TerminalError(err)
	}
	if err := r.client.Status().Update(ctx, w); err != nil {
		return reconcile.Result{}, err
	}
	select {
	case r.sizes <- size:
	default: // nobody is waiting for this one
	}
	return reconcile.Result{}, nil
}

// waitSize waits until the reconciler reports size.
func waitSize(t *testing.T, sizes <-chan int64, size int64) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	for {
		select {
		case got := <-sizes:
			if got == size {
				return
			}
		case <-ctx.Done():
			t.Fatalf("the reconciler did not write size %d: %v", size, ctx.Err())
		}
	}
}

// TestManagerReconcilesCustomResource runs a controller-runtime manager
// with a reconciler over a CRD installed from a directory, as an operator's
// envtest suite does.
func TestManagerReconcilesCustomResource(t *testing.T) {
	env := &minicpenv.Environment{
		CRDDirectoryPaths:     []string{"testdata/crds"},
		ErrorIfCRDPathMissing: true,
	}
	cfg := start(t, env)
	require.Len(t, env.CRDs, 1, "CRDs installed from testdata/crds")
	assert.Equal(t, "widgets.example.minicp.io", env.CRDs[0].Name, "CRD installed")
	assert.NotEmpty(t, env.KubeConfig, "KubeConfig")

	mgr := newManager(t, cfg)
	sizes := make(chan int64, 1)
	widget := &unstructured.Unstructured{}
	widget.SetGroupVersionKind(widgetGVK)
	err := builder.ControllerManagedBy(mgr).
		For(widget).
		Owns(&corev1.ConfigMap{}).
		Complete(&widgetReconciler{client: mgr.GetClient(), sizes: sizes})
	require.NoError(t, err, "builder")
	startManager(t, mgr)

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := client.New(cfg, client.Options{})
	require.NoError(t, err, "client.New")
	w := &unstructured.Unstructured{Object: map[string]any{"spec": map[string]any{"size": int64(3)}}}
	w.SetGroupVersionKind(widgetGVK)
	w.SetNamespace("default")
	w.SetName("w1")
	require.NoError(t, c.Create(ctx, w), "create widget")
	waitSize(t, sizes, 3)

	cm := &corev1.ConfigMap{}
	require.NoError(t, c.Get(ctx, client.ObjectKey{Namespace: "default", Name: "widget-w1"}, cm), "get ConfigMap")
	assert.Equal(t, "3", cm.Data["size"], "ConfigMap data")
	require.Len(t, cm.OwnerReferences, 1, "ConfigMap owners")
	assert.Equal(t, w.GetUID(), cm.OwnerReferences[0].UID, "ConfigMap owner")

	// The update is seen through the manager's watch of widgets. The
	// reconciler has written the status since w was read: patch, not
	// update, so no resourceVersion is needed.
	patch := client.RawPatch(types.MergePatchType, []byte(`{"spec":{"size":5}}`))
	require.NoError(t, c.Patch(ctx, w, patch), "patch widget")
	waitSize(t, sizes, 5)
	require.NoError(t, c.Get(ctx, client.ObjectKeyFromObject(w), w), "get widget")
	observed, _, _ := unstructured.NestedInt64(w.Object, "status", "observedSize")
	assert.Equal(t, int64(5), observed, "status.observedSize")

	// The CRD's schema is enforced: size has a minimum of 0.
	err = c.Patch(ctx, w, client.RawPatch(types.MergePatchType, []byte(`{"spec":{"size":-1}}`)))
	assert.True(t, apierrors.IsInvalid(err), "patch with size -1: want Invalid, got %v", err)
}

// TestStartErrorIfCRDPathMissing checks that a missing CRD path fails
// Start, and leaves nothing running for Stop.
func TestStartErrorIfCRDPathMissing(t *testing.T) {
	env := &minicpenv.Environment{CRDDirectoryPaths: []string{"testdata/missing"}, ErrorIfCRDPathMissing: true}
	_, err := env.Start()
	require.Error(t, err, "Start with a missing CRD path")
	assert.Nil(t, env.Cluster(), "Cluster after a failed Start")
	assert.NoError(t, env.Stop(), "Stop after a failed Start")
}

// TestUserConfig checks that a user of Users is authenticated with its own
// token and authorized by RBAC through its groups, and that an unknown
// one is not.
func TestUserConfig(t *testing.T) {
	env := &minicpenv.Environment{Users: []envtest.User{
		{Name: "alice", Groups: []string{"system:masters"}},
		{Name: "bob", Groups: []string{"team-b"}},
	}}
	start(t, env)
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()

	cfg, err := env.UserConfig("alice", &rest.Config{QPS: 50})
	require.NoError(t, err, "UserConfig(alice)")
	assert.Equal(t, float32(50), cfg.QPS, "the base config's QPS is kept")
	c, err := client.New(cfg, client.Options{})
	require.NoError(t, err, "client.New")
	require.NoError(t, c.List(ctx, &corev1.NamespaceList{}), "alice lists namespaces")

	bobCfg, err := env.UserConfig("bob", nil)
	require.NoError(t, err, "UserConfig(bob)")
	bob, err := client.New(bobCfg, client.Options{})
	require.NoError(t, err, "client.New")
	err = bob.List(ctx, &corev1.NamespaceList{})
	assert.True(t, apierrors.IsForbidden(err), "bob, whom no role grants it, lists namespaces: want Forbidden, got %v", err)

	_, err = env.UserConfig("carol", nil)
	assert.Error(t, err, "UserConfig(carol), who is not in Users")

	cfg.BearerToken = "not-a-token"
	c, err = client.New(cfg, client.Options{})
	require.NoError(t, err, "client.New")
	err = c.List(ctx, &corev1.NamespaceList{})
	assert.True(t, apierrors.IsUnauthorized(err), "list with a bad token: want Unauthorized, got %v", err)
}

// TestStopWithoutStart checks that Stop is safe in an AfterSuite whose
// BeforeSuite failed before Start.
func TestStopWithoutStart(t *testing.T) {
	env := &minicpenv.Environment{}
	assert.NoError(t, env.Stop(), "Stop")
	_, err := env.UserConfig("alice", nil)
	assert.Error(t, err, "UserConfig before Start")
}

// TestStartTwice checks that a second Start is refused.
func TestStartTwice(t *testing.T) {
	env := &minicpenv.Environment{}
	start(t, env)
	_, err := env.Start()
	assert.Error(t, err, "second Start")
	assert.False(t, errors.Is(err, context.Canceled), "second Start: %v", err)
}
