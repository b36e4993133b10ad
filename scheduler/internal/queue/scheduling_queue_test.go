package queue_test

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/internal/queue"
)

func newFakeClock() *clocktest.Fake {
	return clocktest.NewFake(time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC))
}

func pod(name string) *corev1.Pod { return st.MakePod().Name(name).UID("uid-" + name).Obj() }

// events is a small registration table, as the scheduler's.
var events = map[string][]queue.ClusterEvent{
	"NodeAffinity":     {{Resource: queue.Node, ActionType: queue.Add | queue.UpdateNodeLabel}},
	"NodeResourcesFit": {{Resource: queue.AssignedPod, ActionType: queue.Delete}, {Resource: queue.Node, ActionType: queue.Add | queue.UpdateNodeAllocatable}},
}

func newQueue(clk *clocktest.Fake) *queue.PriorityQueue {
	return queue.New(queue.Options{Clock: clk, EventsToRegister: events})
}

// run runs q's timer loop until the test ends.
func run(t *testing.T, q *queue.PriorityQueue) {
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Go(func() { q.Run(ctx) })
	t.Cleanup(func() {
		cancel()
		wg.Wait()
	})
}

// pop pops with a deadline, failing the test if nothing comes.
func pop(t *testing.T, q *queue.PriorityQueue) *queue.QueuedPodInfo {
	t.Helper()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	pInfo, err := q.Pop(ctx)
	require.NoError(t, err, "Pop")
	return pInfo
}

// fail hands a popped pod back as rejected by plugins (none: an error).
func fail(t *testing.T, q *queue.PriorityQueue, pInfo *queue.QueuedPodInfo, plugins ...string) {
	t.Helper()
	pInfo.UnschedulablePlugins = nil
	if len(plugins) > 0 {
		pInfo.UnschedulablePlugins = map[string]struct{}{}
		for _, p := range plugins {
			pInfo.UnschedulablePlugins[p] = struct{}{}
		}
	}
	require.NoError(t, q.AddUnschedulableIfNotPresent(pInfo))
	q.Done(pInfo)
}

func TestPopOrder(t *testing.T) {
	q := newQueue(newFakeClock())
	q.Add(pod("low-1"))
	q.Add(st.MakePod().Name("high").Priority(10).Obj())
	q.Add(pod("low-2"))
	q.Add(st.MakePod().Name("negative").Priority(-1).Obj())
	var got []string
	for range 4 {
		got = append(got, pop(t, q).Pod.Name)
	}
	assert.Equal(t, []string{"high", "low-1", "low-2", "negative"}, got,
		"priority first, then the order queued (the fake clock gives all the same time)")
}

func TestPopWaitsAndHonoursCtx(t *testing.T) {
	q := newQueue(newFakeClock())
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	_, err := q.Pop(ctx)
	assert.ErrorIs(t, err, context.Canceled)

	got := make(chan string, 1)
	go func() { got <- pop(t, q).Pod.Name }()
	q.Add(pod("late"))
	assert.Equal(t, "late", <-got)
	assert.Equal(t, queue.Stats{InFlight: 1}, q.Stats())
}

func TestBackoffDuration(t *testing.T) {
	q := newQueue(newFakeClock())
	tests := []struct {
		attempts int
		want     time.Duration
	}{
		{1, time.Second}, {2, 2 * time.Second}, {3, 4 * time.Second}, {4, 8 * time.Second},
		{5, 10 * time.Second}, {6, 10 * time.Second}, {1000, 10 * time.Second},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, q.BackoffDuration(tc.attempts), "attempts %d", tc.attempts)
	}
}

// TestErrorRetriedAfterBackoff: a pod that failed with an error goes to
// backoffQ and comes back exactly when its backoff ends: 1s after the
// first failure, 2s after the second.
func TestErrorRetriedAfterBackoff(t *testing.T) {
	clk := newFakeClock()
	q := newQueue(clk)
	run(t, q)
	q.Add(pod("p"))
	pInfo := pop(t, q)
	for attempt, backoff := range []time.Duration{time.Second, 2 * time.Second} {
		fail(t, q, pInfo)
		assert.Equal(t, queue.Stats{Backoff: 1}, q.Stats(), "attempt %d", attempt+1)
		clk.Step(backoff - time.Millisecond)
		assert.True(t, q.Idle(), "backing off is idle")
		assert.Equal(t, queue.Stats{Backoff: 1}, q.Stats(), "still backing off %v in", backoff-time.Millisecond)
		clk.Step(time.Millisecond)
		pInfo = pop(t, q)
		assert.Equal(t, attempt+2, pInfo.Attempts)
	}
}

// TestUnschedulableMovedByMatchingEvents: a rejected pod leaves
// unschedulablePods only for an event one of its rejecting plugins
// registered for (or any event, for plugins that registered none).
func TestUnschedulableMovedByMatchingEvents(t *testing.T) {
	nodeUpdate := func(a queue.ActionType) queue.ClusterEvent {
		return queue.ClusterEvent{Resource: queue.Node, ActionType: a, Label: "NodeUpdate"}
	}
	tests := []struct {
		name    string
		plugins []string
		event   queue.ClusterEvent
		moved   bool
	}{
		{"affinity, node added", []string{"NodeAffinity"}, queue.NodeAdd, true},
		{"affinity, labels changed", []string{"NodeAffinity"}, nodeUpdate(queue.UpdateNodeLabel), true},
		{"affinity, labels and taints changed", []string{"NodeAffinity"}, nodeUpdate(queue.UpdateNodeTaint | queue.UpdateNodeLabel), true},
		{"affinity, pod deleted", []string{"NodeAffinity"}, queue.AssignedPodDelete, false},
		{"affinity, taints changed", []string{"NodeAffinity"}, nodeUpdate(queue.UpdateNodeTaint), false},
		{"fit, pod deleted", []string{"NodeResourcesFit"}, queue.AssignedPodDelete, true},
		{"fit, allocatable changed", []string{"NodeResourcesFit"}, nodeUpdate(queue.UpdateNodeAllocatable), true},
		{"fit, condition changed", []string{"NodeResourcesFit"}, nodeUpdate(queue.UpdateNodeCondition), false},
		{"two plugins, either matches", []string{"NodeAffinity", "NodeResourcesFit"}, queue.AssignedPodDelete, true},
		{"unregistered plugin takes all", []string{"Workshop"}, nodeUpdate(queue.UpdateNodeCondition), true},
		{"the flush takes all", []string{"NodeAffinity"}, queue.UnschedulableTimeout, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			clk := newFakeClock()
			q := newQueue(clk)
			q.Add(pod("p"))
			fail(t, q, pop(t, q), tc.plugins...)
			require.Equal(t, queue.Stats{Unschedulable: 1}, q.Stats())
			q.MoveAllToActiveOrBackoffQueue(tc.event)
			if !tc.moved {
				assert.Equal(t, queue.Stats{Unschedulable: 1}, q.Stats())
				return
			}
			assert.Equal(t, queue.Stats{Backoff: 1}, q.Stats(), "moved, but still backing off")

			// Once the backoff has passed, a move goes straight to activeQ.
			q.Add(pod("p")) // start over: a new pod in activeQ
			fail(t, q, pop(t, q), tc.plugins...)
			clk.Step(time.Second)
			q.MoveAllToActiveOrBackoffQueue(tc.event)
			assert.Equal(t, queue.Stats{Active: 1}, q.Stats())
		})
	}
}

// TestMoveRequestDuringCycle: a pod whose cycle overlapped a move request
// may have missed the event that helps it, so it backs off instead of
// waiting in unschedulablePods.
func TestMoveRequestDuringCycle(t *testing.T) {
	q := newQueue(newFakeClock())
	q.Add(pod("p"))
	pInfo := pop(t, q)
	q.MoveAllToActiveOrBackoffQueue(queue.NodeAdd)
	fail(t, q, pInfo, "NodeAffinity")
	assert.Equal(t, queue.Stats{Backoff: 1}, q.Stats())

	// A cycle that starts after the request is not affected.
	q.Add(pod("q"))
	fail(t, q, pop(t, q), "NodeAffinity")
	assert.Equal(t, queue.Stats{Backoff: 1, Unschedulable: 1}, q.Stats())
}

// TestUnschedulableFlushedAfterFiveMinutes: a rejected pod that no event
// moved is retried after five minutes in unschedulablePods.
func TestUnschedulableFlushedAfterFiveMinutes(t *testing.T) {
	clk := newFakeClock()
	q := newQueue(clk)
	run(t, q)
	q.Add(pod("p"))
	fail(t, q, pop(t, q), "NodeAffinity")
	clk.Step(5*time.Minute - time.Second)
	assert.True(t, q.Idle())
	assert.Equal(t, queue.Stats{Unschedulable: 1}, q.Stats())
	clk.Step(time.Second)
	assert.Equal(t, "p", pop(t, q).Pod.Name)
}

func TestUpdate(t *testing.T) {
	q := newQueue(newFakeClock())
	q.Add(pod("p"))
	fail(t, q, pop(t, q), "NodeAffinity")

	old := pod("p")
	statusOnly := old.DeepCopy()
	statusOnly.ResourceVersion = "2"
	statusOnly.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse}}
	q.Update(old, statusOnly)
	assert.Equal(t, queue.Stats{Unschedulable: 1}, q.Stats(), "a status update (ours) does not retry the pod")

	relabelled := statusOnly.DeepCopy()
	relabelled.Labels = map[string]string{"tier": "web"}
	q.Update(statusOnly, relabelled)
	assert.Equal(t, queue.Stats{Backoff: 1}, q.Stats(), "a spec or metadata change retries it")

	// A pod in flight is not queued twice; if its attempt fails, it backs
	// off rather than wait for an event, as its cycle saw an older state.
	q2 := newQueue(newFakeClock())
	q2.Add(pod("r"))
	pInfo := pop(t, q2)
	r := pod("r")
	r.Labels = map[string]string{"tier": "web"}
	q2.Update(pod("r"), r)
	assert.Equal(t, queue.Stats{InFlight: 1}, q2.Stats())
	fail(t, q2, pInfo, "NodeAffinity")
	assert.Equal(t, queue.Stats{Backoff: 1}, q2.Stats())

	// A status-only update in flight changes nothing.
	q3 := newQueue(newFakeClock())
	q3.Add(pod("s"))
	pInfo = pop(t, q3)
	s2 := pod("s")
	s2.ResourceVersion = "7"
	s2.Status.Phase = corev1.PodPending
	q3.Update(pod("s"), s2)
	fail(t, q3, pInfo, "NodeAffinity")
	assert.Equal(t, queue.Stats{Unschedulable: 1}, q3.Stats())

	// A pod queued again while in flight (added anew) keeps that entry:
	// the failed attempt is not put back.
	q4 := newQueue(newFakeClock())
	q4.Add(pod("t"))
	pInfo = pop(t, q4)
	q4.Add(pod("t"))
	assert.Error(t, q4.AddUnschedulableIfNotPresent(pInfo))
	q4.Done(pInfo)
	assert.Equal(t, queue.Stats{Active: 1}, q4.Stats())
}

func TestDelete(t *testing.T) {
	q := newQueue(newFakeClock())
	for _, name := range []string{"active", "backoff", "unschedulable"} {
		q.Add(pod(name))
	}
	for range 3 {
		pInfo := pop(t, q)
		switch pInfo.Pod.Name {
		case "active":
			q.Done(pInfo)
			q.Add(pInfo.Pod)
		case "backoff":
			fail(t, q, pInfo)
		default:
			fail(t, q, pInfo, "NodeAffinity")
		}
	}
	require.Equal(t, queue.Stats{Active: 1, Backoff: 1, Unschedulable: 1}, q.Stats())
	for _, name := range []string{"active", "backoff", "unschedulable"} {
		q.Delete(pod(name))
	}
	assert.Equal(t, queue.Stats{}, q.Stats())
}

// TestIdle: only work that proceeds on its own counts: a pod in activeQ
// or in flight, or one whose backoff has run out (Run is about to move
// it). The loop is not running here, so nothing moves.
func TestIdle(t *testing.T) {
	clk := newFakeClock()
	var changes atomic.Int32
	q := queue.New(queue.Options{Clock: clk, OnChange: func() { changes.Add(1) }})
	assert.True(t, q.Idle(), "empty")
	q.Add(pod("p"))
	assert.False(t, q.Idle(), "a pod in activeQ")
	pInfo := pop(t, q)
	assert.False(t, q.Idle(), "a pod in flight")
	require.NoError(t, q.AddUnschedulableIfNotPresent(pInfo))
	assert.False(t, q.Idle(), "still in flight until Done")
	q.Done(pInfo)
	assert.True(t, q.Idle(), "backing off")
	clk.Step(time.Second)
	assert.False(t, q.Idle(), "backoff over: about to be retried")
	assert.Positive(t, changes.Load(), "OnChange is called")
}
