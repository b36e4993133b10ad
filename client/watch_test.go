package client_test

import (
	"context"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
)

func TestWatchDeliversChangesInOrder(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		pods := cs.Pods("default")
		first := createPods(t, cs, "p", 1, nil)[0]
		w, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: first.ResourceVersion})
		require.NoError(t, err, "Watch")
		defer w.Stop()

		createPods(t, cs, "q", 1, nil)
		_, err = pods.Patch(ctx, "q-0", client.MergePatchType, []byte(`{"metadata":{"labels":{"x":"y"}}}`), client.WriteOptions{})
		require.NoError(t, err)
		require.NoError(t, pods.Delete(ctx, "p-0", metav1.DeleteOptions{}))

		want := []struct {
			typ  watch.EventType
			name string
		}{{watch.Added, "q-0"}, {watch.Modified, "q-0"}, {watch.Deleted, "p-0"}}
		last := 0
		for _, ev := range want {
			got := clustertest.NextEvent(t, w)
			require.Equal(t, ev.typ, got.Type, "event for %s", ev.name)
			pod, ok := got.Object.(*corev1.Pod)
			require.True(t, ok, "a %s event carries a *Pod, got %T", got.Type, got.Object)
			assert.Equal(t, ev.name, pod.Name)
			rv, err := strconv.Atoi(pod.ResourceVersion)
			require.NoError(t, err)
			assert.Greater(t, rv, last, "resourceVersions increase")
			last = rv
		}
		w.Stop()
		clustertest.WaitClosed(t, w)
		w.Stop() // idempotent
	})
}

func TestWatchFromEmptyResourceVersionSendsState(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		createPods(t, cs, "p", 2, map[string]string{"app": "a"})
		createPods(t, cs, "other", 1, nil)
		w, err := cs.Pods("default").Watch(t.Context(), client.ListOptions{LabelSelector: "app=a"})
		require.NoError(t, err)
		defer w.Stop()
		var names []string
		for range 2 {
			ev := clustertest.NextEvent(t, w)
			require.Equal(t, watch.Added, ev.Type)
			names = append(names, ev.Object.(*corev1.Pod).Name)
		}
		assert.ElementsMatch(t, []string{"p-0", "p-1"}, names)
	})
}

func TestWatchEndsWithContext(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx, cancel := context.WithCancel(t.Context())
		w, err := cs.Pods("default").Watch(ctx, client.ListOptions{ResourceVersion: "0"})
		require.NoError(t, err)
		defer w.Stop()
		cancel()
		clustertest.WaitClosed(t, w)
	})
}

func TestWatchEndsWithServerTimeout(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		// 0 would mean "not set", the server's own default of 30 minutes or more.
		one := int64(1)
		w, err := cs.Pods("default").Watch(t.Context(), client.ListOptions{TimeoutSeconds: &one})
		require.NoError(t, err)
		defer w.Stop()
		clustertest.WaitClosed(t, w)
	})
}

func TestWatchCompactedResourceVersionIsGone(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		pods := createPods(t, cs, "p", 3, nil)
		rev, err := strconv.ParseInt(pods[2].ResourceVersion, 10, 64)
		require.NoError(t, err)
		storagetest.Compact(t, storagetest.Client(t), rev)

		// Revision 1 is older than etcd's compacted history and than any
		// watch cache's window: 410 either way.
		w, err := cs.Pods("default").Watch(t.Context(), client.ListOptions{ResourceVersion: "1"})
		require.NoError(t, err, "the server accepts the watch and reports 410 in the stream")
		defer w.Stop()
		ev := clustertest.NextEvent(t, w)
		require.Equal(t, watch.Error, ev.Type)
		st, ok := ev.Object.(*metav1.Status)
		require.True(t, ok, "an Error event carries a *Status, got %T", ev.Object)
		err = apierrors.FromStatus(*st)
		assert.True(t, apierrors.IsGone(err), "compacted watch: %v", err)
		assert.True(t, apierrors.IsResourceExpired(err), "compacted watch: %v", err)
		assert.Equal(t, int32(http.StatusGone), st.Code)
		clustertest.WaitClosed(t, w)
	})
}

func TestWatchBookmarks(t *testing.T) {
	// The watch cache sends bookmarks every BookmarkFrequency; a short one
	// keeps the test quick.
	api := apiservertest.New(t, func(o *apiserver.Options) { o.BookmarkFrequency = 100 * time.Millisecond })
	cs := newClientset(t, client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(api.Handler()), BearerToken: apiservertest.AdminToken})
	first := createPods(t, cs, "p", 1, nil)[0]
	w, err := cs.Pods("default").Watch(t.Context(), client.ListOptions{
		ResourceVersion: first.ResourceVersion, AllowWatchBookmarks: true,
	})
	require.NoError(t, err)
	defer w.Stop()
	ev := clustertest.NextEvent(t, w)
	require.Equal(t, watch.Bookmark, ev.Type)
	pod := ev.Object.(*corev1.Pod)
	assert.NotEmpty(t, pod.ResourceVersion, "a bookmark carries a resourceVersion")
	assert.Empty(t, pod.Name, "and nothing else")
}

func TestWatchRefusedIsAnError(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		_, err := cs.Pods("default").Watch(t.Context(), client.ListOptions{ResourceVersion: "abc"})
		assert.True(t, apierrors.IsBadRequest(err), "watch from a malformed resourceVersion: %v", err)
	})
}
