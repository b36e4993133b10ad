package plugins_test

import (
	"math/rand/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins"
)

type rl = map[corev1.ResourceName]string

func newFramework(t testing.TB, profile config.KubeSchedulerProfile) *framework.Framework {
	t.Helper()
	f, err := framework.New(framework.Options{Profile: profile, Registry: plugins.NewInTreeRegistry()})
	require.NoError(t, err, "framework.New(%+v)", profile)
	return f
}

func TestDefaultProfile(t *testing.T) {
	f := newFramework(t, config.Default().Profiles[0])
	assert.Equal(t, "default-scheduler", f.ProfileName())
	got := f.ListPlugins()
	assert.Equal(t, []config.Plugin{
		{Name: "NodeUnschedulable"}, {Name: "NodeName"}, {Name: "NodeReady"}, {Name: "TaintToleration"},
		{Name: "NodeAffinity"}, {Name: "NodeResourcesFit"},
	}, got.Filter.Enabled, "filter plugins, in upstream's order")
	assert.Equal(t, []config.Plugin{
		{Name: "TaintToleration", Weight: 3}, {Name: "NodeAffinity", Weight: 2},
		{Name: "NodeResourcesFit", Weight: 1}, {Name: "NodeResourcesBalancedAllocation", Weight: 1},
	}, got.Score.Enabled, "score plugins with upstream's default weights")
}

func TestConfigFileProfiles(t *testing.T) {
	cfg, err := config.Parse([]byte(`
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: default-scheduler
  plugins:
    score:
      enabled:
      - name: NodeAffinity
        weight: 5
      disabled:
      - name: NodeResourcesBalancedAllocation
- schedulerName: bin-packing-free
  plugins:
    multiPoint:
      disabled:
      - name: '*'
    filter:
      enabled:
      - name: NodeResourcesFit
`))
	require.NoError(t, err)
	f := newFramework(t, cfg.Profiles[0])
	assert.Equal(t, []config.Plugin{
		{Name: "NodeAffinity", Weight: 5}, {Name: "TaintToleration", Weight: 3}, {Name: "NodeResourcesFit", Weight: 1},
	}, f.ListPlugins().Score.Enabled)

	f = newFramework(t, cfg.Profiles[1])
	assert.Equal(t, config.Plugins{Filter: config.PluginSet{Enabled: []config.Plugin{{Name: "NodeResourcesFit"}}}}, f.ListPlugins())
}

func TestConfigUnknownPlugin(t *testing.T) {
	tests := []struct {
		name    string
		plugins string
		wantErr string
	}{
		{name: "unknown score plugin", plugins: "score:\n      enabled:\n      - name: NodeResourcesLeastAllocated",
			wantErr: `ScorePlugin "NodeResourcesLeastAllocated" does not exist`},
		{name: "unknown multiPoint plugin", plugins: "multiPoint:\n      enabled:\n      - name: PodTopologySpread",
			wantErr: `FilterPlugin "PodTopologySpread" does not exist`},
		{name: "filter-only plugin as a score plugin", plugins: "score:\n      enabled:\n      - name: NodeName",
			wantErr: `plugin "NodeName" does not extend ScorePlugin plugin`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg, err := config.Parse([]byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" +
				"profiles:\n- plugins:\n    " + tc.plugins + "\n"))
			require.NoError(t, err, "the file itself is valid")
			_, err = framework.New(framework.Options{Profile: cfg.Profiles[0], Registry: plugins.NewInTreeRegistry()})
			assert.EqualError(t, err, tc.wantErr)
		})
	}
}

// TestFailedSchedulingMessage runs the default profile over nodes that
// each fail for a different reason and checks the message of the
// FailedScheduling event, word for word.
func TestFailedSchedulingMessage(t *testing.T) {
	capacity := rl{"cpu": "2", "memory": "4Gi", "pods": "110"}
	busy := st.MakePod().Name("busy").UID("busy").Req(rl{"cpu": "1500m"}).Obj()
	nodes := []*framework.NodeInfo{
		framework.NewNodeInfo(st.MakeNode().Name("full").Capacity(capacity).Obj(), busy),
		framework.NewNodeInfo(st.MakeNode().Name("small").Capacity(rl{"cpu": "500m", "memory": "4Gi", "pods": "110"}).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("gpu1").Capacity(capacity).Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("gpu2").Capacity(capacity).Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("cordoned").Capacity(capacity).Unschedulable(true).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("down").Capacity(capacity).Ready(corev1.ConditionUnknown).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("zone-b").Capacity(capacity).Label("zone", "b").Obj()),
	}
	f := newFramework(t, config.Default().Profiles[0])
	// zone-b is the only node that passes every other check, and it is
	// too small for the pod's memory.
	pod := st.MakePod().Name("web").Req(rl{"cpu": "1", "memory": "5Gi"}).
		NodeSelector(map[string]string{"zone": "b"}).RequiredNodeAffinity(st.Term(st.In("zone", "a", "b"))).Obj()

	_, err := f.SchedulePod(t.Context(), pod, nodes, nil)
	var fitErr *framework.FitError
	require.ErrorAs(t, err, &fitErr)
	// full and small fail NodeAffinity (no zone label) before
	// NodeResourcesFit: the filters run in order and stop at the first
	// rejection. Every rejection is unresolvable (zone-b asks for more
	// memory than the node has), so preemption would not help anywhere.
	assert.Equal(t,
		"0/7 nodes are available: "+
			"1 Insufficient memory, "+
			"1 node(s) were not ready, "+
			"1 node(s) were unschedulable, "+
			"2 node(s) didn't match Pod's node affinity/selector, "+
			"2 node(s) had untolerated taint {dedicated: gpu}. "+
			"preemption: 0/7 nodes are available: 7 Preemption is not helpful for scheduling.",
		err.Error())
	assert.Equal(t, map[string]struct{}{"NodeReady": {}, "NodeUnschedulable": {}, "TaintToleration": {}, "NodeAffinity": {}, "NodeResourcesFit": {}},
		fitErr.Diagnosis.UnschedulablePlugins)
}

// TestFailedSchedulingMessageCPU is the example of the issue: one node
// short of cpu, two tainted.
func TestFailedSchedulingMessageCPU(t *testing.T) {
	capacity := rl{"cpu": "2", "memory": "4Gi", "pods": "110"}
	nodes := []*framework.NodeInfo{
		framework.NewNodeInfo(st.MakeNode().Name("n1").Capacity(capacity).Obj(),
			st.MakePod().Name("busy").Req(rl{"cpu": "1500m"}).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("n2").Capacity(capacity).Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("n3").Capacity(capacity).Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule).Obj()),
	}
	f := newFramework(t, config.Default().Profiles[0])
	_, err := f.SchedulePod(t.Context(), st.MakePod().Req(rl{"cpu": "1"}).Obj(), nodes, nil)
	assert.EqualError(t, err, "0/3 nodes are available: 1 Insufficient cpu, 2 node(s) had untolerated taint {dedicated: gpu}. "+
		"preemption: 0/3 nodes are available: 1 No preemption victims found for incoming pod, 2 Preemption is not helpful for scheduling.")
}

// TestSpreadsPods schedules pods one after another on identical nodes,
// assuming each on its node as the scheduler's cache will: LeastAllocated
// spreads them evenly, and the same seed gives the same placement.
func TestSpreadsPods(t *testing.T) {
	place := func(seed uint64) []string {
		var nodes []*framework.NodeInfo
		for _, name := range []string{"a", "b", "c"} {
			nodes = append(nodes, framework.NewNodeInfo(st.MakeNode().Name(name).Capacity(rl{"cpu": "4", "memory": "8Gi", "pods": "110"}).Obj()))
		}
		f := newFramework(t, config.Default().Profiles[0])
		r := rand.New(rand.NewPCG(seed, 0))
		var hosts []string
		for i := range 9 {
			pod := st.MakePod().Name("p" + string(rune('0'+i))).Req(rl{"cpu": "250m", "memory": "256Mi"}).Obj()
			res, err := f.SchedulePod(t.Context(), pod, nodes, r)
			require.NoError(t, err)
			hosts = append(hosts, res.SuggestedHost)
			for _, n := range nodes {
				if n.Node().Name == res.SuggestedHost {
					n.AddPod(pod)
				}
			}
		}
		return hosts
	}
	hosts := place(1)
	counts := map[string]int{}
	for _, h := range hosts {
		counts[h]++
	}
	assert.Equal(t, map[string]int{"a": 3, "b": 3, "c": 3}, counts, "placement %v", hosts)
	assert.Equal(t, hosts, place(1), "same seed, same placement")
}

func TestPreferredAffinityAndTaintsWin(t *testing.T) {
	capacity := rl{"cpu": "4", "memory": "8Gi", "pods": "110"}
	nodes := []*framework.NodeInfo{
		// Emptiest, but with a PreferNoSchedule taint: -3*100.
		framework.NewNodeInfo(st.MakeNode().Name("tainted").Capacity(rl{"cpu": "64", "memory": "256Gi", "pods": "110"}).
			Taint("spot", "true", corev1.TaintEffectPreferNoSchedule).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("plain").Capacity(capacity).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("ssd").Capacity(capacity).Label("disk", "ssd").Obj()),
	}
	f := newFramework(t, config.Default().Profiles[0])
	pod := st.MakePod().Req(rl{"cpu": "1", "memory": "1Gi"}).PreferredNodeAffinity(1, st.Term(st.In("disk", "ssd"))).Obj()
	res, err := f.SchedulePod(t.Context(), pod, nodes, nil)
	require.NoError(t, err)
	assert.Equal(t, "ssd", res.SuggestedHost, "scores: %+v", res.NodeScores)
}
