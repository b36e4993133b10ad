package storage_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

// The tests below give GuaranteedUpdate a cached copy of the object, as
// the watch cache does, that may be stale: the result must always be what
// a read of etcd would have given, at the cost of a retry.

// cachedUpdateFixture is a widget written twice: old is its first state
// (what a lagging cache still holds), cur its current one.
type cachedUpdateFixture struct {
	s        *storage.Store
	key      string
	old, cur *storagetest.Widget
}

func newCachedUpdateFixture(t *testing.T) cachedUpdateFixture {
	t.Helper()
	s := newStore(t)
	key := "/widgets/ns/w"
	w := widget("ns", "w")
	w.UID = "uid-1"
	created, err := s.Create(t.Context(), key, w)
	require.NoError(t, err, "Create(%q)", key)
	cur, err := s.GuaranteedUpdate(t.Context(), key, storage.UpdateOptions{}, func(obj runtime.Object) (runtime.Object, error) {
		obj.(*storagetest.Widget).Spec.Color = "blue"
		return obj, nil
	})
	require.NoError(t, err, "GuaranteedUpdate(%q) to blue", key)
	return cachedUpdateFixture{s: s, key: key, old: created.(*storagetest.Widget), cur: cur.(*storagetest.Widget)}
}

// rv is obj's resourceVersion as a revision.
func rv(t *testing.T, obj runtime.Object) int64 {
	t.Helper()
	n, err := strconv.ParseInt(metav1.MustAccessor(obj).ResourceVersion, 10, 64)
	require.NoError(t, err, "resourceVersion of %T", obj)
	return n
}

// copyOf is a cached copy GuaranteedUpdate may take.
func copyOf(w *storagetest.Widget) runtime.Object { return w.DeepCopyObject() }

// TestGuaranteedUpdateFromStaleCopy: tryUpdate first sees the stale copy,
// the transaction's revision check fails, and the second call sees
// etcd's state; the write is computed from that one.
func TestGuaranteedUpdateFromStaleCopy(t *testing.T) {
	f := newCachedUpdateFixture(t)
	var seen []string
	out, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: copyOf(f.old)},
		func(obj runtime.Object) (runtime.Object, error) {
			w := obj.(*storagetest.Widget)
			seen = append(seen, w.Spec.Color)
			w.Spec.Counter++
			return w, nil
		})
	require.NoError(t, err, "GuaranteedUpdate(%q) from a stale copy", f.key)
	assert.Equal(t, []string{"red", "blue"}, seen, "tryUpdate saw the stale copy, then etcd's state: one retry")
	got := out.(*storagetest.Widget)
	assert.Equal(t, storagetest.WidgetSpec{Color: "blue", Counter: 1}, got.Spec, "the write is based on etcd's state")
	assert.Greater(t, rv(t, got), rv(t, f.cur), "a new revision was written")
}

// TestGuaranteedUpdateFromCurrentCopy: a copy that is current is used as
// it is: one tryUpdate call, and the write succeeds.
func TestGuaranteedUpdateFromCurrentCopy(t *testing.T) {
	f := newCachedUpdateFixture(t)
	calls := 0
	out, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: copyOf(f.cur)},
		func(obj runtime.Object) (runtime.Object, error) {
			calls++
			w := obj.(*storagetest.Widget)
			assert.Equal(t, f.cur.ResourceVersion, w.ResourceVersion, "tryUpdate sees the copy's resourceVersion")
			w.Spec.Counter++
			return w, nil
		})
	require.NoError(t, err, "GuaranteedUpdate(%q) from a current copy", f.key)
	assert.Equal(t, 1, calls, "tryUpdate calls")
	assert.Equal(t, storagetest.WidgetSpec{Color: "blue", Counter: 1}, out.(*storagetest.Widget).Spec, "written state")
}

// TestGuaranteedUpdatePreconditionsOnStaleCopy: preconditions that fail
// only on the stale copy are checked again on etcd's state, and hold.
func TestGuaranteedUpdatePreconditionsOnStaleCopy(t *testing.T) {
	tests := []struct {
		name string
		// stale returns a copy older than cur and preconditions that cur
		// meets and the copy does not.
		stale func(f cachedUpdateFixture) (runtime.Object, storage.Preconditions)
	}{{
		name: "resourceVersion",
		stale: func(f cachedUpdateFixture) (runtime.Object, storage.Preconditions) {
			return copyOf(f.old), storage.Preconditions{ResourceVersion: &f.cur.ResourceVersion}
		},
	}, {
		name: "UID of a recreated object",
		stale: func(f cachedUpdateFixture) (runtime.Object, storage.Preconditions) {
			// The cache still holds an object of the same name that was
			// deleted and created again with another UID.
			gone := f.old.DeepCopyObject().(*storagetest.Widget)
			gone.UID = "uid-0"
			return gone, storage.Preconditions{UID: &f.cur.UID}
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newCachedUpdateFixture(t)
			cached, pre := tc.stale(f)
			var seen []string
			out, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: cached, Preconditions: &pre},
				func(obj runtime.Object) (runtime.Object, error) {
					w := obj.(*storagetest.Widget)
					seen = append(seen, w.Spec.Color)
					w.Spec.Counter++
					return w, nil
				})
			require.NoError(t, err, "GuaranteedUpdate(%q) with a stale copy failing the %s precondition", f.key, tc.name)
			assert.Equal(t, []string{"blue"}, seen, "tryUpdate is called only on etcd's state")
			assert.Equal(t, storagetest.WidgetSpec{Color: "blue", Counter: 1}, out.(*storagetest.Widget).Spec, "written state")
		})
	}
}

// TestGuaranteedUpdateStaleClientResourceVersion: a resourceVersion
// precondition the client read before the last write is a conflict,
// whatever the cached copy: current, or as stale as the client.
func TestGuaranteedUpdateStaleClientResourceVersion(t *testing.T) {
	tests := []struct {
		name   string
		cached func(f cachedUpdateFixture) runtime.Object
	}{
		{"no copy", func(cachedUpdateFixture) runtime.Object { return nil }},
		{"current copy", func(f cachedUpdateFixture) runtime.Object { return copyOf(f.cur) }},
		{"copy as stale as the client", func(f cachedUpdateFixture) runtime.Object { return copyOf(f.old) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newCachedUpdateFixture(t)
			pre := storage.Preconditions{ResourceVersion: &f.old.ResourceVersion}
			_, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: tc.cached(f), Preconditions: &pre},
				func(obj runtime.Object) (runtime.Object, error) {
					obj.(*storagetest.Widget).Spec.Counter++
					return obj, nil
				})
			require.ErrorIs(t, err, storage.ErrConflict, "GuaranteedUpdate(%q) with the stale resourceVersion %s", f.key, f.old.ResourceVersion)
			assert.Contains(t, err.Error(), "ResourceVersion in object meta: "+f.cur.ResourceVersion, "the conflict names etcd's resourceVersion")
			got, err := f.s.Get(t.Context(), f.key, storage.GetOptions{})
			require.NoError(t, err, "Get(%q)", f.key)
			assert.Equal(t, f.cur, got, "nothing was written")
		})
	}
}

// TestGuaranteedUpdateTryUpdateErrorOnCopy: tryUpdate refusing a stale
// copy (as the registry does when the body's resourceVersion is newer) is
// retried on etcd's state; refusing a current copy is the answer, after
// one read that confirms it.
func TestGuaranteedUpdateTryUpdateErrorOnCopy(t *testing.T) {
	errStale := errors.New("stale resourceVersion")
	// refuseUnlessCurrent accepts only the current state, as a registry
	// comparing the body's resourceVersion does.
	refuseUnlessCurrent := func(want string, seen *[]string) storage.UpdateFunc {
		return func(obj runtime.Object) (runtime.Object, error) {
			w := obj.(*storagetest.Widget)
			*seen = append(*seen, w.ResourceVersion)
			if w.ResourceVersion != want {
				return nil, errStale
			}
			w.Spec.Counter++
			return w, nil
		}
	}
	t.Run("stale copy", func(t *testing.T) {
		f := newCachedUpdateFixture(t)
		var seen []string
		_, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: copyOf(f.old)},
			refuseUnlessCurrent(f.cur.ResourceVersion, &seen))
		require.NoError(t, err, "GuaranteedUpdate(%q)", f.key)
		assert.Equal(t, []string{f.old.ResourceVersion, f.cur.ResourceVersion}, seen, "tryUpdate saw the copy, then etcd's state")
	})
	t.Run("current copy", func(t *testing.T) {
		f := newCachedUpdateFixture(t)
		var seen []string
		_, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: copyOf(f.cur)},
			refuseUnlessCurrent("no such resourceVersion", &seen))
		require.ErrorIs(t, err, errStale, "GuaranteedUpdate(%q)", f.key)
		assert.Equal(t, []string{f.cur.ResourceVersion}, seen, "tryUpdate is not called again when the copy was current")
	})
}

// TestGuaranteedUpdateNoOpOnStaleCopy: an update that changes nothing on
// the stale copy changes something on etcd's state, so it is written.
func TestGuaranteedUpdateNoOpOnStaleCopy(t *testing.T) {
	f := newCachedUpdateFixture(t)
	setRed := func(obj runtime.Object) (runtime.Object, error) {
		obj.(*storagetest.Widget).Spec.Color = "red"
		return obj, nil
	}
	out, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: copyOf(f.old)}, setRed)
	require.NoError(t, err, "GuaranteedUpdate(%q) to red from a red stale copy", f.key)
	got := out.(*storagetest.Widget)
	assert.Equal(t, "red", got.Spec.Color, "the write happened")
	assert.Greater(t, rv(t, got), rv(t, f.cur), "a new revision was written")

	// And a real no-op on a current copy writes nothing.
	again, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: got.DeepCopyObject()}, setRed)
	require.NoError(t, err, "GuaranteedUpdate(%q) to red again", f.key)
	assert.Equal(t, got, again, "a no-op returns the stored object unchanged")
}

// TestGuaranteedUpdateCopyOfDeletedObject: the cache still holds an
// object that etcd no longer has: NotFound, or an upsert with
// IgnoreNotFound, as without a copy.
func TestGuaranteedUpdateCopyOfDeletedObject(t *testing.T) {
	f := newCachedUpdateFixture(t)
	_, err := f.s.Delete(t.Context(), f.key, storage.DeleteOptions{})
	require.NoError(t, err, "Delete(%q)", f.key)
	bump := func(obj runtime.Object) (runtime.Object, error) {
		w := obj.(*storagetest.Widget)
		if w.Name == "" {
			*w = *widget("ns", "w")
		}
		w.Spec.Counter++
		return w, nil
	}
	_, err = f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: copyOf(f.cur)}, bump)
	require.ErrorIs(t, err, storage.ErrNotFound, "GuaranteedUpdate(%q) of a deleted object", f.key)

	out, err := f.s.GuaranteedUpdate(t.Context(), f.key, storage.UpdateOptions{CachedExistingObject: copyOf(f.cur), IgnoreNotFound: true}, bump)
	require.NoError(t, err, "GuaranteedUpdate(%q, IgnoreNotFound) of a deleted object", f.key)
	assert.Equal(t, storagetest.WidgetSpec{Color: "red", Counter: 1}, out.(*storagetest.Widget).Spec, "the upsert starts from a zero object")
}
