package watchwindow

import (
	"errors"
	"fmt"
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/workshop/workshoptest"
)

// eventsSince calls EventsSince and stops the test at once if it is not
// written yet.
func eventsSince(t *testing.T, w *Window, rv int64) ([]Event, error) {
	t.Helper()
	events, err := w.EventsSince(rv)
	if err != nil && !errors.Is(err, storage.ErrExpired) {
		workshoptest.Check(t, err, fmt.Sprintf("EventsSince(%d)", rv))
	}
	return events, err
}

func rvs(events []Event) []int64 {
	out := []int64{}
	for _, ev := range events {
		out = append(out, ev.ResourceVersion)
	}
	return out
}

func TestWindow(t *testing.T) {
	workshoptest.Require(t)
	tests := []struct {
		name     string
		capacity int
		startRV  int64
		add      []int64
		since    int64
		want     []int64 // nil: expired (410)
	}{
		{name: "empty window, from its start", capacity: 3, startRV: 10, since: 10, want: []int64{}},
		{name: "not full, from the start", capacity: 3, startRV: 10, add: []int64{11, 12}, since: 10, want: []int64{11, 12}},
		{name: "not full, from the middle", capacity: 3, startRV: 10, add: []int64{11, 12}, since: 11, want: []int64{12}},
		{name: "from the newest: nothing yet", capacity: 3, startRV: 10, add: []int64{11, 12}, since: 12, want: []int64{}},
		{name: "before the start is too old", capacity: 3, startRV: 10, add: []int64{11}, since: 9},
		{name: "exactly full, from the start", capacity: 3, startRV: 10, add: []int64{11, 12, 13}, since: 10, want: []int64{11, 12, 13}},
		{name: "wrapped: the evicted events are gone", capacity: 3, startRV: 10, add: []int64{11, 12, 13, 14, 15}, since: 11},
		{name: "wrapped: from the last evicted event", capacity: 3, startRV: 10, add: []int64{11, 12, 13, 14, 15}, since: 12, want: []int64{13, 14, 15}},
		{name: "wrapped: from the middle", capacity: 3, startRV: 10, add: []int64{11, 12, 13, 14, 15}, since: 14, want: []int64{15}},
		{name: "wrapped many times", capacity: 2, startRV: 0, add: []int64{1, 2, 3, 4, 5, 6, 7, 8, 9}, since: 7, want: []int64{8, 9}},
		// Revisions of other resources come in between: gaps are normal.
		{name: "gaps: from between two events", capacity: 4, startRV: 100, add: []int64{103, 110, 111, 150}, since: 105, want: []int64{110, 111, 150}},
		{name: "gaps: in the evicted range", capacity: 2, startRV: 100, add: []int64{103, 110, 111, 150}, since: 109},
		{name: "capacity 1", capacity: 1, startRV: 5, add: []int64{6, 8}, since: 6, want: []int64{8}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := NewWindow(tc.capacity, tc.startRV)
			for _, rv := range tc.add {
				w.Add(Event{Type: watch.Added, ResourceVersion: rv})
			}
			events, err := eventsSince(t, w, tc.since)
			if tc.want == nil {
				require.Error(t, err, "EventsSince(%d) after adding %v to a window of %d from %d: the window no longer reaches back to %d, want 410 (storage.ErrExpired)",
					tc.since, tc.add, tc.capacity, tc.startRV, tc.since)
				require.Contains(t, err.Error(), "too old resource version", "EventsSince(%d): use w.tooOld", tc.since)
				return
			}
			require.NoError(t, err, "EventsSince(%d) after adding %v to a window of %d from %d", tc.since, tc.add, tc.capacity, tc.startRV)
			require.Equal(t, tc.want, rvs(events), "EventsSince(%d) after adding %v to a window of %d from %d", tc.since, tc.add, tc.capacity, tc.startRV)
			require.LessOrEqual(t, w.Len(), tc.capacity, "the window holds at most its capacity")
		})
	}
}

// TestWindowOverAWatch fills the window from a real watch of the API
// server, as the watch cache fills its own from etcd's.
func TestWindowOverAWatch(t *testing.T) {
	workshoptest.Require(t)
	cs := clustertest.InMemoryClientset(t, apiservertest.New(t))
	ctx := t.Context()
	cms := cs.ConfigMaps("default")
	list, err := cms.List(ctx, client.ListOptions{})
	require.NoError(t, err, "list configmaps")
	startRV, err := strconv.ParseInt(list.ResourceVersion, 10, 64)
	require.NoError(t, err, "the list's resourceVersion")
	w, err := cms.Watch(ctx, client.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err, "watch configmaps")
	defer w.Stop()

	const capacity, changes = 4, 10
	window := NewWindow(capacity, startRV)
	var seen []int64
	for i := range changes {
		_, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%d", i)}}, client.WriteOptions{})
		require.NoError(t, err, "create cm-%d", i)
		ev := clustertest.NextEvent(t, w)
		cm, ok := ev.Object.(*corev1.ConfigMap)
		require.True(t, ok, "watch event %d: got %s %T", i, ev.Type, ev.Object)
		rv, err := strconv.ParseInt(cm.ResourceVersion, 10, 64)
		require.NoError(t, err, "resourceVersion of %s", cm.Name)
		window.Add(Event{Type: ev.Type, ResourceVersion: rv, Object: cm})
		seen = append(seen, rv)
	}

	// A watcher that listed before the first change is too far behind.
	_, err = eventsSince(t, window, startRV)
	require.Error(t, err, "EventsSince(the list's resourceVersion %d) after %d changes in a window of %d: want 410", startRV, changes, capacity)
	// One that saw the sixth change gets the last four, in order, with
	// their objects.
	events, err := eventsSince(t, window, seen[changes-capacity-1])
	require.NoError(t, err, "EventsSince(%d)", seen[changes-capacity-1])
	require.Equal(t, seen[changes-capacity:], rvs(events), "EventsSince(%d)", seen[changes-capacity-1])
	for i, ev := range events {
		require.Equal(t, fmt.Sprintf("cm-%d", changes-capacity+i), ev.Object.(*corev1.ConfigMap).Name, "event %d's object", i)
	}
}
