package framework_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
)

func scoresOf(totals ...int64) []framework.NodePluginScores {
	out := make([]framework.NodePluginScores, len(totals))
	for i, t := range totals {
		out[i] = framework.NodePluginScores{Name: "n" + string(rune('a'+i)), TotalScore: t}
	}
	return out
}

func TestSelectHost(t *testing.T) {
	_, err := framework.SelectHost(nil, nil)
	assert.EqualError(t, err, "empty priorityList")

	host, err := framework.SelectHost(scoresOf(10, 30, 20), rand.New(rand.NewPCG(1, 2)))
	require.NoError(t, err)
	assert.Equal(t, "nb", host, "the highest score wins")

	host, err = framework.SelectHost(scoresOf(5, 30, 30, 30), nil)
	require.NoError(t, err)
	assert.Equal(t, "nb", host, "a nil rand picks the first of the tied nodes")
}

// TestSelectHostTieBreaking checks that ties are broken by the given rand
// only: the same seed gives the same sequence of choices, and over many
// draws every tied node (and no other) is picked about equally often.
func TestSelectHostTieBreaking(t *testing.T) {
	scores := scoresOf(30, 10, 30, 30, 20)
	draw := func(seed uint64, n int) []string {
		r := rand.New(rand.NewPCG(seed, 0))
		out := make([]string, n)
		for i := range out {
			h, err := framework.SelectHost(scores, r)
			require.NoError(t, err)
			out[i] = h
		}
		return out
	}
	a, b := draw(42, 50), draw(42, 50)
	assert.Equal(t, a, b, "same seed, same choices")
	assert.NotEqual(t, a, draw(43, 50), "another seed, other choices")

	const n = 3000
	counts := map[string]int{}
	for _, h := range draw(7, n) {
		counts[h]++
	}
	assert.Len(t, counts, 3, "only the tied nodes are picked: %v", counts)
	for _, name := range []string{"na", "nc", "nd"} {
		// Each has p = 1/3; 4 standard deviations is about ±100.
		assert.InDelta(t, n/3, counts[name], 120, "picks of %s: %v", name, counts)
	}
}

// rejectOdd rejects nodes with an odd index, with a reason that depends on
// the node, so the aggregation is visible.
func rejectOdd() *fakePlugin {
	return &fakePlugin{name: "Odd", filter: func(_ *corev1.Pod, n *framework.NodeInfo) *framework.Status {
		i := n.Allocatable.MilliCPU/1000 - 1
		switch {
		case i%2 == 0:
			return nil
		case i%4 == 1:
			return framework.NewStatus(framework.Unschedulable, "Insufficient cpu", "Insufficient memory")
		}
		return framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {a: b}")
	}}
}

func TestFindNodesThatFitIsDeterministic(t *testing.T) {
	nodes := makeNodes(10)
	for _, parallelism := range []int{1, 3, 16} {
		f, err := framework.New(framework.Options{
			Profile:     config.KubeSchedulerProfile{Plugins: config.Plugins{Filter: enabled("Odd")}},
			Registry:    registryOf(rejectOdd()),
			Parallelism: parallelism,
		})
		require.NoError(t, err)
		feasible, d, err := f.FindNodesThatFit(t.Context(), framework.NewCycleState(), st.MakePod().Obj(), nodes)
		require.NoError(t, err)
		var names []string
		for _, n := range feasible {
			names = append(names, n.Node().Name)
		}
		assert.Equal(t, []string{"n0", "n2", "n4", "n6", "n8"}, names, "feasible nodes keep their order (parallelism %d)", parallelism)
		assert.Len(t, d.NodeToStatus, 5)
		assert.Equal(t, "Odd", d.NodeToStatus["n1"].Plugin(), "the rejecting plugin is recorded")
		assert.Equal(t, map[string]struct{}{"Odd": {}}, d.UnschedulablePlugins)
	}
}

func TestSchedulePodFitError(t *testing.T) {
	f, err := framework.New(framework.Options{
		Profile:  config.KubeSchedulerProfile{Plugins: config.Plugins{Filter: enabled("Odd")}},
		Registry: registryOf(rejectOdd()),
	})
	require.NoError(t, err)
	nodes := makeNodes(10)
	// Keep only the rejected nodes: n1, n3, n5, n7, n9.
	var odd []*framework.NodeInfo
	for i, n := range nodes {
		if i%2 == 1 {
			odd = append(odd, n)
		}
	}
	_, err = f.SchedulePod(t.Context(), st.MakePod().Obj(), odd, nil)
	var fitErr *framework.FitError
	require.ErrorAs(t, err, &fitErr)
	assert.Equal(t, 5, fitErr.NumAllNodes)
	// n1, n5, n9 are short of cpu and memory; n3, n7 tainted. No pod
	// anywhere, so no preemption victims on the first three.
	assert.Equal(t, "0/5 nodes are available: 2 node(s) had untolerated taint {a: b}, 3 Insufficient cpu, 3 Insufficient memory."+
		" preemption: 0/5 nodes are available: 2 Preemption is not helpful for scheduling, 3 No preemption victims found for incoming pod.",
		err.Error())

	_, err = f.SchedulePod(t.Context(), st.MakePod().Obj(), nil, nil)
	assert.ErrorIs(t, err, framework.ErrNoNodesAvailable)
}

func TestSchedulePodPreFilterRejection(t *testing.T) {
	filtered := false
	pl := &fakePlugin{
		name: "Gate",
		preFilter: func(*corev1.Pod) *framework.Status {
			return framework.NewStatus(framework.UnschedulableAndUnresolvable, "pod affinity terms conflict")
		},
		filter: func(*corev1.Pod, *framework.NodeInfo) *framework.Status { filtered = true; return nil },
	}
	f, err := framework.New(framework.Options{
		Profile:  config.KubeSchedulerProfile{Plugins: config.Plugins{Filter: enabled("Gate")}},
		Registry: registryOf(pl),
	})
	require.NoError(t, err)
	_, err = f.SchedulePod(t.Context(), st.MakePod().Obj(), makeNodes(3), nil)
	var fitErr *framework.FitError
	require.ErrorAs(t, err, &fitErr)
	assert.False(t, filtered, "no Filter runs after a PreFilter rejection")
	assert.Equal(t, "0/3 nodes are available: pod affinity terms conflict."+
		" preemption: 0/3 nodes are available: 3 Preemption is not helpful for scheduling.", err.Error())
	assert.Len(t, fitErr.Diagnosis.NodeToStatus, 3, "every node carries the PreFilter status")
}

func TestSchedulePodPluginError(t *testing.T) {
	pl := &fakePlugin{name: "Boom", filter: func(_ *corev1.Pod, n *framework.NodeInfo) *framework.Status {
		if n.Node().Name == "n4" {
			return framework.AsStatus(errors.New("lost the node"))
		}
		return nil
	}}
	f, err := framework.New(framework.Options{
		Profile:  config.KubeSchedulerProfile{Plugins: config.Plugins{Filter: enabled("Boom")}},
		Registry: registryOf(pl),
	})
	require.NoError(t, err)
	_, err = f.SchedulePod(t.Context(), st.MakePod().Obj(), makeNodes(8), nil)
	assert.EqualError(t, err, `node "n4": running "Boom" filter plugin: lost the node`)
	var fitErr *framework.FitError
	assert.False(t, errors.As(err, &fitErr), "a plugin error is not a FitError")
}

func TestSchedulePodContextCanceled(t *testing.T) {
	ctx, cancel := context.WithCancel(t.Context())
	pl := &fakePlugin{name: "Cancel", filter: func(*corev1.Pod, *framework.NodeInfo) *framework.Status {
		cancel()
		return nil
	}}
	f, err := framework.New(framework.Options{
		Profile:  config.KubeSchedulerProfile{Plugins: config.Plugins{Filter: enabled("Cancel")}},
		Registry: registryOf(pl),
	})
	require.NoError(t, err)
	_, err = f.SchedulePod(ctx, st.MakePod().Obj(), makeNodes(100), nil)
	assert.ErrorIs(t, err, context.Canceled)
}

// TestSchedulePodScores checks the whole cycle: the one feasible node is
// chosen without scoring, and among several the highest total wins.
func TestSchedulePodScores(t *testing.T) {
	most := &fakePlugin{name: "MostCPU", score: func(_ *corev1.Pod, n *framework.NodeInfo) (int64, *framework.Status) {
		return n.Allocatable.MilliCPU / 100, nil
	}}
	f, err := framework.New(framework.Options{
		Profile: config.KubeSchedulerProfile{Plugins: config.Plugins{
			Filter: enabled("Odd"), Score: enabled("MostCPU"),
		}},
		Registry: registryOf(rejectOdd(), most),
	})
	require.NoError(t, err)
	nodes := makeNodes(6)
	res, err := f.SchedulePod(t.Context(), st.MakePod().Obj(), nodes, rand.New(rand.NewPCG(1, 1)))
	require.NoError(t, err)
	assert.Equal(t, "n4", res.SuggestedHost, "n4 has the most cpu of n0, n2, n4")
	assert.Equal(t, 6, res.EvaluatedNodes)
	assert.Equal(t, 3, res.FeasibleNodes)
	require.Len(t, res.NodeScores, 3)
	assert.Equal(t, int64(50), res.NodeScores[2].TotalScore)

	res, err = f.SchedulePod(t.Context(), st.MakePod().Obj(), nodes[:2], nil)
	require.NoError(t, err)
	assert.Equal(t, "n0", res.SuggestedHost)
	assert.Nil(t, res.NodeScores, "one feasible node is not scored")
}

func TestPreemptionMessage(t *testing.T) {
	// "Full" rejects a node with any pod on it as Unschedulable.
	full := &fakePlugin{name: "Full", filter: func(_ *corev1.Pod, n *framework.NodeInfo) *framework.Status {
		if len(n.Pods) > 0 {
			return framework.NewStatus(framework.Unschedulable, "Too many pods")
		}
		return nil
	}}
	f, err := framework.New(framework.Options{
		Profile:  config.KubeSchedulerProfile{Plugins: config.Plugins{Filter: enabled("Full")}},
		Registry: registryOf(full),
	})
	require.NoError(t, err)
	nodeWith := func(name string, pods ...*corev1.Pod) *framework.NodeInfo {
		return framework.NewNodeInfo(st.MakeNode().Name(name).Obj(), pods...)
	}
	low := st.MakePod().Name("low").Priority(-1).Obj()
	same := st.MakePod().Name("same").Obj()

	tests := []struct {
		name  string
		pod   *corev1.Pod
		nodes []*framework.NodeInfo
		want  string
	}{
		{
			name:  "no victims",
			pod:   st.MakePod().Obj(),
			nodes: []*framework.NodeInfo{nodeWith("a", same), nodeWith("b", same)},
			want:  "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.",
		},
		{
			name:  "evicting the lower priority pod would help: upstream preempts, no clause",
			pod:   st.MakePod().Obj(),
			nodes: []*framework.NodeInfo{nodeWith("a", same), nodeWith("b", low)},
			want:  "",
		},
		{
			name:  "evicting the victims would not help",
			pod:   st.MakePod().Obj(),
			nodes: []*framework.NodeInfo{nodeWith("a", low, same)},
			want:  "preemption: 0/1 nodes are available: 1 Too many pods.",
		},
		{
			name:  "preemptionPolicy Never",
			pod:   st.MakePod().PreemptionPolicy(corev1.PreemptNever).Obj(),
			nodes: []*framework.NodeInfo{nodeWith("a", low)},
			want:  "preemption: not eligible due to preemptionPolicy=Never.",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := f.SchedulePod(t.Context(), tc.pod, tc.nodes, nil)
			var fitErr *framework.FitError
			require.ErrorAs(t, err, &fitErr)
			assert.Equal(t, tc.want, fitErr.Diagnosis.PostFilterMsg)
			assert.True(t, strings.HasSuffix(err.Error(), tc.want), "message %q ends with the clause", err.Error())
		})
	}
}

func TestFitErrorMessage(t *testing.T) {
	tests := []struct {
		name string
		err  framework.FitError
		want string
	}{
		{
			name: "histogram sorted as strings",
			err: framework.FitError{NumAllNodes: 3, Diagnosis: framework.Diagnosis{NodeToStatus: map[string]*framework.Status{
				"a": framework.NewStatus(framework.Unschedulable, "Insufficient cpu"),
				"b": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {k: v}"),
				"c": framework.NewStatus(framework.UnschedulableAndUnresolvable, "node(s) had untolerated taint {k: v}"),
			}}},
			want: "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {k: v}.",
		},
		{
			name: "no reasons",
			err:  framework.FitError{NumAllNodes: 0},
			want: "0/0 nodes are available:",
		},
		{
			name: "prefilter and postfilter messages",
			err:  framework.FitError{NumAllNodes: 2, Diagnosis: framework.Diagnosis{PreFilterMsg: "x", PostFilterMsg: "preemption: y."}},
			want: "0/2 nodes are available: x. preemption: y.",
		},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, tc.err.Error(), tc.name)
	}
}
