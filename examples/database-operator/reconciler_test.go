package main

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

// TestReconcileIsIdempotent lets the operator bring a Database to Ready,
// then reconciles it twice more by hand: the reconciler must find nothing
// to do, so no write reaches the API server and no object changes (the
// Secret keeps its password).
func TestReconcileIsIdempotent(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	crd, err := readCRD()
	require.NoError(t, err)
	c := clustertest.New(t, clustertest.WithCRDs(crd), clustertest.WithTypes(AddToScheme))
	ctx, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()

	// The operator's client counts what it writes.
	writes := &writeCounter{next: &http.Transport{TLSClientConfig: c.TLSClientConfig()}}
	scheme, err := client.NewScheme()
	require.NoError(t, err)
	require.NoError(t, AddToScheme(scheme))
	cl, err := client.New(client.Config{Host: c.URL(), BearerToken: c.Token(), Scheme: scheme, Transport: writes})
	require.NoError(t, err)
	t.Cleanup(cl.CloseIdleConnections)
	var r *Reconciler
	mgr := clustertest.StartManager(t, cl, clock.Real, func(mgr *manager.Manager) error {
		var err error
		if r, err = NewReconciler(mgr); err != nil {
			return err
		}
		return r.SetupWithManager(mgr)
	})

	databases, err := client.NewResource[*Database, *DatabaseList](c.Clientset().Client(), databasesGVR)
	require.NoError(t, err)
	databases = databases.Namespace(namespace)
	orders, err := readDatabase("manifests/orders.yaml")
	require.NoError(t, err)
	_, err = databases.Create(ctx, orders, client.WriteOptions{})
	require.NoError(t, err)
	clustertest.WaitFor(t, databases, orders.Name, "Ready", func(db *Database, found bool) bool {
		return found && db.Status.Phase == PhaseReady && db.Status.ReadyReplicas == 2
	})
	require.NoError(t, c.WaitIdle(ctx), "the cluster's controllers are done")
	require.NoError(t, mgr.WaitIdle(ctx), "the operator is done")

	before := snapshot(t, ctx, c.Clientset(), databases, orders.Name)
	converged := writes.list()
	require.NotEmpty(t, converged, "the operator wrote something on its way to Ready")

	req := reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: namespace, Name: orders.Name}}
	for i := range 2 {
		res, err := r.Reconcile(ctx, req)
		require.NoError(t, err, "forced reconcile %d", i+1)
		assert.Equal(t, reconcile.Result{}, res, "forced reconcile %d", i+1)
	}
	require.NoError(t, mgr.WaitIdle(ctx))

	assert.Equal(t, converged, writes.list(), "a reconcile of a converged Database writes nothing")
	assert.Equal(t, before, snapshot(t, ctx, c.Clientset(), databases, orders.Name), "no object changed")
}

// objectState is what the test compares of one object across the forced
// reconciles.
type objectState struct {
	ResourceVersion string
	// Data is the Secret's: the password must never be regenerated.
	Data map[string][]byte
}

// snapshot reads the Database and its three children from the API
// server.
func snapshot(t *testing.T, ctx context.Context, cs *client.Clientset, databases *client.Resource[*Database, *DatabaseList], name string) map[string]objectState {
	t.Helper()
	db, err := databases.Get(ctx, name, client.GetOptions{})
	require.NoError(t, err)
	deploy, err := cs.Deployments(namespace).Get(ctx, name, client.GetOptions{})
	require.NoError(t, err)
	svc, err := cs.Services(namespace).Get(ctx, name, client.GetOptions{})
	require.NoError(t, err)
	secret, err := cs.Secrets(namespace).Get(ctx, secretName(db), client.GetOptions{})
	require.NoError(t, err)
	require.NotEmpty(t, secret.Data["password"])
	return map[string]objectState{
		"database":   {ResourceVersion: db.ResourceVersion},
		"deployment": {ResourceVersion: deploy.ResourceVersion},
		"service":    {ResourceVersion: svc.ResourceVersion},
		"secret":     {ResourceVersion: secret.ResourceVersion, Data: secret.Data},
	}
}

// writeCounter is a RoundTripper that records every request but a GET
// (which lists and watches are too): the writes of the client over it.
type writeCounter struct {
	next *http.Transport

	// mu guards writes.
	mu     sync.Mutex
	writes []string
}

func (w *writeCounter) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Method != http.MethodGet {
		w.mu.Lock()
		w.writes = append(w.writes, req.Method+" "+req.URL.Path)
		w.mu.Unlock()
	}
	return w.next.RoundTrip(req)
}

// CloseIdleConnections lets the client close the transport's
// connections.
func (w *writeCounter) CloseIdleConnections() { w.next.CloseIdleConnections() }

// list returns the writes so far, in order.
func (w *writeCounter) list() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.writes)
}
