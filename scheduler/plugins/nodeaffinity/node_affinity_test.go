package nodeaffinity_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins/nodeaffinity"
)

func req(key string, op corev1.NodeSelectorOperator, values ...string) corev1.NodeSelectorRequirement {
	return corev1.NodeSelectorRequirement{Key: key, Operator: op, Values: values}
}

func fields(reqs ...corev1.NodeSelectorRequirement) corev1.NodeSelectorTerm {
	return corev1.NodeSelectorTerm{MatchFields: reqs}
}

func TestFilter(t *testing.T) {
	// The node: name n1, zone a, cpus 8, disk ssd.
	node := st.MakeNode().Name("n1").Label("zone", "a").Label("cpus", "8").Label("disk", "ssd").Obj()
	tests := []struct {
		name string
		pod  *corev1.Pod
		fits bool
	}{
		{name: "nothing required", pod: st.MakePod().Obj(), fits: true},
		{name: "nodeSelector matches", pod: st.MakePod().NodeSelector(map[string]string{"zone": "a", "disk": "ssd"}).Obj(), fits: true},
		{name: "nodeSelector value differs", pod: st.MakePod().NodeSelector(map[string]string{"zone": "b"}).Obj()},
		{name: "nodeSelector label missing", pod: st.MakePod().NodeSelector(map[string]string{"gpu": ""}).Obj()},
		{name: "In", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("zone", "In", "a", "b"))).Obj(), fits: true},
		{name: "In, no match", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("zone", "In", "b"))).Obj()},
		{name: "NotIn", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("zone", "NotIn", "b"))).Obj(), fits: true},
		{name: "NotIn, label missing", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("gpu", "NotIn", "x"))).Obj(), fits: true},
		{name: "NotIn, no match", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("zone", "NotIn", "a"))).Obj()},
		{name: "Exists", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("disk", "Exists"))).Obj(), fits: true},
		{name: "Exists, no match", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("gpu", "Exists"))).Obj()},
		{name: "DoesNotExist", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("gpu", "DoesNotExist"))).Obj(), fits: true},
		{name: "DoesNotExist, no match", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("disk", "DoesNotExist"))).Obj()},
		{name: "Gt", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("cpus", "Gt", "4"))).Obj(), fits: true},
		{name: "Gt, no match", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("cpus", "Gt", "8"))).Obj()},
		{name: "Lt", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("cpus", "Lt", "16"))).Obj(), fits: true},
		{name: "Lt on a non-integer label", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("disk", "Lt", "16"))).Obj()},
		{name: "Gt with a non-integer value never matches", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("cpus", "Gt", "four"))).Obj()},
		{name: "unknown operator never matches", pod: st.MakePod().RequiredNodeAffinity(st.Term(req("zone", "Near", "a"))).Obj()},
		{name: "expressions of a term are ANDed",
			pod: st.MakePod().RequiredNodeAffinity(st.Term(req("zone", "In", "a"), req("disk", "In", "hdd"))).Obj()},
		{name: "terms are ORed",
			pod: st.MakePod().RequiredNodeAffinity(st.Term(req("zone", "In", "b"))).RequiredNodeAffinity(st.Term(req("disk", "In", "ssd"))).Obj(), fits: true},
		{name: "an empty term matches nothing", pod: st.MakePod().RequiredNodeAffinity(corev1.NodeSelectorTerm{}).Obj()},
		{name: "matchFields In", pod: st.MakePod().RequiredNodeAffinity(fields(req("metadata.name", "In", "n1"))).Obj(), fits: true},
		{name: "matchFields In, other node", pod: st.MakePod().RequiredNodeAffinity(fields(req("metadata.name", "In", "n2"))).Obj()},
		{name: "matchFields NotIn", pod: st.MakePod().RequiredNodeAffinity(fields(req("metadata.name", "NotIn", "n2"))).Obj(), fits: true},
		{name: "matchFields NotIn, this node", pod: st.MakePod().RequiredNodeAffinity(fields(req("metadata.name", "NotIn", "n1"))).Obj()},
		{name: "matchFields on another field never matches", pod: st.MakePod().RequiredNodeAffinity(fields(req("spec.podCIDR", "In", "x"))).Obj()},
		{name: "matchFields with two values never matches", pod: st.MakePod().RequiredNodeAffinity(fields(req("metadata.name", "In", "n1", "n2"))).Obj()},
		{name: "matchFields and matchExpressions in one term",
			pod: st.MakePod().RequiredNodeAffinity(corev1.NodeSelectorTerm{
				MatchExpressions: []corev1.NodeSelectorRequirement{req("zone", "In", "a")},
				MatchFields:      []corev1.NodeSelectorRequirement{req("metadata.name", "In", "n1")},
			}).Obj(), fits: true},
		{name: "nodeSelector and affinity must both hold",
			pod: st.MakePod().NodeSelector(map[string]string{"zone": "b"}).RequiredNodeAffinity(st.Term(req("zone", "In", "a"))).Obj()},
		{name: "required affinity with no terms matches nothing",
			pod: func() *corev1.Pod {
				p := st.MakePod().Obj()
				p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{},
				}}
				return p
			}()},
		{name: "only preferred terms: nothing required",
			pod: st.MakePod().PreferredNodeAffinity(10, st.Term(req("zone", "In", "b"))).Obj(), fits: true},
	}
	pl, err := nodeaffinity.New()
	require.NoError(t, err)
	na := pl.(*nodeaffinity.NodeAffinity)
	nodeInfo := framework.NewNodeInfo(node)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			state := framework.NewCycleState()
			pre := na.PreFilter(t.Context(), state, tc.pod)
			got := na.Filter(t.Context(), state, tc.pod, nodeInfo)
			if tc.fits {
				assert.True(t, got.IsSuccess(), "Filter: %v", got)
			} else {
				assert.Equal(t, framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector"), got)
			}
			if pre.IsSkip() {
				assert.True(t, tc.fits, "PreFilter skips only pods that require nothing")
			}
			again := na.Filter(t.Context(), framework.NewCycleState(), tc.pod, nodeInfo)
			assert.Equal(t, got, again, "Filter without PreFilter")
		})
	}
}

func TestPreFilterSkip(t *testing.T) {
	pl, _ := nodeaffinity.New()
	na := pl.(*nodeaffinity.NodeAffinity)
	assert.True(t, na.PreFilter(t.Context(), framework.NewCycleState(), st.MakePod().Obj()).IsSkip())
	assert.True(t, na.PreFilter(t.Context(), framework.NewCycleState(), st.MakePod().NodeSelector(map[string]string{"a": "b"}).Obj()).IsSuccess())
}

func TestScore(t *testing.T) {
	nodes := []*framework.NodeInfo{
		framework.NewNodeInfo(st.MakeNode().Name("both").Label("zone", "a").Label("disk", "ssd").Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("zone").Label("zone", "a").Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("disk").Label("disk", "ssd").Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("none").Obj()),
	}
	pod := st.MakePod().
		PreferredNodeAffinity(30, st.Term(req("zone", "In", "a"))).
		PreferredNodeAffinity(10, st.Term(req("disk", "In", "ssd"))).
		PreferredNodeAffinity(50, corev1.NodeSelectorTerm{}). // matches nothing
		Obj()
	pl, _ := nodeaffinity.New()
	na := pl.(*nodeaffinity.NodeAffinity)
	state := framework.NewCycleState()
	require.Nil(t, na.PreScore(t.Context(), state, pod, nodes))
	scores := make(framework.NodeScoreList, len(nodes))
	for i, n := range nodes {
		s, status := na.Score(t.Context(), state, pod, n)
		require.Nil(t, status)
		scores[i] = framework.NodeScore{Name: n.Node().Name, Score: s}
	}
	assert.Equal(t, framework.NodeScoreList{{Name: "both", Score: 40}, {Name: "zone", Score: 30}, {Name: "disk", Score: 10}, {Name: "none", Score: 0}}, scores, "raw: sum of weights")
	require.Nil(t, na.NormalizeScore(t.Context(), state, pod, scores))
	// 30*100/40 = 75, 10*100/40 = 25.
	assert.Equal(t, framework.NodeScoreList{{Name: "both", Score: 100}, {Name: "zone", Score: 75}, {Name: "disk", Score: 25}, {Name: "none", Score: 0}}, scores, "normalized")

	s, _ := na.Score(t.Context(), framework.NewCycleState(), pod, nodes[1])
	assert.Equal(t, int64(30), s, "Score without PreScore")
	assert.True(t, na.PreScore(t.Context(), framework.NewCycleState(), st.MakePod().Obj(), nodes).IsSkip(),
		"no preferred terms: Skip")
}
