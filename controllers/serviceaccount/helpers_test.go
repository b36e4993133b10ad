package serviceaccount_test

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/serviceaccount"
	"github.com/minicp/minicp/informer"
)

// t0 is when the manager's fake clock starts.
var t0 = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

// wiretap counts the service account creates that pass through it, by
// namespace: what the controller asked of the API server (creates), and
// what the server accepted (accepted). A create that races the cache and
// gets AlreadyExists is an attempt, not a second account: upstream's
// controller makes the same harmless attempts.
type wiretap struct {
	next http.RoundTripper
	// mu guards creates and accepted.
	mu       sync.Mutex
	creates  map[string]int
	accepted map[string]int
}

// RoundTrip implements http.RoundTripper.
func (w *wiretap) RoundTrip(req *http.Request) (*http.Response, error) {
	// POST /api/v1/namespaces/{ns}/serviceaccounts
	parts := strings.Split(strings.Trim(req.URL.Path, "/"), "/")
	isCreate := req.Method == http.MethodPost && len(parts) == 5 && parts[0] == "api" && parts[2] == "namespaces" && parts[4] == "serviceaccounts"
	if isCreate {
		w.mu.Lock()
		w.creates[parts[3]]++
		w.mu.Unlock()
	}
	resp, err := w.next.RoundTrip(req)
	if isCreate && err == nil && resp.StatusCode == http.StatusCreated {
		w.mu.Lock()
		w.accepted[parts[3]]++
		w.mu.Unlock()
	}
	return resp, err
}

// createsIn returns how many service account creates went to ns.
func (w *wiretap) createsIn(ns string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.creates[ns]
}

// acceptedIn returns how many service account creates in ns the server
// accepted.
func (w *wiretap) acceptedIn(ns string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.accepted[ns]
}

// harness is an API server, a Manager running only the ServiceAccount
// controller (its client tapped), and the test's own client.
type harness struct {
	cs  *client.Clientset
	mgr *manager.Manager
	tap *wiretap
}

// newHarness starts the API server and the controller; both stop when
// the test ends, the manager first.
func newHarness(t *testing.T) *harness {
	t.Helper()
	api := apiservertest.New(t)
	tap := &wiretap{next: client.NewInMemoryTransport(api.Handler()), creates: map[string]int{}, accepted: map[string]int{}}
	mgrClient, err := client.New(client.Config{Host: "http://in-memory", Transport: tap,
		BearerToken: apiservertest.AdminToken, UserAgent: "serviceaccount-controller"})
	require.NoError(t, err, "client.New")
	mgr, err := manager.New(manager.Options{Client: mgrClient, Clock: clocktest.NewFake(t0)})
	require.NoError(t, err, "manager.New")
	require.NoError(t, serviceaccount.Add(mgr), "serviceaccount.Add")
	clustertest.Start(t, mgr)
	cs, err := client.NewClientset(clustertest.InMemoryClient(t, api))
	require.NoError(t, err, "NewClientset")
	return &harness{cs: cs, mgr: mgr, tap: tap}
}

// testContext returns a context that ends with the test or after clustertest.WaitTimeout.
func testContext(t *testing.T) context.Context {
	ctx, cancel := clustertest.WaitContext(t)
	t.Cleanup(cancel)
	return ctx
}

// watchServiceAccounts watches the service accounts of every namespace,
// starting with the current ones as ADDED events.
func (h *harness) watchServiceAccounts(t *testing.T, ctx context.Context) watch.Interface {
	t.Helper()
	w, err := h.cs.ServiceAccounts("").Watch(ctx, client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err, "watch serviceaccounts")
	t.Cleanup(w.Stop)
	return w
}

// waitForAdded reads w until the service account ns/name is added with a
// uid other than notUID, and returns it.
func waitForAdded(t *testing.T, ctx context.Context, w watch.Interface, ns, name, notUID string) *corev1.ServiceAccount {
	t.Helper()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch of serviceaccounts ended before %s/%s was added", ns, name)
			sa, isSA := ev.Object.(*corev1.ServiceAccount)
			if ev.Type == watch.Added && isSA && sa.Namespace == ns && sa.Name == name && sa.UID != notUID {
				return sa
			}
		case <-ctx.Done():
			t.Fatalf("serviceaccount %s/%s was not added: %v", ns, name, ctx.Err())
		}
	}
}

// observed returns a channel closed once the manager's informer of obj's
// resource has delivered an event matching match: from then on the
// manager's cache holds that change, and Manager.WaitIdle covers the
// controller's reaction to it.
func (h *harness) observed(t *testing.T, obj runtime.Object, match func(obj any) bool) <-chan struct{} {
	t.Helper()
	inf, err := h.mgr.GetCache().GetInformer(obj)
	require.NoError(t, err, "GetInformer(%T)", obj)
	ch := make(chan struct{})
	var once sync.Once
	fire := func(obj any) {
		if match(obj) {
			once.Do(func() { close(ch) })
		}
	}
	reg, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj runtime.Object, _ bool) { fire(obj) },
		UpdateFunc: func(_, obj runtime.Object) { fire(obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			fire(deleted{obj})
		},
	}, informer.HandlerOptions{})
	require.NoError(t, err, "AddEventHandler")
	t.Cleanup(func() { _ = inf.RemoveEventHandler(reg) })
	return ch
}

// deleted marks the object of a delete event for observed's match.
type deleted struct{ obj any }

// wait blocks until ch is closed, failing the test at ctx's end.
func wait(t *testing.T, ctx context.Context, ch <-chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-ctx.Done():
		t.Fatalf("%s: %v", what, ctx.Err())
	}
}
