package informer_test

import (
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/storage/storagetest"
)

// changeWhileAway makes the changes an informer must catch up with after
// being cut off: an update of a, a delete of b, a new c. It returns what a
// watching handler sees of them.
func changeWhileAway(t *testing.T, cs *client.Clientset) (watched []string) {
	t.Helper()
	ctx := t.Context()
	a, err := cs.Pods("default").Get(ctx, "a", client.GetOptions{})
	require.NoError(t, err)
	a2, err := cs.Pods("default").Patch(ctx, "a", client.MergePatchType, []byte(`{"metadata":{"labels":{"v":"2"}}}`), client.WriteOptions{})
	require.NoError(t, err)
	require.NoError(t, cs.Pods("default").Delete(ctx, "b", metav1.DeleteOptions{}))
	createPod(t, cs, "c", nil)
	return []string{"update a " + a.ResourceVersion + "->" + a2.ResourceVersion, "delete b", "add c"}
}

// TestInformerSurvivesAPIServerRestartInMemory starts a second API server
// on the same etcd prefix and stops the first, as a rolling restart of a
// control plane does; the informer re-watches from its last
// resourceVersion and sees everything that happened meanwhile.
func TestInformerSurvivesAPIServerRestartInMemory(t *testing.T) {
	prefix := storagetest.Prefix(t)
	first := newAPIServer(t, prefix)
	ft := newFaultTransport(client.NewInMemoryTransport(first.Handler()))
	cs := newClientset(t, ft)
	createPod(t, cs, "a", nil)
	createPod(t, cs, "b", nil)
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{})
	rec := newRecorder()
	_, err := inf.AddEventHandler(rec, informer.HandlerOptions{})
	require.NoError(t, err)
	run(t, inf)
	assert.ElementsMatch(t, []string{"add a initial", "add b initial"}, rec.nextN(t, 2))

	// A watch cache serves watches from the revision it started at on: an
	// informer whose resourceVersion is older (any write to the etcd
	// between the two, such as the first server's own start-up writes,
	// makes it so) gets 410 and relists, which the HTTPS test below
	// allows. Here the informer sees a write made after the second server
	// is ready, so the second server's cache covers its resourceVersion.
	second := newAPIServer(t, prefix)
	createPod(t, cs, "after-second-start", nil)
	assert.Equal(t, []string{"add after-second-start"}, rec.nextN(t, 1))

	ft.Down() // the first server is gone: its watch ends, requests fail
	direct := newClientset(t, client.NewInMemoryTransport(second.Handler()))
	want := changeWhileAway(t, direct)
	ft.Up(client.NewInMemoryTransport(second.Handler()))

	assert.Equal(t, want, rec.nextN(t, len(want)), "every change, as watch events (no relist)")
	assertMatchesServer(t, direct, inf)
}

// switchTransport sends requests to the current cluster's transport,
// which trusts that cluster's CA and carries its token.
type switchTransport struct{ ft *faultTransport }

func (s switchTransport) RoundTrip(r *http.Request) (*http.Response, error) { return s.ft.RoundTrip(r) }

// TestInformerSurvivesAPIServerRestartHTTPS stops a cluster (its HTTPS
// server goes away, the port is refused) and starts another on the same
// address and etcd prefix.
func TestInformerSurvivesAPIServerRestartHTTPS(t *testing.T) {
	prefix := storagetest.Prefix(t)
	first, stopFirst := startCluster(t, cluster.Options{StoragePrefix: prefix})
	addr, err := url.Parse(first.URL())
	require.NoError(t, err)
	ft := newFaultTransport(first.HTTPClient().Transport)
	c, err := client.New(client.Config{Host: first.URL(), Transport: switchTransport{ft}})
	require.NoError(t, err)
	cs, err := client.NewClientset(c)
	require.NoError(t, err)
	createPod(t, cs, "a", nil)
	createPod(t, cs, "b", nil)
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{})
	rec := newRecorder()
	_, err = inf.AddEventHandler(rec, informer.HandlerOptions{})
	require.NoError(t, err)
	run(t, inf)
	assert.ElementsMatch(t, []string{"add a initial", "add b initial"}, rec.nextN(t, 2))

	// The informer now retries against a closed port (connection refused)
	// until the second cluster listens there.
	stopFirst()
	second, _ := startCluster(t, cluster.Options{StoragePrefix: prefix, ListenAddr: addr.Host})
	direct, err := client.New(client.Config{Host: second.URL(), CAData: second.CACertificate(), BearerToken: second.Token()})
	require.NoError(t, err)
	directCS, err := client.NewClientset(direct)
	require.NoError(t, err)
	want := changeWhileAway(t, directCS)
	// The new cluster has a new CA: switch to a transport that trusts it.
	ft.Up(second.HTTPClient().Transport)

	// The informer resumes from its last resourceVersion if the new API
	// server's watch cache still covers it, and relists otherwise (its
	// cache starts at the revision it first listed, and the new server
	// writes the kubernetes Service's endpoints on start): then b's delete
	// arrives as a tombstone, after the adds. Either way it ends in step.
	got := rec.nextN(t, len(want))
	for i, ev := range got {
		got[i] = strings.TrimSuffix(ev, " (tombstone)")
	}
	assert.ElementsMatch(t, want, got)
	assertMatchesServer(t, directCS, inf)
}

// TestInformerRelistsAfterCompaction cuts an informer off, changes the
// world, and compacts etcd past the informer's resourceVersion: its watch
// gets 410 Expired, it relists, and reports the pod deleted meanwhile as
// a DeletedFinalStateUnknown.
func TestInformerRelistsAfterCompaction(t *testing.T) {
	// Without a watch cache, so the re-watch reaches etcd, whose history is
	// compacted: a watch cache would still hold the events and resume.
	api := newAPIServer(t, storagetest.Prefix(t), func(o *apiserver.Options) { o.WatchCacheDisabled = true })
	ft := newFaultTransport(client.NewInMemoryTransport(api.Handler()))
	cs := newClientset(t, ft)
	direct := newClientset(t, client.NewInMemoryTransport(api.Handler()))
	createPod(t, cs, "a", nil)
	createPod(t, cs, "b", nil)
	inf := newPodInformer(t, cs, informer.SharedInformerOptions{})
	rec := newRecorder()
	_, err := inf.AddEventHandler(rec, informer.HandlerOptions{})
	require.NoError(t, err)
	run(t, inf)
	assert.ElementsMatch(t, []string{"add a initial", "add b initial"}, rec.nextN(t, 2))
	staleRV := inf.LastSyncResourceVersion()

	ft.Down()
	want := changeWhileAway(t, direct)
	c, err := direct.Pods("default").Get(t.Context(), "c", client.GetOptions{})
	require.NoError(t, err)
	rev, err := strconv.ParseInt(c.ResourceVersion, 10, 64)
	require.NoError(t, err)
	storagetest.Compact(t, storagetest.Client(t), rev)
	ft.Up(client.NewInMemoryTransport(api.Handler()))

	// A relist delivers a's update and c's add as before, but b's delete
	// carries a tombstone: the informer never saw b's final state.
	want[1] = "delete b (tombstone)"
	assert.ElementsMatch(t, want, rec.nextN(t, len(want)))
	assertMatchesServer(t, direct, inf)
	assert.NotEqual(t, staleRV, inf.LastSyncResourceVersion())
}

// startCluster runs a cluster on the shared etcd; stop (also called when
// the test ends) stops it and waits.
func startCluster(t *testing.T, opts cluster.Options) (*cluster.Cluster, func()) {
	t.Helper()
	opts.Etcd = storagetest.Client(t)
	c, err := cluster.New(opts)
	require.NoError(t, err)
	running := clustertest.Start(t, c)
	select {
	case <-c.Ready():
	case <-running.Done():
		t.Fatal("the cluster stopped before it was ready")
	}
	return c, running.Stop
}
