package storagetest

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// RunStorageTests is the conformance suite of storage.Interface: every
// implementation runs this one body. newStore is called once per subtest
// and must return an empty store of Widgets (NewFunc NewWidget) on the
// shared etcd (Client) under Prefix(t), so compaction (Compact) reaches it.
// Subtests run one after another: compaction is global to the etcd.
// skip leaves out subtests whose expectations are etcd's and that an
// implementation documents otherwise; each is reported as skipped with its
// reason, and naming a subtest that does not exist fails the test.
//
// Upstream: k8s.io/apiserver/pkg/storage/testing (store_tests.go RunTest*).
func RunStorageTests(t *testing.T, newStore func(t *testing.T) storage.Interface, skip ...Skip) {
	tests := []struct {
		name string
		run  func(t *testing.T, s storage.Interface)
	}{
		{"Create", testCreate},
		{"Get", testGet},
		{"GuaranteedUpdate", testGuaranteedUpdate},
		{"GuaranteedUpdateRetriesLostRace", testGuaranteedUpdateRetriesLostRace},
		{"UpdatePreconditions", testUpdatePreconditions},
		{"Delete", testDelete},
		{"DeletePreconditions", testDeletePreconditions},
		{"DeleteRetriesLostRace", testDeleteRetriesLostRace},
		{"ListSelectors", testListSelectors},
		{"ListPagination", testListPagination},
		{"ListPaginationWithSelector", testListPaginationWithSelector},
		{"ListContinueAfterCompaction", testListContinueAfterCompaction},
		{"ListAtResourceVersion", testListAtResourceVersion},
		{"WatchFromOldRevision", testWatchFromOldRevision},
		{"WatchInitialEvents", testWatchInitialEvents},
		{"WatchSelectorTransitions", testWatchSelectorTransitions},
		{"WatchSingleKey", testWatchSingleKey},
		{"WatchCompacted", testWatchCompacted},
		{"WatchStop", testWatchStop},
		{"ConcurrentUpdates", testConcurrentUpdates},
	}
	reasons := make(map[string]string, len(skip))
	for _, sk := range skip {
		reasons[sk.Name] = sk.Reason
	}
	for _, tc := range tests {
		if reason, ok := reasons[tc.name]; ok {
			delete(reasons, tc.name)
			t.Run(tc.name, func(t *testing.T) { t.Skip(reason) })
			continue
		}
		t.Run(tc.name, func(t *testing.T) { tc.run(t, newStore(t)) })
	}
	for name := range reasons {
		t.Errorf("storagetest: Skip names %q, which is not a subtest of RunStorageTests", name)
	}
}

// Skip leaves the subtest Name of RunStorageTests out, for the Reason given.
type Skip struct {
	Name   string
	Reason string
}

func testCreate(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	in := newWidget("ns", "w", "red", map[string]string{"app": "web"})
	key := widgetKey("ns", "w")
	out, err := s.Create(ctx, key, in)
	require.NoError(t, err, "Create(%q)", key)
	got := asWidget(t, out)
	assert.NotSame(t, in, got, "Create must return a new object")
	assert.Empty(t, in.ResourceVersion, "Create must not modify its input")
	assert.Positive(t, rv(t, got), "resourceVersion of the created object")
	want := in.DeepCopyObject().(*Widget)
	want.ResourceVersion = got.ResourceVersion
	assert.Equal(t, want, got, "created object")

	fromGet, err := s.Get(ctx, key, storage.GetOptions{})
	require.NoError(t, err, "Get(%q)", key)
	assert.Equal(t, got, fromGet, "Get after Create")

	_, err = s.Create(ctx, key, newWidget("ns", "w", "blue", nil))
	assert.ErrorIs(t, err, storage.ErrExists, "second Create(%q)", key)

	withRV := newWidget("ns", "other", "red", nil)
	withRV.ResourceVersion = "5"
	_, err = s.Create(ctx, widgetKey("ns", "other"), withRV)
	assert.Error(t, err, "Create with a resourceVersion set")

	del(ctx, t, s, key)
	again := create(ctx, t, s, newWidget("ns", "w", "green", nil))
	assert.Greater(t, rv(t, again), rv(t, got), "Create after Delete gets a later resourceVersion")
}

func testGet(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	key := widgetKey("ns", "missing")
	_, err := s.Get(ctx, key, storage.GetOptions{})
	require.ErrorIs(t, err, storage.ErrNotFound, "Get(%q)", key)
	var serr *storage.Error
	require.ErrorAs(t, err, &serr, "Get(%q)", key)
	assert.Equal(t, key, serr.Key, "key of the NotFound error")

	out, err := s.Get(ctx, key, storage.GetOptions{IgnoreNotFound: true})
	require.NoError(t, err, "Get(%q, IgnoreNotFound)", key)
	assert.Equal(t, &Widget{}, out, "Get(%q, IgnoreNotFound) returns a zero object", key)
}

func testGuaranteedUpdate(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	created := create(ctx, t, s, newWidget("ns", "w", "red", nil))
	key := widgetKey("ns", "w")
	errAbort := errors.New("abort")
	tests := []struct {
		name      string
		key       string
		opts      storage.UpdateOptions
		tryUpdate func(w *Widget) (*Widget, error)
		wantErr   error
		// wantSameRV: nothing was written.
		wantSameRV bool
		wantColor  string
	}{{
		name:      "changes are written",
		key:       key,
		tryUpdate: func(w *Widget) (*Widget, error) { w.Spec.Color = "blue"; return w, nil },
		wantColor: "blue",
	}, {
		name:       "no-op writes nothing",
		key:        key,
		tryUpdate:  func(w *Widget) (*Widget, error) { return w, nil },
		wantSameRV: true,
		wantColor:  "blue",
	}, {
		name:      "tryUpdate error aborts",
		key:       key,
		tryUpdate: func(w *Widget) (*Widget, error) { return nil, errAbort },
		wantErr:   errAbort,
	}, {
		name:      "missing key",
		key:       widgetKey("ns", "missing"),
		tryUpdate: func(w *Widget) (*Widget, error) { t.Error("tryUpdate called for a missing key"); return w, nil },
		wantErr:   storage.ErrNotFound,
	}, {
		name: "IgnoreNotFound upserts",
		key:  widgetKey("ns", "upserted"),
		opts: storage.UpdateOptions{IgnoreNotFound: true},
		tryUpdate: func(w *Widget) (*Widget, error) {
			assert.Empty(t, w.Name, "upsert starts from a zero object")
			*w = *newWidget("ns", "upserted", "green", nil)
			return w, nil
		},
		wantColor: "green",
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, _ := s.Get(ctx, tc.key, storage.GetOptions{IgnoreNotFound: true})
			out, err := s.GuaranteedUpdate(ctx, tc.key, tc.opts, func(cur runtime.Object) (runtime.Object, error) {
				return tc.tryUpdate(cur.(*Widget))
			})
			if tc.wantErr != nil {
				require.ErrorIs(t, err, tc.wantErr, "GuaranteedUpdate(%q)", tc.key)
				return
			}
			require.NoError(t, err, "GuaranteedUpdate(%q)", tc.key)
			got := asWidget(t, out)
			assert.Equal(t, tc.wantColor, got.Spec.Color, "updated color")
			if tc.wantSameRV {
				assert.Equal(t, asWidget(t, before).ResourceVersion, got.ResourceVersion, "a no-op keeps the resourceVersion")
			} else {
				assert.Greater(t, rv(t, got), rv(t, created), "an update gets a later resourceVersion")
			}
			fromGet, err := s.Get(ctx, tc.key, storage.GetOptions{})
			require.NoError(t, err, "Get(%q)", tc.key)
			assert.Equal(t, got, fromGet, "Get after GuaranteedUpdate(%q)", tc.key)
		})
	}
}

// testGuaranteedUpdateRetriesLostRace makes a second writer win between the
// first one's read and write, so the first one's transaction must fail and
// retry with the fresh state: both updates end up applied.
func testGuaranteedUpdateRetriesLostRace(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	create(ctx, t, s, newWidget("ns", "w", "red", nil))
	key := widgetKey("ns", "w")
	var calls int
	out, err := s.GuaranteedUpdate(ctx, key, storage.UpdateOptions{}, func(cur runtime.Object) (runtime.Object, error) {
		calls++
		w := cur.(*Widget)
		if calls == 1 {
			update(ctx, t, s, key, func(w *Widget) { w.Spec.Color = "blue" })
		}
		w.Spec.Counter++
		return w, nil
	})
	require.NoError(t, err, "GuaranteedUpdate(%q)", key)
	assert.Equal(t, 2, calls, "tryUpdate calls: the first write lost the race and was retried")
	got := asWidget(t, out)
	assert.Equal(t, WidgetSpec{Color: "blue", Counter: 1}, got.Spec, "both writers' changes are kept")
}

func testUpdatePreconditions(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	created := create(ctx, t, s, newWidget("ns", "w", "red", nil))
	key := widgetKey("ns", "w")
	tests := []struct {
		name          string
		preconditions storage.Preconditions
		wantDetail    string
	}{
		{"matching UID", storage.Preconditions{UID: ptr(created.UID)}, ""},
		{"other UID", storage.Preconditions{UID: ptr("other")},
			"Precondition failed: UID in precondition: other, UID in object meta: " + created.UID},
		{"stale resourceVersion", storage.Preconditions{ResourceVersion: ptr("1")},
			"Precondition failed: ResourceVersion in precondition: 1, ResourceVersion in object meta: "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.GuaranteedUpdate(ctx, key, storage.UpdateOptions{Preconditions: &tc.preconditions},
				func(cur runtime.Object) (runtime.Object, error) {
					w := cur.(*Widget)
					w.Spec.Counter++
					return w, nil
				})
			if tc.wantDetail == "" {
				require.NoError(t, err, "GuaranteedUpdate with %s", tc.name)
				return
			}
			require.ErrorIs(t, err, storage.ErrConflict, "GuaranteedUpdate with %s", tc.name)
			assert.Contains(t, err.Error(), tc.wantDetail, "conflict detail")
		})
	}
	t.Run("current resourceVersion", func(t *testing.T) {
		cur, err := s.Get(ctx, key, storage.GetOptions{})
		require.NoError(t, err, "Get(%q)", key)
		rv := asWidget(t, cur).ResourceVersion
		_, err = s.GuaranteedUpdate(ctx, key, storage.UpdateOptions{Preconditions: &storage.Preconditions{ResourceVersion: &rv}},
			func(cur runtime.Object) (runtime.Object, error) { cur.(*Widget).Spec.Color = "blue"; return cur, nil })
		require.NoError(t, err, "GuaranteedUpdate with resourceVersion precondition %s", rv)
	})
}

func testDelete(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	create(ctx, t, s, newWidget("ns", "w", "red", nil))
	key := widgetKey("ns", "w")
	last := update(ctx, t, s, key, func(w *Widget) { w.Spec.Counter = 7 })

	errVeto := errors.New("veto")
	_, err := s.Delete(ctx, key, storage.DeleteOptions{ValidateDeletion: func(cur runtime.Object) error {
		assert.Equal(t, last, cur, "ValidateDeletion sees the current object")
		return errVeto
	}})
	require.ErrorIs(t, err, errVeto, "Delete(%q) vetoed by ValidateDeletion", key)
	_, err = s.Get(ctx, key, storage.GetOptions{})
	require.NoError(t, err, "Get(%q) after a vetoed Delete", key)

	out, err := s.Delete(ctx, key, storage.DeleteOptions{})
	require.NoError(t, err, "Delete(%q)", key)
	got := asWidget(t, out)
	assert.Equal(t, last.Spec, got.Spec, "Delete returns the last state")
	assert.Greater(t, rv(t, got), rv(t, last), "Delete returns the resourceVersion of the delete")

	_, err = s.Get(ctx, key, storage.GetOptions{})
	assert.ErrorIs(t, err, storage.ErrNotFound, "Get(%q) after Delete", key)
	_, err = s.Delete(ctx, key, storage.DeleteOptions{})
	assert.ErrorIs(t, err, storage.ErrNotFound, "second Delete(%q)", key)
}

func testDeletePreconditions(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	tests := []struct {
		name          string
		preconditions func(cur *Widget) storage.Preconditions
		wantConflict  bool
	}{
		{"matching UID", func(cur *Widget) storage.Preconditions { return storage.Preconditions{UID: ptr(cur.UID)} }, false},
		{"other UID", func(*Widget) storage.Preconditions { return storage.Preconditions{UID: ptr("other")} }, true},
		{"matching resourceVersion", func(cur *Widget) storage.Preconditions {
			return storage.Preconditions{ResourceVersion: ptr(cur.ResourceVersion)}
		}, false},
		{"stale resourceVersion", func(cur *Widget) storage.Preconditions {
			return storage.Preconditions{ResourceVersion: ptr(rvString(rv(t, cur) - 1))}
		}, true},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "w" + rvString(int64(i))
			key := widgetKey("ns", name)
			cur := create(ctx, t, s, newWidget("ns", name, "red", nil))
			p := tc.preconditions(cur)
			_, err := s.Delete(ctx, key, storage.DeleteOptions{Preconditions: &p})
			if !tc.wantConflict {
				require.NoError(t, err, "Delete(%q) with %s", key, tc.name)
				return
			}
			require.ErrorIs(t, err, storage.ErrConflict, "Delete(%q) with %s", key, tc.name)
			assert.Contains(t, err.Error(), "Precondition failed", "conflict detail")
			_, err = s.Get(ctx, key, storage.GetOptions{})
			assert.NoError(t, err, "Get(%q) after a refused Delete", key)
		})
	}
}

// testDeleteRetriesLostRace changes the object between Delete's read and
// its transaction: Delete must re-read, re-validate and return the state
// it actually deleted.
func testDeleteRetriesLostRace(t *testing.T, s storage.Interface) {
	ctx := t.Context()
	create(ctx, t, s, newWidget("ns", "w", "red", nil))
	key := widgetKey("ns", "w")
	var seen []string
	out, err := s.Delete(ctx, key, storage.DeleteOptions{ValidateDeletion: func(cur runtime.Object) error {
		seen = append(seen, cur.(*Widget).Spec.Color)
		if len(seen) == 1 {
			update(ctx, t, s, key, func(w *Widget) { w.Spec.Color = "blue" })
		}
		return nil
	}})
	require.NoError(t, err, "Delete(%q)", key)
	assert.Equal(t, []string{"red", "blue"}, seen, "ValidateDeletion runs again on the fresh state")
	assert.Equal(t, "blue", asWidget(t, out).Spec.Color, "Delete returns the state it deleted")
}

func ptr[T any](v T) *T { return &v }
