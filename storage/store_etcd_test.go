package storage_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/wait/waittest"
)

func widget(ns, name string) *storagetest.Widget {
	return &storagetest.Widget{
		TypeMeta:   metav1.TypeMeta{Kind: "Widget", APIVersion: "test.minicp.io/v1"},
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       storagetest.WidgetSpec{Color: "red"},
	}
}

func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	ctx, cancel := waittest.Context(t)
	defer cancel()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "watch closed while an event was expected")
		return ev
	case <-ctx.Done():
		t.Fatalf("no watch event within %v", waittest.Timeout)
		return watch.Event{}
	}
}

func TestNewStoreValidates(t *testing.T) {
	client := storagetest.Client(t)
	tests := []struct {
		name   string
		client bool
		opts   storage.StoreOptions
	}{
		{"no client", false, storage.StoreOptions{NewFunc: storagetest.NewWidget}},
		{"no NewFunc", true, storage.StoreOptions{}},
		{"NewFunc without metadata", true, storage.StoreOptions{NewFunc: func() runtime.Object { return &metav1.Status{} }}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := client
			if !tc.client {
				c = nil
			}
			_, err := storage.NewStore(c, tc.opts)
			assert.Error(t, err, "NewStore with %s", tc.name)
		})
	}
}

// TestStoreLayout pins what is in etcd: the key under the prefix, and the
// JSON without a resourceVersion.
func TestStoreLayout(t *testing.T) {
	// Every spelling of the prefix names the same etcd keys.
	for i, prefix := range []string{"/layout/registry", "layout/registry/", "//layout//registry"} {
		t.Run(strconv.Itoa(i), func(t *testing.T) {
			client := storagetest.Client(t)
			s, err := storage.NewStore(client, storage.StoreOptions{Prefix: prefix, NewFunc: storagetest.NewWidget})
			require.NoError(t, err, "NewStore(prefix %q)", prefix)
			created, err := s.Create(t.Context(), "/widgets/ns/w", widget("ns", "w"))
			require.NoError(t, err, "Create")

			resp, err := client.Get(t.Context(), "/layout/registry/widgets/ns/w")
			require.NoError(t, err, "raw Get")
			require.Len(t, resp.Kvs, 1, "the object is at <prefix>/widgets/ns/w")
			var stored map[string]any
			require.NoError(t, json.Unmarshal(resp.Kvs[0].Value, &stored), "stored bytes are JSON")
			assert.NotContains(t, stored["metadata"], "resourceVersion", "stored metadata has no resourceVersion")
			assert.Equal(t, strconv.FormatInt(resp.Kvs[0].ModRevision, 10),
				metav1.MustAccessor(created).ResourceVersion, "resourceVersion is the revision of the write")
			_, err = s.Delete(t.Context(), "/widgets/ns/w", storage.DeleteOptions{})
			require.NoError(t, err, "Delete")
		})
	}
}

// TestStorePrefixIsolation runs two clusters' stores on one etcd.
func TestStorePrefixIsolation(t *testing.T) {
	client := storagetest.Client(t)
	stores := map[string]*storage.Store{}
	for _, cluster := range []string{"one", "two"} {
		s, err := storage.NewStore(client, storage.StoreOptions{Prefix: storagetest.Prefix(t) + "/" + cluster, NewFunc: storagetest.NewWidget})
		require.NoError(t, err, "NewStore for cluster %s", cluster)
		stores[cluster] = s
		_, err = s.Create(t.Context(), "/widgets/ns/"+cluster, widget("ns", cluster))
		require.NoError(t, err, "Create in cluster %s", cluster)
	}
	for cluster, s := range stores {
		res, err := s.GetList(t.Context(), "/widgets", storage.ListOptions{Recursive: true})
		require.NoError(t, err, "GetList in cluster %s", cluster)
		require.Len(t, res.Items, 1, "cluster %s sees only its own objects", cluster)
		assert.Equal(t, cluster, metav1.MustAccessor(res.Items[0]).Name, "cluster %s's object", cluster)
	}
}

func TestStoreInvalidKeys(t *testing.T) {
	s := newStore(t)
	for _, key := range []string{"", "/", ".", "..", "/widgets/..", "/widgets/../secrets", "../x", "/widgets/./x", "/widgets/."} {
		_, err := s.Get(t.Context(), key, storage.GetOptions{})
		assert.ErrorIs(t, err, storage.ErrInvalidKey, "Get(%q)", key)
		_, err = s.Watch(t.Context(), key, storage.ListOptions{})
		assert.ErrorIs(t, err, storage.ErrInvalidKey, "Watch(%q)", key)
	}
}

func TestStoreResourceVersionErrors(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	created, err := s.Create(ctx, "/widgets/ns/w", widget("ns", "w"))
	require.NoError(t, err, "Create")
	future := strconv.FormatInt(storagetestRV(t, created)+1000, 10)
	tests := []struct {
		name string
		call func() error
		want error
	}{
		{"Get newer than etcd", func() error {
			_, err := s.Get(ctx, "/widgets/ns/w", storage.GetOptions{ResourceVersion: future})
			return err
		}, storage.ErrTooLargeResourceVersion},
		{"list not older than the future", func() error {
			_, err := s.GetList(ctx, "/widgets", storage.ListOptions{Recursive: true, ResourceVersion: future})
			return err
		}, storage.ErrTooLargeResourceVersion},
		{"list exactly at the future", func() error {
			_, err := s.GetList(ctx, "/widgets", storage.ListOptions{Recursive: true, ResourceVersion: future,
				ResourceVersionMatch: storage.ResourceVersionMatchExact})
			return err
		}, storage.ErrTooLargeResourceVersion},
		{"Get with a non-number", func() error {
			_, err := s.Get(ctx, "/widgets/ns/w", storage.GetOptions{ResourceVersion: "abc"})
			return err
		}, storage.ErrInvalidResourceVersion},
		{"list with a negative number", func() error {
			_, err := s.GetList(ctx, "/widgets", storage.ListOptions{ResourceVersion: "-1"})
			return err
		}, storage.ErrInvalidResourceVersion},
		{"watch with a non-number", func() error {
			_, err := s.Watch(ctx, "/widgets", storage.ListOptions{ResourceVersion: "x"})
			return err
		}, storage.ErrInvalidResourceVersion},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.ErrorIs(t, tc.call(), tc.want, tc.name)
		})
	}
	_, err = s.GetList(ctx, "/widgets", storage.ListOptions{ResourceVersionMatch: "Newest"})
	assert.Error(t, err, "GetList with an unknown resourceVersionMatch")
}

// TestStoreCorruptData puts bytes that are not a Widget where one should
// be: every read reports an error, none panics.
func TestStoreCorruptData(t *testing.T) {
	prefix := storagetest.Prefix(t)
	client := storagetest.Client(t)
	s, err := storage.NewStore(client, storage.StoreOptions{Prefix: prefix, NewFunc: storagetest.NewWidget})
	require.NoError(t, err, "NewStore")
	ctx := t.Context()
	created, err := s.Create(ctx, "/widgets/ns/w", widget("ns", "w"))
	require.NoError(t, err, "Create")
	watchFromCreate, err := s.Watch(ctx, "/widgets", storage.ListOptions{Recursive: true, ResourceVersion: metav1.MustAccessor(created).ResourceVersion})
	require.NoError(t, err, "Watch")
	defer watchFromCreate.Stop()
	_, err = client.Put(ctx, prefix+"/widgets/ns/w", "{not json")
	require.NoError(t, err, "raw Put")

	_, err = s.Get(ctx, "/widgets/ns/w", storage.GetOptions{})
	assert.ErrorContains(t, err, "decode", "Get of corrupt data")
	_, err = s.GetList(ctx, "/widgets", storage.ListOptions{Recursive: true})
	assert.ErrorContains(t, err, "decode", "GetList of corrupt data")
	_, err = s.GuaranteedUpdate(ctx, "/widgets/ns/w", storage.UpdateOptions{}, func(cur runtime.Object) (runtime.Object, error) { return cur, nil })
	assert.ErrorContains(t, err, "decode", "GuaranteedUpdate of corrupt data")
	_, err = s.Delete(ctx, "/widgets/ns/w", storage.DeleteOptions{})
	assert.ErrorContains(t, err, "decode", "Delete of corrupt data")

	ev := nextEvent(t, watchFromCreate)
	require.Equal(t, watch.Error, ev.Type, "watch over corrupt data")
	status, ok := ev.Object.(*metav1.Status)
	require.True(t, ok, "Error event carries a *metav1.Status, not %T", ev.Object)
	assert.Equal(t, int32(http.StatusInternalServerError), status.Code, "status code")
	_, open := <-watchFromCreate.ResultChan()
	assert.False(t, open, "watch closes after its Error event")

	initial, err := s.Watch(ctx, "/widgets", storage.ListOptions{Recursive: true, ResourceVersion: "0"})
	require.NoError(t, err, "Watch from 0")
	defer initial.Stop()
	assert.Equal(t, watch.Error, nextEvent(t, initial).Type, "initial list of a watch over corrupt data")
}

// TestStoreBookmarks asks for progress notifications, which the shared
// etcd sends every 100ms to idle watches.
func TestStoreBookmarks(t *testing.T) {
	s := newStore(t)
	created, err := s.Create(t.Context(), "/widgets/ns/w", widget("ns", "w"))
	require.NoError(t, err, "Create")
	w, err := s.Watch(t.Context(), "/widgets", storage.ListOptions{
		Recursive: true, ResourceVersion: metav1.MustAccessor(created).ResourceVersion, ProgressNotify: true,
	})
	require.NoError(t, err, "Watch")
	defer w.Stop()
	// etcd reports progress only once its revision has reached the one the
	// watch starts at (created+1): a write anywhere else gets it there.
	_, err = storagetest.Client(t).Put(t.Context(), storagetest.Prefix(t)+"/elsewhere", "x")
	require.NoError(t, err, "raw Put outside the watched prefix")
	ev := nextEvent(t, w)
	require.Equal(t, watch.Bookmark, ev.Type, "event of an idle watch with ProgressNotify")
	bookmark, ok := ev.Object.(*storagetest.Widget)
	require.True(t, ok, "bookmark object is a %T, not a NewFunc object", ev.Object)
	assert.Greater(t, storagetestRV(t, bookmark), storagetestRV(t, created), "bookmark resourceVersion")
	bookmark.ResourceVersion = ""
	assert.Equal(t, &storagetest.Widget{}, bookmark, "a bookmark carries only a resourceVersion")
}

func storagetestRV(t *testing.T, obj runtime.Object) int64 {
	t.Helper()
	rv, err := strconv.ParseInt(metav1.MustAccessor(obj).ResourceVersion, 10, 64)
	require.NoError(t, err, "resourceVersion of %T", obj)
	return rv
}
