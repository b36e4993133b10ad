package storagetest

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	"github.com/minicp/minicp/storage"
)

func testListSelectors(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	web, db := labels.Set{"app": "web"}, labels.Set{"app": "db"}
	var last *Widget
	for _, w := range []*Widget{
		newWidget("a", "w1", "red", web),
		newWidget("a", "w2", "blue", db),
		newWidget("a", "w3", "blue", web),
		newWidget("b", "w4", "red", web),
		// "ab" shares "a" as a string prefix: listing namespace "a" must
		// not reach it.
		newWidget("ab", "w5", "red", db),
	} {
		last = create(ctx, t, s, w)
	}
	tests := []struct {
		name      string
		key       string
		recursive bool
		pred      storage.Predicate
		want      []string
	}{
		{"namespace", "/widgets/a", true, storage.Predicate{}, []string{"a/w1", "a/w2", "a/w3"}},
		{"namespace with trailing slash", "/widgets/a/", true, storage.Predicate{}, []string{"a/w1", "a/w2", "a/w3"}},
		{"all namespaces", "/widgets", true, storage.Predicate{}, []string{"a/w1", "a/w2", "a/w3", "ab/w5", "b/w4"}},
		{"label", "/widgets", true, storage.Predicate{Label: labels.SelectorFromSet(web)}, []string{"a/w1", "a/w3", "b/w4"}},
		{"field of the kind", "/widgets", true,
			storage.Predicate{Field: fields.SelectorFromSet(fields.Set{"spec.color": "blue"}), GetAttrs: WidgetAttrs},
			[]string{"a/w2", "a/w3"}},
		{"label and default field", "/widgets", true,
			storage.Predicate{Label: labels.SelectorFromSet(web), Field: fields.SelectorFromSet(fields.Set{"metadata.namespace": "a"})},
			[]string{"a/w1", "a/w3"}},
		{"metadata.name without GetAttrs", "/widgets", true,
			storage.Predicate{Field: fields.SelectorFromSet(fields.Set{"metadata.name": "w4"})}, []string{"b/w4"}},
		{"selector matching nothing", "/widgets", true, storage.Predicate{Label: labels.SelectorFromSet(labels.Set{"app": "none"})}, []string{}},
		{"one key", widgetKey("a", "w1"), false, storage.Predicate{}, []string{"a/w1"}},
		{"one key, filtered out", widgetKey("a", "w1"), false, storage.Predicate{Label: labels.SelectorFromSet(db)}, []string{}},
		{"one missing key", widgetKey("a", "missing"), false, storage.Predicate{}, []string{}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.GetList(ctx, tc.key, storage.ListOptions{Recursive: tc.recursive, Predicate: tc.pred})
			require.NoError(t, err, "GetList(%q)", tc.key)
			assert.Equal(t, tc.want, names(t, res.Items), "GetList(%q) items", tc.key)
			assert.GreaterOrEqual(t, res.ResourceVersion, rv(t, last), "GetList(%q) resourceVersion", tc.key)
			assert.Empty(t, res.Continue, "GetList(%q) without a limit has one page", tc.key)
		})
	}
}

// createNumbered creates widgets p/n0 .. p/n<count-1>; even ones are labelled
// parity=even, odd ones parity=odd.
func createNumbered(t *testing.T, s storage.Interface, count int) {
	t.Helper()
	for i := range count {
		parity := map[string]string{"parity": []string{"even", "odd"}[i%2]}
		create(t.Context(), t, s, newWidget("p", fmt.Sprintf("n%d", i), "red", parity))
	}
}

type page struct {
	items     []string
	more      bool
	remaining *int64
}

// listPages lists /widgets/p page by page, following continue tokens.
func listPages(t *testing.T, s storage.Interface, pred storage.Predicate, between func(pageIndex int)) []page {
	t.Helper()
	var pages []page
	var listRV int64
	for {
		res, err := s.GetList(t.Context(), "/widgets/p", storage.ListOptions{Recursive: true, Predicate: pred})
		require.NoError(t, err, "GetList page %d (continue %q)", len(pages), pred.Continue)
		if listRV == 0 {
			listRV = res.ResourceVersion
		}
		assert.Equal(t, listRV, res.ResourceVersion, "page %d is read at the first page's revision", len(pages))
		pages = append(pages, page{items: names(t, res.Items), more: res.Continue != "", remaining: res.RemainingItemCount})
		if res.Continue == "" {
			return pages
		}
		require.Less(t, len(pages), 20, "pagination does not end")
		if between != nil {
			between(len(pages) - 1)
		}
		pred.Continue = res.Continue
	}
}

func testListPagination(t *testing.T, s storage.Interface) {
	createNumbered(t, s, 5)
	// Between the pages the state changes; every page still shows the state
	// of the first page's revision.
	pages := listPages(t, s, storage.Predicate{Limit: 2}, func(i int) {
		if i == 0 {
			create(t.Context(), t, s, newWidget("p", "n5", "red", nil))
			del(t.Context(), t, s, widgetKey("p", "n2"))
		}
	})
	want := []page{
		{items: []string{"p/n0", "p/n1"}, more: true, remaining: ptr[int64](3)},
		{items: []string{"p/n2", "p/n3"}, more: true, remaining: ptr[int64](1)},
		{items: []string{"p/n4"}},
	}
	assert.Equal(t, want, pages, "pages of limit 2")

	_, err := s.GetList(t.Context(), "/widgets/p", storage.ListOptions{Recursive: true,
		Predicate: storage.Predicate{Limit: 2, Continue: "not-a-token"}})
	assert.ErrorIs(t, err, storage.ErrInvalidContinue, "GetList with a bad continue token")
}

func testListPaginationWithSelector(t *testing.T, s storage.Interface) {
	createNumbered(t, s, 9)
	even := storage.Predicate{Label: labels.SelectorFromSet(labels.Set{"parity": "even"}), Limit: 2}
	pages := listPages(t, s, even, nil)
	// Pages are full until the end, though only half the keys match; the
	// remaining count is unknown with a selector.
	want := []page{
		{items: []string{"p/n0", "p/n2"}, more: true},
		{items: []string{"p/n4", "p/n6"}, more: true},
		{items: []string{"p/n8"}},
	}
	assert.Equal(t, want, pages, "pages of limit 2 with parity=even")
}

func testListContinueAfterCompaction(t *testing.T, s storage.Interface) {
	createNumbered(t, s, 3)
	opts := storage.ListOptions{Recursive: true, Predicate: storage.Predicate{Limit: 1}}
	first, err := s.GetList(t.Context(), "/widgets/p", opts)
	require.NoError(t, err, "GetList first page")
	require.NotEmpty(t, first.Continue, "first page of 3 with limit 1 has a continue token")
	latest := update(t.Context(), t, s, widgetKey("p", "n0"), func(w *Widget) { w.Spec.Counter++ })
	Compact(t, Client(t), rv(t, latest))

	opts.Predicate.Continue = first.Continue
	_, err = s.GetList(t.Context(), "/widgets/p", opts)
	require.ErrorIs(t, err, storage.ErrExpired, "GetList continuing at compacted revision %d", first.ResourceVersion)
	assert.Contains(t, err.Error(), "The provided continue parameter is too old", "expired detail")
}

func testListAtResourceVersion(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	rv1 := rv(t, create(ctx, t, s, newWidget("ns", "a", "red", nil)))
	rv2 := rv(t, create(ctx, t, s, newWidget("ns", "b", "red", nil)))
	tests := []struct {
		name   string
		rv     string
		match  storage.ResourceVersionMatch
		want   []string
		wantRV int64 // 0: at least rv2
	}{
		{"exact first", rvString(rv1), storage.ResourceVersionMatchExact, []string{"ns/a"}, rv1},
		{"exact second", rvString(rv2), storage.ResourceVersionMatchExact, []string{"ns/a", "ns/b"}, rv2},
		{"not older than first", rvString(rv1), storage.ResourceVersionMatchNotOlderThan, []string{"ns/a", "ns/b"}, 0},
		{"default match", rvString(rv1), "", []string{"ns/a", "ns/b"}, 0},
		{"latest", "", "", []string{"ns/a", "ns/b"}, 0},
		{"zero", "0", "", []string{"ns/a", "ns/b"}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			res, err := s.GetList(ctx, "/widgets/ns", storage.ListOptions{Recursive: true, ResourceVersion: tc.rv, ResourceVersionMatch: tc.match})
			require.NoError(t, err, "GetList(rv=%q, match=%q)", tc.rv, tc.match)
			assert.Equal(t, tc.want, names(t, res.Items), "GetList(rv=%q, match=%q) items", tc.rv, tc.match)
			if tc.wantRV != 0 {
				assert.Equal(t, tc.wantRV, res.ResourceVersion, "GetList(rv=%q, match=%q) resourceVersion", tc.rv, tc.match)
			} else {
				assert.GreaterOrEqual(t, res.ResourceVersion, rv2, "GetList(rv=%q, match=%q) resourceVersion", tc.rv, tc.match)
			}
		})
	}

	latest := update(ctx, t, s, widgetKey("ns", "a"), func(w *Widget) { w.Spec.Counter++ })
	Compact(t, Client(t), rv(t, latest))
	_, err := s.GetList(ctx, "/widgets/ns", storage.ListOptions{Recursive: true, ResourceVersion: rvString(rv1),
		ResourceVersionMatch: storage.ResourceVersionMatchExact})
	assert.ErrorIs(t, err, storage.ErrExpired, "GetList at compacted revision %d", rv1)
}
