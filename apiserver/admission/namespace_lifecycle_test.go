package admission_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/clock/clocktest"
)

var namespacesResource = runtime.GroupVersionResource{Version: "v1", Resource: "namespaces"}

// fakeNamespaces is a NamespaceGetter with a cache that lags "etcd" as
// the test decides, and counts the live lookups.
type fakeNamespaces struct {
	// mu guards every field.
	mu     sync.Mutex
	cached map[string]*corev1.Namespace
	live   map[string]*corev1.Namespace
	// liveLookups counts GetNamespace calls with Live.
	liveLookups int
}

func newFakeNamespaces() *fakeNamespaces {
	return &fakeNamespaces{cached: map[string]*corev1.Namespace{}, live: map[string]*corev1.Namespace{}}
}

func (f *fakeNamespaces) GetNamespace(_ context.Context, name string, opts admission.GetNamespaceOptions) (*corev1.Namespace, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	from := f.cached
	if opts.Live {
		f.liveLookups++
		from = f.live
	}
	ns, ok := from[name]
	if !ok {
		return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "namespaces"}, name)
	}
	return ns, nil
}

// set puts ns in etcd and, when cached, in the cache too.
func (f *fakeNamespaces) set(ns *corev1.Namespace, cached bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.live[ns.Name] = ns
	if cached {
		f.cached[ns.Name] = ns
	}
}

func (f *fakeNamespaces) lookups() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.liveLookups
}

func namespace(name string, phase corev1.NamespacePhase) *corev1.Namespace {
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}, Status: corev1.NamespaceStatus{Phase: phase}}
}

func createPod(ns string) *admission.Attributes {
	return &admission.Attributes{Operation: admission.Create, Resource: podsResource, Namespace: ns, Name: "p"}
}

func deleteNamespace(name string) *admission.Attributes {
	return &admission.Attributes{Operation: admission.Delete, Resource: namespacesResource, Name: name}
}

// TestNamespaceLifecycleReadsCache: an active namespace in the cache is
// admitted without a live lookup; a refusal (missing or terminating) is
// confirmed by one.
func TestNamespaceLifecycleReadsCache(t *testing.T) {
	tests := []struct {
		name string
		// inEtcd and inCache are the namespace "team" in each, nil for none.
		inEtcd, inCache *corev1.Namespace
		wantCode        int32 // 0: admitted
		wantLive        int
	}{
		{"active in the cache", namespace("team", corev1.NamespaceActive), namespace("team", corev1.NamespaceActive), 0, 0},
		{"terminating in the cache and etcd", namespace("team", corev1.NamespaceTerminating), namespace("team", corev1.NamespaceTerminating), 403, 1},
		{"terminating in the cache, created again in etcd", namespace("team", corev1.NamespaceActive), namespace("team", corev1.NamespaceTerminating), 0, 1},
		{"new: only in etcd", namespace("team", corev1.NamespaceActive), nil, 0, 1},
		{"missing everywhere", nil, nil, 404, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeNamespaces()
			if tc.inCache != nil {
				f.set(tc.inCache, true)
			}
			if tc.inEtcd != nil {
				f.set(tc.inEtcd, false)
			}
			p := &admission.NamespaceLifecycle{Namespaces: f, Clock: clocktest.NewFake(time.Unix(0, 0))}
			err := p.Validate(t.Context(), createPod("team"))
			if tc.wantCode == 0 {
				require.NoError(t, err, "create in a namespace %s", tc.name)
			} else {
				require.Error(t, err, "create in a namespace %s", tc.name)
				assert.Equal(t, tc.wantCode, apierrors.CodeForError(err), "status code (%v)", err)
			}
			assert.Equal(t, tc.wantLive, f.lookups(), "live lookups")
		})
	}
}

// TestNamespaceLifecycleForcesLiveLookupAfterDelete: once this server has
// admitted a namespace's delete, a create in it is refused even while the
// cache still shows it active, for forceLiveLookupTTL (30s).
func TestNamespaceLifecycleForcesLiveLookupAfterDelete(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	f := newFakeNamespaces()
	f.set(namespace("team", corev1.NamespaceActive), true)
	f.set(namespace("other", corev1.NamespaceActive), true)
	p := &admission.NamespaceLifecycle{Namespaces: f, Clock: clk}
	ctx := t.Context()

	require.NoError(t, p.Validate(ctx, deleteNamespace("team")), "delete of namespace team")
	// etcd has it Terminating; the cache has not seen it yet.
	f.set(namespace("team", corev1.NamespaceTerminating), false)
	err := p.Validate(ctx, createPod("team"))
	require.Error(t, err, "create in team while the cache lags")
	assert.True(t, apierrors.IsForbidden(err), "403 (%v)", err)
	assert.True(t, apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause), "cause %s", corev1.NamespaceTerminatingCause)
	assert.Equal(t, 1, f.lookups(), "one live lookup")

	require.NoError(t, p.Validate(ctx, createPod("other")), "create in another namespace")
	assert.Equal(t, 1, f.lookups(), "no live lookup for a namespace nobody deleted")

	// Past the TTL, a namespace the cache shows active (created again
	// since, say) is taken at the cache's word.
	f.set(namespace("team", corev1.NamespaceActive), true)
	clk.Step(29 * time.Second)
	require.NoError(t, p.Validate(ctx, createPod("team")), "create in an active team within the TTL")
	assert.Equal(t, 2, f.lookups(), "live lookup within the TTL")
	clk.Step(time.Second)
	require.NoError(t, p.Validate(ctx, createPod("team")), "create in an active team after the TTL")
	assert.Equal(t, 2, f.lookups(), "no live lookup after the TTL")
}

// TestNamespaceLifecycleForceLiveLookupIsBounded: remembering more deleted
// namespaces than the bound forgets the oldest, never the newest.
func TestNamespaceLifecycleForceLiveLookupIsBounded(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	f := newFakeNamespaces()
	p := &admission.NamespaceLifecycle{Namespaces: f, Clock: clk}
	const n = 101 // one past the bound of 100
	for i := range n {
		name := fmt.Sprintf("ns%03d", i)
		f.set(namespace(name, corev1.NamespaceActive), true)
		require.NoError(t, p.Validate(t.Context(), deleteNamespace(name)), "delete of %s", name)
		clk.Step(time.Millisecond)
	}
	require.NoError(t, p.Validate(t.Context(), createPod("ns000")), "create in the oldest deleted namespace")
	assert.Equal(t, 0, f.lookups(), "the oldest namespace was forgotten")
	require.NoError(t, p.Validate(t.Context(), createPod(fmt.Sprintf("ns%03d", n-1))), "create in the newest deleted namespace")
	assert.Equal(t, 1, f.lookups(), "the newest namespace is remembered")
}

// TestNamespaceLifecycleImmortal: the namespaces every cluster needs
// cannot be deleted.
func TestNamespaceLifecycleImmortal(t *testing.T) {
	p := &admission.NamespaceLifecycle{Namespaces: newFakeNamespaces()}
	for _, name := range admission.ImmortalNamespaces {
		err := p.Validate(t.Context(), deleteNamespace(name))
		assert.True(t, apierrors.IsForbidden(err), "delete of %s: %v", name, err)
	}
}
