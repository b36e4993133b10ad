package informer

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// countingHandler records the names it is given, in order.
type countingHandler struct{ names []string }

func (h *countingHandler) OnAdd(obj runtime.Object, _ bool) {
	h.names = append(h.names, obj.(*corev1.Pod).Name)
}
func (h *countingHandler) OnUpdate(_, _ runtime.Object) {}
func (h *countingHandler) OnDelete(any)                 {}

// TestListenerBufferGrowsAndKeepsOrder fills a listener far past its
// warning backlog while draining it unevenly, and checks nothing is lost
// or reordered, and that the growing backlog is logged.
func TestListenerBufferGrowsAndKeepsOrder(t *testing.T) {
	var logs bytes.Buffer
	h := &countingHandler{}
	l := newProcessorListener(h, 0, time.Unix(0, 0), slog.New(slog.NewTextHandler(&logs, nil)))
	const batch = firstWarnBacklog / 2
	const total = 5 * batch
	var want []string
	added := 0
	add := func(n int) {
		for range n {
			name := strings.Repeat("x", added%3) + string(rune('a'+added%26))
			want = append(want, name)
			l.add(notification{kind: addNotification, newObj: &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: name}}})
			added++
		}
	}
	drain := func(n int) {
		for range n {
			note, ok := l.next()
			require.True(t, ok)
			l.dispatch(note)
		}
	}
	add(3 * batch) // a stuck handler: the backlog grows
	drain(batch / 2)
	add(2 * batch)
	drain(total - batch/2)
	_, ok := l.next()
	assert.False(t, ok, "everything was delivered")
	assert.Equal(t, want, h.names, "in order")
	assert.Contains(t, logs.String(), "event handler is falling behind")

	// run delivers what is queued and stops with its context.
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		l.run(ctx)
	}()
	l.add(notification{kind: syncedNotification})
	<-l.syncedCh
	cancel()
	<-done
}
