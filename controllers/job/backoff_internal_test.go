package job

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/clock/clocktest"
)

var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// TestRemainingTime: the backoff doubles from 10s with each failure since
// the last success, is capped at 6 minutes, and counts from the last
// failure.
func TestRemainingTime(t *testing.T) {
	clk := clocktest.NewFake(t0)
	tests := []struct {
		failures int32
		elapsed  time.Duration
		want     time.Duration
	}{
		{0, 0, 0},
		{1, 0, 10 * time.Second},
		{2, 0, 20 * time.Second},
		{3, 0, 40 * time.Second},
		{6, 0, 320 * time.Second},
		{7, 0, 6 * time.Minute},
		{30, 0, 6 * time.Minute},
		{1, 4 * time.Second, 6 * time.Second},
		{2, time.Minute, 0},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d failures %v ago", tc.failures, tc.elapsed), func(t *testing.T) {
			last := t0.Add(-tc.elapsed)
			r := backoffRecord{failuresAfterLastSuccess: tc.failures, lastFailureTime: &last}
			assert.Equal(t, tc.want, r.remainingTime(clk, DefaultJobPodFailureBackOff, MaxJobPodFailureBackOff))
		})
	}
}

// finishedPod is a pod whose one container finished at t0+at.
func finishedPod(uid string, phase corev1.PodPhase, at time.Duration) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{UID: uid},
		Status: corev1.PodStatus{Phase: phase, ContainerStatuses: []corev1.ContainerStatus{{
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{FinishedAt: metav1.NewTime(t0.Add(at))}},
		}}},
	}
}

// TestNewBackoffRecord: failures add up; a success resets the count to
// the failures after it.
func TestNewBackoffRecord(t *testing.T) {
	s := newBackoffStore()
	r := s.newRecord("ns/j", nil, []*corev1.Pod{finishedPod("a", corev1.PodFailed, time.Second)})
	assert.Equal(t, int32(1), r.failuresAfterLastSuccess)
	assert.Equal(t, t0.Add(time.Second), *r.lastFailureTime)
	s.update(r)

	r = s.newRecord("ns/j", nil, []*corev1.Pod{
		finishedPod("c", corev1.PodFailed, 5*time.Second), finishedPod("b", corev1.PodFailed, 3*time.Second),
	})
	assert.Equal(t, int32(3), r.failuresAfterLastSuccess, "added to the stored record")
	assert.Equal(t, t0.Add(5*time.Second), *r.lastFailureTime, "the latest failure")
	s.update(r)

	r = s.newRecord("ns/j", []*corev1.Pod{finishedPod("d", corev1.PodSucceeded, 6*time.Second)},
		[]*corev1.Pod{finishedPod("e", corev1.PodFailed, 7*time.Second), finishedPod("f", corev1.PodFailed, 4*time.Second)})
	assert.Equal(t, int32(1), r.failuresAfterLastSuccess, "only the failure after the success counts")
	assert.Equal(t, t0.Add(7*time.Second), *r.lastFailureTime)

	r = s.newRecord("ns/j", []*corev1.Pod{finishedPod("g", corev1.PodSucceeded, 8*time.Second)}, nil)
	assert.Equal(t, int32(0), r.failuresAfterLastSuccess)
	assert.Nil(t, r.lastFailureTime)

	s.remove("ns/j")
	assert.Equal(t, int32(0), s.newRecord("ns/j", nil, nil).failuresAfterLastSuccess, "forgotten")
}

// TestOrderedIntervals: the completedIndexes form, read leniently (a user
// may have written it) and written as upstream does.
func TestOrderedIntervals(t *testing.T) {
	tests := []struct {
		in          string
		completions int
		want        string
		total       int
	}{
		{"", 5, "", 0},
		{"0-2", 5, "0-2", 3},
		{"0,1", 5, "0,1", 2},
		{"1,3-5,7", 10, "1,3-5,7", 5},
		{"3-9", 5, "3,4", 2},
		{"x,2,-1,4-3,1", 5, "1,2", 2},
		{"4,0", 5, "0,4", 2},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			oi := parseIndexesFromString(tc.in, tc.completions)
			assert.Equal(t, tc.want, oi.String())
			assert.Equal(t, tc.total, oi.total())
		})
	}
	oi := parseIndexesFromString("1,3-5", 10).withOrderedIndexes([]int{0, 2, 7})
	assert.Equal(t, "0-5,7", oi.String())
	for ix, want := range map[int]bool{0: true, 5: true, 6: false, 7: true, 8: false, -1: false} {
		assert.Equal(t, want, oi.has(ix), "has(%d)", ix)
	}
}
