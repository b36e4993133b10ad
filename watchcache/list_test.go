package watchcache_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

type page struct {
	items     []string
	more      bool
	remaining *int64
}

// listPages follows continue tokens from first to last page.
func listPages(t *testing.T, s storage.Interface, key string, opts storage.ListOptions) ([]page, int64) {
	t.Helper()
	var pages []page
	var listRV int64
	for {
		res, err := s.GetList(waitCtx(t), key, opts)
		require.NoError(t, err, "GetList(%q) page %d", key, len(pages))
		if listRV == 0 {
			listRV = res.ResourceVersion
		}
		require.Equal(t, listRV, res.ResourceVersion, "page %d is at the first page's revision", len(pages))
		pages = append(pages, page{names(t, res.Items), res.Continue != "", res.RemainingItemCount})
		if res.Continue == "" {
			return pages, listRV
		}
		require.Less(t, len(pages), 50, "pagination does not end")
		opts.Predicate.Continue = res.Continue
	}
}

// TestGetListFromCache: lists at resourceVersion "0" from the cache give
// what etcd gives for the same state, in every shape the registry asks.
func TestGetListFromCache(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store, Indexers: map[string]watchcache.IndexFunc{"spec.color": colorIndex}})
	web := map[string]string{"app": "web"}
	var last *storagetest.Widget
	for i, w := range []*storagetest.Widget{
		newWidget("a", "w1", "red", web), newWidget("a", "w2", "blue", nil), newWidget("a", "w3", "blue", web),
		newWidget("ab", "w4", "red", nil), newWidget("b", "w5", "red", web), newWidget("b", "w6", "green", nil),
	} {
		last = create(t, store, w)
		if i == 5 {
			del(t, store, "a", "w2")
			last = create(t, store, newWidget("a", "w2", "blue", nil))
		}
	}
	waitSeen(t, c, rvOf(t, last))
	blue := fields.OneTermEqualSelector("spec.color", "blue")
	tests := []struct {
		name      string
		key       string
		recursive bool
		pred      storage.Predicate
	}{
		{"all", widgetPrefix, true, storage.Predicate{}},
		{"namespace", widgetPrefix + "/a", true, storage.Predicate{}},
		{"namespace, trailing slash", widgetPrefix + "/a/", true, storage.Predicate{}},
		{"label", widgetPrefix, true, storage.Predicate{Label: labels.SelectorFromSet(web)}},
		{"indexed field", widgetPrefix, true, storage.Predicate{Field: blue, GetAttrs: storagetest.WidgetAttrs}},
		{"indexed field in a namespace", widgetPrefix + "/b", true, storage.Predicate{Field: blue, GetAttrs: storagetest.WidgetAttrs}},
		{"field != ", widgetPrefix, true, storage.Predicate{Field: mustParseFields(t, "spec.color!=red"), GetAttrs: storagetest.WidgetAttrs}},
		{"one key", widgetKey("a", "w1"), false, storage.Predicate{}},
		{"one key, filtered out", widgetKey("a", "w1"), false, storage.Predicate{Label: labels.SelectorFromSet(labels.Set{"app": "db"})}},
		{"missing key", widgetKey("a", "missing"), false, storage.Predicate{}},
		{"limit 2", widgetPrefix, true, storage.Predicate{Limit: 2}},
		{"limit 2, label", widgetPrefix, true, storage.Predicate{Limit: 2, Label: labels.SelectorFromSet(web)}},
		{"limit 1, indexed field", widgetPrefix, true, storage.Predicate{Limit: 1, Field: blue, GetAttrs: storagetest.WidgetAttrs}},
		{"limit larger than the list", widgetPrefix, true, storage.Predicate{Limit: 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			opts := storage.ListOptions{Recursive: tc.recursive, Predicate: tc.pred}
			wantPages, _ := listPages(t, store, tc.key, opts)
			opts.ResourceVersion = "0"
			gotPages, rv := listPages(t, c, tc.key, opts)
			assert.GreaterOrEqual(t, rv, rvOf(t, last), "revision of the cache's list")
			// etcd may end a selector's pages with an empty one when keys
			// remain that do not match; the cache knows they do not.
			if n := len(wantPages); n > 1 && len(wantPages[n-1].items) == 0 {
				wantPages = wantPages[:n-1]
				wantPages[n-2].more = false
			}
			assert.Equal(t, wantPages, gotPages, "pages from the cache and from etcd")
		})
	}
}

// TestGetListContinueAfterChange: a continue token of a state the cache
// no longer holds is served by etcd at the token's revision, so the pages
// still show one state.
func TestGetListContinueAfterChange(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	var last *storagetest.Widget
	for i := range 5 {
		last = create(t, store, newWidget("p", numbered(i), "red", nil))
	}
	waitSeen(t, c, rvOf(t, last))
	opts := storage.ListOptions{Recursive: true, ResourceVersion: "0", Predicate: storage.Predicate{Limit: 2}}
	first, err := c.GetList(waitCtx(t), widgetPrefix, opts)
	require.NoError(t, err, "first page")
	assert.Equal(t, []string{"p/w000", "p/w001"}, names(t, first.Items), "first page")
	require.NotNil(t, first.RemainingItemCount, "remaining count without a selector")
	assert.Equal(t, int64(3), *first.RemainingItemCount, "remaining count")

	del(t, store, "p", "w002")
	changed := create(t, store, newWidget("p", "w0015", "red", nil))
	waitSeen(t, c, rvOf(t, changed))
	opts.Predicate.Continue = first.Continue
	second, err := c.GetList(waitCtx(t), widgetPrefix, opts)
	require.NoError(t, err, "second page after a change")
	assert.Equal(t, []string{"p/w002", "p/w003"}, names(t, second.Items), "second page shows the first page's state")
	assert.Equal(t, first.ResourceVersion, second.ResourceVersion, "at the first page's revision")

	opts.Predicate.Continue = "not-a-token"
	_, err = c.GetList(waitCtx(t), widgetPrefix, opts)
	assert.ErrorIs(t, err, storage.ErrInvalidContinue, "a bad continue token")
}

// TestGetListDelegates: consistent and exact reads go to etcd, so they see
// a write the cache may not have yet, and old revisions.
func TestGetListDelegates(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	first := create(t, store, newWidget("ns", "a", "red", nil))
	create(t, store, newWidget("ns", "b", "red", nil))
	res, err := c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true})
	require.NoError(t, err, "GetList rv=\"\"")
	assert.Equal(t, []string{"ns/a", "ns/b"}, names(t, res.Items), "a consistent list sees every write")
	res, err = c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: first.ResourceVersion,
		ResourceVersionMatch: storage.ResourceVersionMatchExact})
	require.NoError(t, err, "GetList Exact")
	assert.Equal(t, []string{"ns/a"}, names(t, res.Items), "an exact list at the first write")
	_, err = c.GetList(waitCtx(t), widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "x"})
	assert.ErrorIs(t, err, storage.ErrInvalidResourceVersion, "GetList rv=x")
}

func TestGetFromCache(t *testing.T) {
	store := newStore(t)
	c := startCacher(t, watchcache.Options{Storage: store})
	created := create(t, store, newWidget("ns", "a", "red", nil))
	waitSeen(t, c, rvOf(t, created))
	got, err := c.Get(waitCtx(t), widgetKey("ns", "a"), storage.GetOptions{ResourceVersion: "0"})
	require.NoError(t, err, "Get rv=0")
	assert.Equal(t, created, got, "Get rv=0 from the cache")

	_, err = c.Get(waitCtx(t), widgetKey("ns", "missing"), storage.GetOptions{ResourceVersion: "0"})
	assert.ErrorIs(t, err, storage.ErrNotFound, "Get rv=0 of a missing key")
	got, err = c.Get(waitCtx(t), widgetKey("ns", "missing"), storage.GetOptions{ResourceVersion: "0", IgnoreNotFound: true})
	require.NoError(t, err, "Get rv=0 IgnoreNotFound")
	assert.Equal(t, &storagetest.Widget{}, got, "a zero object")
	_, err = c.Get(waitCtx(t), widgetKey("ns", ".."), storage.GetOptions{ResourceVersion: "0"})
	assert.ErrorIs(t, err, storage.ErrInvalidKey, "Get rv=0 of a malformed key, as storage answers it")
}

func mustParseFields(t *testing.T, s string) fields.Selector {
	t.Helper()
	sel, err := fields.ParseSelector(s)
	require.NoError(t, err, "ParseSelector(%q)", s)
	return sel
}
