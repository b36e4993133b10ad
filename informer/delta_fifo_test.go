package informer_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
)

// describe renders deltas as "Type:name@rv" or "Type:name@rv(tombstone)".
func describe(deltas informer.Deltas) string {
	parts := make([]string, 0, len(deltas))
	for _, d := range deltas {
		obj := d.Object
		suffix := ""
		if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
			obj, suffix = tomb.Obj, "(tombstone)"
		}
		parts = append(parts, fmt.Sprintf("%s:%s%s", d.Type, nameRV(obj.(runtime.Object)), suffix))
	}
	return strings.Join(parts, ",")
}

func nameRV(obj runtime.Object) string {
	p := asPod(obj)
	return p.Name + "@" + p.ResourceVersion
}

// popAll pops every queued key, returning their deltas in order.
func popAll(t *testing.T, f *informer.DeltaFIFO) []string {
	t.Helper()
	var out []string
	for f.Len() > 0 {
		err := f.Pop(t.Context(), func(d informer.Deltas, _ bool) error {
			out = append(out, describe(d))
			return nil
		})
		require.NoError(t, err)
	}
	return out
}

func TestDeltaFIFO(t *testing.T) {
	tests := []struct {
		name  string
		known []runtime.Object // what the consumer has
		do    func(f *informer.DeltaFIFO) error
		want  []string
	}{
		{
			name: "changes to one key pile up under it, keys in first-change order",
			do: func(f *informer.DeltaFIFO) error {
				return joinErrs(f.Add(pod("a", "x", "1", "")), f.Add(pod("a", "y", "2", "")),
					f.Update(pod("a", "x", "3", "")), f.Delete(pod("a", "x", "4", "")))
			},
			want: []string{"Added:x@1,Updated:x@3,Deleted:x@4", "Added:y@2"},
		},
		{
			name: "a delete of an unknown, unqueued object is dropped",
			do:   func(f *informer.DeltaFIFO) error { return f.Delete(pod("a", "ghost", "1", "")) },
			want: nil,
		},
		{
			name:  "a delete of a known object is queued",
			known: []runtime.Object{pod("a", "x", "1", "")},
			do:    func(f *informer.DeltaFIFO) error { return f.Delete(pod("a", "x", "2", "")) },
			want:  []string{"Deleted:x@2"},
		},
		{
			name:  "consecutive deletes are deduplicated, keeping the one with the final state",
			known: []runtime.Object{pod("a", "x", "1", "")},
			do: func(f *informer.DeltaFIFO) error {
				return joinErrs(f.Delete(pod("a", "x", "2", "")),
					f.Delete(informer.DeletedFinalStateUnknown{Key: "a/x", Obj: pod("a", "x", "1", "")}))
			},
			want: []string{"Deleted:x@2"},
		},
		{
			name:  "replace reports known objects the list lacks as tombstones",
			known: []runtime.Object{pod("a", "x", "1", ""), pod("a", "gone", "1", "")},
			do: func(f *informer.DeltaFIFO) error {
				return f.Replace([]runtime.Object{pod("a", "x", "5", ""), pod("a", "new", "5", "")}, "5")
			},
			want: []string{"Replaced:x@5", "Replaced:new@5", "Deleted:gone@1(tombstone)"},
		},
		{
			name: "replace reports queued objects the list lacks with their last queued state",
			do: func(f *informer.DeltaFIFO) error {
				return joinErrs(f.Add(pod("a", "q", "2", "")), f.Replace([]runtime.Object{pod("a", "x", "5", "")}, "5"))
			},
			want: []string{"Added:q@2,Deleted:q@2(tombstone)", "Replaced:x@5"},
		},
		{
			name:  "resync skips keys with queued changes",
			known: []runtime.Object{pod("a", "x", "1", ""), pod("a", "y", "1", "")},
			do: func(f *informer.DeltaFIFO) error {
				return joinErrs(f.Update(pod("a", "y", "2", "")), f.Resync())
			},
			want: []string{"Updated:y@2", "Sync:x@1"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			known := informer.NewIndexer(informer.MetaNamespaceKeyFunc, nil)
			require.NoError(t, known.Replace(tc.known))
			f := informer.NewDeltaFIFO(informer.DeltaFIFOOptions{KnownObjects: known})
			require.NoError(t, tc.do(f))
			assert.Equal(t, tc.want, popAll(t, f))
		})
	}
}

func joinErrs(errs ...error) error {
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

func TestDeltaFIFOHasSynced(t *testing.T) {
	f := informer.NewDeltaFIFO(informer.DeltaFIFOOptions{})
	assert.False(t, f.HasSynced(), "nothing listed yet")
	require.NoError(t, f.Replace([]runtime.Object{pod("a", "x", "1", ""), pod("a", "y", "1", "")}, "1"))
	require.NoError(t, f.Add(pod("a", "z", "2", "")))

	var initial []bool
	pop := func() {
		require.NoError(t, f.Pop(t.Context(), func(_ informer.Deltas, isInInitialList bool) error {
			initial = append(initial, isInInitialList)
			if isInInitialList {
				assert.False(t, f.HasSynced(), "not synced while an initial item is processed")
			}
			return nil
		}))
	}
	pop()
	assert.False(t, f.HasSynced(), "one initial item left")
	pop()
	assert.True(t, f.HasSynced())
	select {
	case <-f.Synced():
	default:
		t.Fatal("Synced is not closed")
	}
	pop()
	assert.Equal(t, []bool{true, true, false}, initial)

	empty := informer.NewDeltaFIFO(informer.DeltaFIFOOptions{})
	require.NoError(t, empty.Replace(nil, "1"))
	assert.True(t, empty.HasSynced(), "an empty first list is synced at once")
}

func TestDeltaFIFOPopWaitsForContext(t *testing.T) {
	f := informer.NewDeltaFIFO(informer.DeltaFIFOOptions{})
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() {
		done <- f.Pop(ctx, func(informer.Deltas, bool) error { return nil })
	}()
	cancel()
	assert.ErrorIs(t, <-done, context.Canceled)

	processErr := fmt.Errorf("boom")
	require.NoError(t, f.Add(pod("a", "x", "1", "")))
	assert.ErrorIs(t, f.Pop(t.Context(), func(informer.Deltas, bool) error { return processErr }), processErr)
}
