package replicaset

import (
	"errors"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestSlowStartBatch(t *testing.T) {
	boom := errors.New("boom")
	tests := []struct {
		name       string
		count      int
		okCalls    int // calls that succeed before every later one fails
		wantOK     int
		wantCalled int
		wantErr    error
	}{
		{name: "all succeed", count: 10, okCalls: 10, wantOK: 10, wantCalled: 10},
		{name: "batches 1, 2, 4: the third fails", count: 10, okCalls: 4, wantOK: 4, wantCalled: 7, wantErr: boom},
		{name: "the first fails", count: 500, okCalls: 0, wantOK: 0, wantCalled: 1, wantErr: boom},
		{name: "last batch is the remainder", count: 5, okCalls: 5, wantOK: 5, wantCalled: 5},
		{name: "nothing to do", count: 0, wantOK: 0, wantCalled: 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var called atomic.Int32
			ok, err := slowStartBatch(tc.count, slowStartInitialBatchSize, func() error {
				if int(called.Add(1)) > tc.okCalls {
					return boom
				}
				return nil
			})
			assert.Equal(t, tc.wantOK, ok, "successes")
			assert.Equal(t, tc.wantCalled, int(called.Load()), "calls: a failed batch stops the rest")
			assert.ErrorIs(t, err, tc.wantErr)
		})
	}
}

// testPod is a pod for ranking tests.
type testPod struct {
	name, node   string
	phase        corev1.PodPhase
	readyFor     time.Duration // 0: not ready
	restarts     int32
	age          time.Duration
	deletionCost string
}

func (p testPod) pod(now time.Time) *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: p.name, UID: "uid-" + p.name, CreationTimestamp: metav1.NewTime(now.Add(-p.age))},
		Spec:       corev1.PodSpec{NodeName: p.node},
		Status:     corev1.PodStatus{Phase: p.phase, ContainerStatuses: []corev1.ContainerStatus{{RestartCount: p.restarts}}},
	}
	if p.readyFor > 0 {
		pod.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue,
			LastTransitionTime: metav1.NewTime(now.Add(-p.readyFor))}}
	}
	if p.deletionCost != "" {
		pod.Annotations = map[string]string{podDeletionCostAnnotation: p.deletionCost}
	}
	return pod
}

func TestActivePodsWithRanksOrder(t *testing.T) {
	now := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	running := func(name string, readyFor, age time.Duration) testPod {
		return testPod{name: name, node: "n1", phase: corev1.PodRunning, readyFor: readyFor, age: age}
	}
	tests := []struct {
		name        string
		first, then testPod
		rankFirst   int
		rankThen    int
	}{
		{name: "unassigned before assigned",
			first: testPod{name: "a", phase: corev1.PodPending}, then: testPod{name: "b", node: "n1", phase: corev1.PodPending}},
		{name: "Pending before Unknown",
			first: testPod{name: "a", node: "n1", phase: corev1.PodPending}, then: testPod{name: "b", node: "n1", phase: corev1.PodUnknown}},
		{name: "Unknown before Running",
			first: testPod{name: "a", node: "n1", phase: corev1.PodUnknown}, then: running("b", 0, time.Hour)},
		{name: "not ready before ready",
			first: running("a", 0, time.Hour), then: running("b", time.Minute, time.Minute)},
		{name: "lower deletion cost first, before readiness times",
			first: func() testPod { p := running("a", time.Hour, time.Hour); p.deletionCost = "-5"; return p }(),
			then:  running("b", time.Second, time.Second)},
		{name: "an invalid deletion cost counts as 0",
			first: func() testPod { p := running("a", time.Second, time.Second); p.deletionCost = "lots"; return p }(),
			then:  func() testPod { p := running("b", time.Hour, time.Hour); p.deletionCost = "1"; return p }()},
		{name: "more pods on its node first",
			first: running("a", time.Hour, time.Hour), then: running("b", time.Second, time.Second), rankFirst: 3, rankThen: 1},
		{name: "ready for less time first",
			first: running("a", time.Minute, time.Hour), then: running("b", time.Hour, time.Hour)},
		{name: "more restarts first",
			first: func() testPod { p := running("a", time.Hour, time.Hour); p.restarts = 3; return p }(),
			then:  running("b", time.Hour, time.Hour)},
		{name: "newer first",
			first: testPod{name: "a", node: "n1", phase: corev1.PodPending, age: time.Minute},
			then:  testPod{name: "b", node: "n1", phase: corev1.PodPending, age: time.Hour}},
		{name: "ages within one doubling: by UID",
			first: testPod{name: "a", node: "n1", phase: corev1.PodPending, age: 50 * time.Minute},
			then:  testPod{name: "b", node: "n1", phase: corev1.PodPending, age: 40 * time.Minute}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			// Both input orders sort the same way.
			for _, swap := range []bool{false, true} {
				pods := []*corev1.Pod{tc.first.pod(now), tc.then.pod(now)}
				ranks := []int{tc.rankFirst, tc.rankThen}
				if swap {
					slices.Reverse(pods)
					slices.Reverse(ranks)
				}
				sort.Sort(activePodsWithRanks{Pods: pods, Rank: ranks, Now: now})
				assert.Equal(t, []string{tc.first.name, tc.then.name}, []string{pods[0].Name, pods[1].Name}, "swapped=%v", swap)
			}
		})
	}
}

func TestPodsToDeleteRanksByRelatedPodsOnTheNode(t *testing.T) {
	now := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	a := testPod{name: "a", node: "crowded", phase: corev1.PodRunning, readyFor: time.Hour, age: time.Hour}.pod(now)
	b := testPod{name: "b", node: "quiet", phase: corev1.PodRunning, readyFor: time.Hour, age: time.Hour}.pod(now)
	sibling := testPod{name: "sibling", node: "crowded", phase: corev1.PodRunning}.pod(now)
	active := []*corev1.Pod{b, a}

	got := podsToDelete(active, []*corev1.Pod{a, b, sibling}, 1, now)
	require.Len(t, got, 1)
	assert.Equal(t, "a", got[0].Name, "the pod sharing its node with a sibling goes first")
	assert.Equal(t, []*corev1.Pod{b, a}, active, "the caller's slice is not reordered")
	assert.Len(t, podsToDelete(active, nil, 5, now), 2, "never more than there are")
}

func TestPodNamePrefix(t *testing.T) {
	assert.Equal(t, "web-", podNamePrefix("web"))
	long := strings.Repeat("a", 253)
	assert.Equal(t, long, podNamePrefix(long), "no room for the dash")
}

func TestCalculateStatusReplicaFailure(t *testing.T) {
	now := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	three := int32(3)
	rs := &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: &three}}
	one := []*corev1.Pod{testPod{name: "a", phase: corev1.PodPending}.pod(now)}

	failed := calculateStatus(rs, one, nil, errors.New("quota"), now)
	c := replicaSetCondition(failed, appsv1.ReplicaSetReplicaFailure)
	require.NotNil(t, c)
	assert.Equal(t, appsv1.ReplicaSetCondition{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue,
		LastTransitionTime: metav1.NewTime(now), Reason: "FailedCreate", Message: "quota"}, *c)
	assert.Empty(t, rs.Status.Conditions, "the input is not modified")

	rs.Status = failed
	again := calculateStatus(rs, one, nil, errors.New("other"), now.Add(time.Minute))
	assert.Equal(t, failed.Conditions, again.Conditions, "an existing condition is kept as it is")

	assert.Empty(t, calculateStatus(rs, one, nil, nil, now).Conditions, "removed by a sync without errors")

	rs.Status = appsv1.ReplicaSetStatus{}
	four := append(slices.Clone(one), one[0], one[0], one[0])
	c = replicaSetCondition(calculateStatus(rs, four, nil, errors.New("forbidden"), now), appsv1.ReplicaSetReplicaFailure)
	require.NotNil(t, c)
	assert.Equal(t, "FailedDelete", c.Reason)
}

func TestNextAvailabilityCheck(t *testing.T) {
	now := time.Date(2024, 1, 1, 12, 0, 0, 0, time.UTC)
	rs := &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{MinReadySeconds: 10}}
	pods := []*corev1.Pod{
		testPod{name: "ready-4s", node: "n", phase: corev1.PodRunning, readyFor: 4 * time.Second}.pod(now),
		testPod{name: "ready-7s", node: "n", phase: corev1.PodRunning, readyFor: 7 * time.Second}.pod(now),
		testPod{name: "available", node: "n", phase: corev1.PodRunning, readyFor: time.Minute}.pod(now),
		testPod{name: "not-ready", node: "n", phase: corev1.PodRunning}.pod(now),
	}
	assert.Equal(t, 4*time.Second, nextAvailabilityCheck(rs, pods, now), "3s until ready-7s is due, and a second's margin")
	rs.Spec.MinReadySeconds = 0
	assert.Zero(t, nextAvailabilityCheck(rs, pods, now), "no minReadySeconds: nothing to wait for")
}
