package flowtrace_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/examples/internal/flowtrace"
)

// fakeWatch delivers what the test sends on ch.
type fakeWatch struct{ ch chan watch.Event }

func (f fakeWatch) Stop()                          {}
func (f fakeWatch) ResultChan() <-chan watch.Event { return f.ch }

func pod(uid, rv string, phase corev1.PodPhase) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "p", UID: uid, ResourceVersion: rv},
		Status:     corev1.PodStatus{Phase: phase},
	}
}

// TestWrites: each version is found by the revision that wrote it, once
// its event arrived, and the version before it by the object's UID.
func TestWrites(t *testing.T) {
	fw := fakeWatch{ch: make(chan watch.Event, 3)}
	w, err := flowtrace.Watch(t.Context(), func(context.Context) (watch.Interface, error) { return fw, nil })
	require.NoError(t, err)
	defer w.Stop()
	fw.ch <- watch.Event{Type: watch.Added, Object: pod("a", "5", corev1.PodPending)}
	fw.ch <- watch.Event{Type: watch.Added, Object: pod("b", "6", corev1.PodPending)}
	fw.ch <- watch.Event{Type: watch.Modified, Object: pod("a", "8", corev1.PodRunning)}

	v, err := w.At(t.Context(), 8)
	require.NoError(t, err, "At(8)")
	assert.Equal(t, corev1.PodRunning, v.Object.(*corev1.Pod).Status.Phase)
	prev, ok := w.Before(v)
	require.True(t, ok, "a's version before 8")
	assert.Equal(t, int64(5), prev.Rev, "the same object's, not b's at 6")
	_, ok = w.Before(prev)
	assert.False(t, ok, "5 created a")

	var revs []int64
	for _, v := range w.Between(5, 8) {
		revs = append(revs, v.Rev)
	}
	assert.Equal(t, []int64{6, 8}, revs)

	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err = w.At(ctx, 9)
	assert.ErrorIs(t, err, context.Canceled, "no event for 9")
}
