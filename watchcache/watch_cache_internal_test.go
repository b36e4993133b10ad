package watchcache

import (
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

// testEvent is an ADDED event of a widget called name at rv, recorded at
// the fake clock's time.
func testEvent(fc *clocktest.Fake, rv int64, name string) *watchCacheEvent {
	w := &storagetest.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, ResourceVersion: strconv.FormatInt(rv, 10)}}
	key := "/widgets/ns/" + name
	return &watchCacheEvent{
		Type: watch.Added, Key: key, ResourceVersion: rv, RecordTime: fc.Now(),
		Object: &storeElement{Key: key, Object: w},
	}
}

// rvs returns the resourceVersions of events.
func rvs(events []*watchCacheEvent) []int64 {
	out := make([]int64, 0, len(events))
	for _, e := range events {
		out = append(out, e.ResourceVersion)
	}
	return out
}

func TestRingBufferWrapAround(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	const capacity = 4
	wc := newWatchCache(fc, capacity, nil)
	wc.replace(nil, 10)
	tests := []struct {
		added                int // events added so far: revisions 11..10+added
		startIndex, endIndex int
		windowRV             int64
		// slots is the revision in each slot of the buffer (0: empty).
		slots []int64
	}{
		{added: 0, startIndex: 0, endIndex: 0, windowRV: 10, slots: []int64{0, 0, 0, 0}},
		{added: 3, startIndex: 0, endIndex: 3, windowRV: 10, slots: []int64{11, 12, 13, 0}},
		{added: 4, startIndex: 0, endIndex: 4, windowRV: 10, slots: []int64{11, 12, 13, 14}},
		// The fifth event overwrites the first slot and evicts revision 11.
		{added: 5, startIndex: 1, endIndex: 5, windowRV: 11, slots: []int64{15, 12, 13, 14}},
		{added: 9, startIndex: 5, endIndex: 9, windowRV: 15, slots: []int64{19, 16, 17, 18}},
		{added: 10, startIndex: 6, endIndex: 10, windowRV: 16, slots: []int64{19, 20, 17, 18}},
	}
	added := 0
	for _, tc := range tests {
		for ; added < tc.added; added++ {
			require.NoError(t, wc.add(testEvent(fc, int64(11+added), "w"+strconv.Itoa(added))), "add event %d", added)
		}
		wc.mu.RLock()
		assert.Equal(t, tc.startIndex, wc.startIndex, "startIndex after %d events", tc.added)
		assert.Equal(t, tc.endIndex, wc.endIndex, "endIndex after %d events", tc.added)
		assert.Equal(t, tc.windowRV, wc.windowRV, "windowRV after %d events", tc.added)
		slots := make([]int64, capacity)
		for i, e := range wc.cache {
			if e != nil {
				slots[i] = e.ResourceVersion
			}
		}
		assert.Equal(t, tc.slots, slots, "slots after %d events", tc.added)

		// Every revision from the window's start on gives exactly the
		// events after it; one before gives 410.
		for rv := tc.windowRV; rv <= int64(10+tc.added); rv++ {
			events, err := wc.eventsSinceLocked("/widgets", rv)
			require.NoError(t, err, "events since %d after %d events", rv, tc.added)
			var want []int64
			for r := rv + 1; r <= int64(10+tc.added); r++ {
				want = append(want, r)
			}
			assert.Equal(t, want, append([]int64(nil), rvs(events)...), "events since %d after %d events", rv, tc.added)
		}
		_, err := wc.eventsSinceLocked("/widgets", tc.windowRV-1)
		require.ErrorIs(t, err, storage.ErrExpired, "events since %d, before the window", tc.windowRV-1)
		assert.Contains(t, err.Error(), "too old resource version", "expired detail")
		wc.mu.RUnlock()
	}
	assert.Equal(t, 10, wc.store.len(), "the store keeps every object, also those whose events left the window")
}

// TestWindowResize: a full window whose events are all fresh doubles, one
// whose newest quarter is stale halves and evicts, within the bounds.
func TestWindowResize(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	wc := newWatchCache(fc, 0, nil)
	wc.replace(nil, 1)
	rv := int64(1)
	addN := func(n int) {
		t.Helper()
		for range n {
			rv++
			require.NoError(t, wc.add(testEvent(fc, rv, "w"+strconv.FormatInt(rv, 10))), "add event at %d", rv)
		}
	}
	addN(defaultLowerBoundCapacity)
	require.Equal(t, defaultLowerBoundCapacity, wc.getCapacity(), "capacity when just full")

	addN(1)
	assert.Equal(t, 2*defaultLowerBoundCapacity, wc.getCapacity(), "a full window of fresh events doubles")
	assert.Equal(t, int64(1), wc.windowRV, "doubling evicts nothing")

	addN(2*defaultLowerBoundCapacity - defaultLowerBoundCapacity - 1)
	fc.Step(eventFreshDuration + time.Second)
	addN(1)
	assert.Equal(t, defaultLowerBoundCapacity, wc.getCapacity(), "a full window whose newest quarter is stale halves")
	// Halving kept the newest 100 of 200 events, then the new event
	// evicted one more.
	assert.Equal(t, rv-int64(defaultLowerBoundCapacity), wc.windowRV, "halving evicts the oldest events")

	fc.Step(eventFreshDuration + time.Second)
	addN(defaultLowerBoundCapacity)
	assert.Equal(t, defaultLowerBoundCapacity, wc.getCapacity(), "never below the lower bound")
}

func TestFixedCapacityDoesNotResize(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	wc := newWatchCache(fc, 3, nil)
	wc.replace(nil, 1)
	for rv := int64(2); rv < 20; rv++ {
		require.NoError(t, wc.add(testEvent(fc, rv, "w")), "add event at %d", rv)
	}
	assert.Equal(t, 3, wc.getCapacity(), "fixed capacity")
	assert.Equal(t, int64(16), wc.windowRV, "the window holds the last 3 events")
}

func TestAddRejectsOutOfOrderEvent(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	wc := newWatchCache(fc, 3, nil)
	wc.replace(nil, 5)
	assert.Error(t, wc.add(testEvent(fc, 5, "w")), "an event at the list's revision")
}

func TestSuggestedWatchChannelSize(t *testing.T) {
	tests := []struct {
		name                     string
		capacity                 int
		indexExists, triggerUsed bool
		want                     int
	}{
		{"idle resource", defaultLowerBoundCapacity, false, false, minWatchChanSize},
		{"busy, no index", defaultUpperBoundCapacity, false, false, maxWatchChanSizeWithoutIndex},
		{"busy, indexed, triggered", defaultUpperBoundCapacity, true, true, maxWatchChanSizeWithIndexAndTrigger},
		{"busy, indexed, not triggered", defaultUpperBoundCapacity, true, false, maxWatchChanSizeWithIndexWithoutTrigger},
		// 75s of history at 40 events/s: 3000 events, 40 per second.
		{"moderate", 3000, true, false, 40},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, suggestedWatchChannelSize(tc.capacity, tc.indexExists, tc.triggerUsed), "channel size")
		})
	}
}

func TestTimeBudget(t *testing.T) {
	fc := clocktest.NewFake(time.Unix(0, 0))
	b := newTimeBudget(fc, 100*time.Millisecond)
	assert.Equal(t, 100*time.Millisecond, b.takeAvailable(), "a new budget is full")
	assert.Equal(t, time.Duration(0), b.takeAvailable(), "taking leaves nothing")
	fc.Step(time.Second)
	assert.Equal(t, 50*time.Millisecond, b.takeAvailable(), "refills at half the maximum per second")
	b.returnUnused(30 * time.Millisecond)
	fc.Step(10 * time.Second)
	assert.Equal(t, 100*time.Millisecond, b.takeAvailable(), "never above the maximum")
}

func TestBackoff(t *testing.T) {
	b := relistBackoff
	base := relistBackoff.Initial
	for i := range 8 {
		d := relistDelay(&b, time.Second)
		assert.GreaterOrEqual(t, d, base, "delay %d", i)
		assert.Less(t, d, 2*base, "delay %d is jittered below twice its base", i)
		base = min(2*base, relistBackoff.Cap)
	}
	d := relistDelay(&b, relistBackoffReset)
	assert.Less(t, d, 2*relistBackoff.Initial, "a watch that ran for the reset period starts over")
}
