package nodelifecycle

import (
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func ready(s corev1.ConditionStatus) *corev1.NodeCondition {
	return &corev1.NodeCondition{Type: corev1.NodeReady, Status: s}
}

func TestComputeZoneState(t *testing.T) {
	T, F, U := ready(corev1.ConditionTrue), ready(corev1.ConditionFalse), ready(corev1.ConditionUnknown)
	tests := []struct {
		name     string
		in       []*corev1.NodeCondition
		notReady int
		want     zoneState
	}{
		{"all ready", []*corev1.NodeCondition{T, T}, 0, stateNormal},
		{"none ready", []*corev1.NodeCondition{F, U, nil}, 3, stateFullDisruption},
		{"two of three down is too few to count", []*corev1.NodeCondition{T, F, U}, 2, stateNormal},
		{"three of five down", []*corev1.NodeCondition{T, T, F, U, nil}, 3, statePartialDisruption},
		{"three of six down is under 55%", []*corev1.NodeCondition{T, T, T, F, U, U}, 3, stateNormal},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n, s := computeZoneState(tc.in)
			assert.Equal(t, tc.notReady, n)
			assert.Equal(t, tc.want, s)
		})
	}
	assert.Equal(t, 0.0, zoneQPS(statePartialDisruption, largeClusterThreshold), "a small zone mostly down stops")
	assert.Equal(t, secondaryEvictionLimiterQPS, zoneQPS(statePartialDisruption, largeClusterThreshold+1))
	assert.Equal(t, evictionLimiterQPS, zoneQPS(stateFullDisruption, 3))
}

func TestTokenBucket(t *testing.T) {
	now := time.Unix(1000, 0)
	b := newTokenBucket(evictionLimiterQPS, now)
	ok, _ := b.tryAccept(now)
	assert.True(t, ok, "a burst of one")
	ok, wait := b.tryAccept(now)
	assert.False(t, ok)
	assert.Equal(t, 10*time.Second, wait, "0.1 a second")
	ok, _ = b.tryAccept(now.Add(9 * time.Second))
	assert.False(t, ok)
	ok, _ = b.tryAccept(now.Add(10 * time.Second))
	assert.True(t, ok)

	// An empty bucket stays empty when its rate changes; zero never gives.
	b.setQPS(1, now.Add(10*time.Second))
	ok, wait = b.tryAccept(now.Add(10 * time.Second))
	assert.False(t, ok)
	assert.Equal(t, time.Second, wait)
	b.setQPS(0, now.Add(20*time.Second))
	ok, wait = b.tryAccept(now.Add(time.Hour))
	assert.False(t, ok)
	assert.Zero(t, wait)
}

func TestTolerations(t *testing.T) {
	unreachable := corev1.Taint{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoExecute}
	custom := corev1.Taint{Key: "k", Value: "v", Effect: corev1.TaintEffectNoExecute}
	s := func(n int64) *int64 { return &n }
	tests := []struct {
		name      string
		taints    []corev1.Taint
		tols      []corev1.Toleration
		tolerated bool
		wait      time.Duration
	}{
		{"no tolerations", []corev1.Taint{unreachable}, nil, false, 0},
		{"exists, forever", []corev1.Taint{unreachable}, []corev1.Toleration{{Key: unreachable.Key, Operator: corev1.TolerationOpExists}}, true, -1},
		{"every key", []corev1.Taint{unreachable, custom}, []corev1.Toleration{{Operator: corev1.TolerationOpExists, TolerationSeconds: s(30)}}, true, 30 * time.Second},
		{"value must equal", []corev1.Taint{custom}, []corev1.Toleration{{Key: "k", Value: "w"}}, false, 0},
		{"equal value", []corev1.Taint{custom}, []corev1.Toleration{{Key: "k", Value: "v", TolerationSeconds: s(5)}}, true, 5 * time.Second},
		{"other effect", []corev1.Taint{custom}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}, false, 0},
		{"shortest wins", []corev1.Taint{unreachable, custom}, []corev1.Toleration{
			{Key: unreachable.Key, Operator: corev1.TolerationOpExists, TolerationSeconds: s(300)},
			{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: s(60)},
		}, true, 60 * time.Second},
		{"negative is now", []corev1.Taint{custom}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: s(-5)}}, true, 0},
		{"huge does not overflow", []corev1.Taint{custom}, []corev1.Toleration{{Key: "k", Operator: corev1.TolerationOpExists, TolerationSeconds: s(math.MaxInt64)}}, true, time.Duration(math.MaxInt64)},
		{"unknown operator", []corev1.Taint{custom}, []corev1.Toleration{{Key: "k", Operator: "Bogus"}}, false, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tolerated, used := matchingTolerations(tc.taints, tc.tols)
			assert.Equal(t, tc.tolerated, tolerated)
			if tolerated {
				assert.Equal(t, tc.wait, minTolerationTime(used))
			}
		})
	}
}

func TestSwapTaints(t *testing.T) {
	now := metav1.NewTime(time.Unix(2000, 0))
	earlier := metav1.NewTime(time.Unix(1000, 0))
	custom := corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoSchedule}
	notReady := NotReadyTaintTemplate
	notReady.TimeAdded = &earlier

	out, changed := swapTaints([]corev1.Taint{custom, notReady}, []corev1.Taint{UnreachableTaintTemplate}, []corev1.Taint{NotReadyTaintTemplate}, now)
	assert.True(t, changed)
	added := UnreachableTaintTemplate
	added.TimeAdded = &now
	assert.Equal(t, []corev1.Taint{custom, added}, out, "others kept, swapped, stamped")

	out, changed = swapTaints([]corev1.Taint{custom, notReady}, []corev1.Taint{NotReadyTaintTemplate}, nil, now)
	assert.False(t, changed, "already there: its time is kept")
	assert.Equal(t, []corev1.Taint{custom, notReady}, out)
}

func TestNoScheduleTaints(t *testing.T) {
	node := &corev1.Node{
		Spec: corev1.NodeSpec{Unschedulable: true},
		Status: corev1.NodeStatus{Conditions: []corev1.NodeCondition{
			{Type: corev1.NodeReady, Status: corev1.ConditionUnknown},
			{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue},
			{Type: corev1.NodeDiskPressure, Status: corev1.ConditionFalse},
		}},
	}
	assert.Equal(t, []corev1.Taint{
		{Key: corev1.TaintNodeUnreachable, Effect: corev1.TaintEffectNoSchedule},
		{Key: TaintNodeMemoryPressure, Effect: corev1.TaintEffectNoSchedule},
		{Key: corev1.TaintNodeUnschedulable, Effect: corev1.TaintEffectNoSchedule},
	}, noScheduleTaints(node))
}

func TestZoneKey(t *testing.T) {
	node := func(labels map[string]string) *corev1.Node {
		return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Labels: labels}}
	}
	assert.Equal(t, "", zoneKey(node(nil)))
	assert.Equal(t, "r:\x00:z", zoneKey(node(map[string]string{labelTopologyRegion: "r", labelTopologyZone: "z"})))
	assert.Equal(t, "r:\x00:z", zoneKey(node(map[string]string{labelFailureRegion: "r", labelFailureZone: "z"})), "beta labels")
}
