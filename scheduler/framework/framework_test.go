package framework_test

import (
	"errors"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
)

// testRegistry has "A" (filter+score), "F" (filter only), "S" (score
// only), "B" (filter+score).
func testRegistry() framework.Registry {
	return registryOf(
		&fakePlugin{name: "A"},
		filterOnly{&fakePlugin{name: "F"}},
		scoreOnly{&fakePlugin{name: "S"}},
		&fakePlugin{name: "B"},
	)
}

func enabled(names ...string) config.PluginSet {
	var s config.PluginSet
	for _, n := range names {
		s.Enabled = append(s.Enabled, config.Plugin{Name: n})
	}
	return s
}

func TestNewExpandsPlugins(t *testing.T) {
	tests := []struct {
		name       string
		plugins    config.Plugins
		wantFilter []string
		wantScore  []config.Plugin
	}{
		{
			name:       "multiPoint enables each plugin where it fits",
			plugins:    config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A", Weight: 3}, {Name: "F"}, {Name: "S", Weight: 2}}}},
			wantFilter: []string{"A", "F"},
			wantScore:  []config.Plugin{{Name: "A", Weight: 3}, {Name: "S", Weight: 2}},
		},
		{
			name: "a point's own entry overrides multiPoint and comes first",
			plugins: config.Plugins{
				MultiPoint: config.PluginSet{Enabled: []config.Plugin{{Name: "A", Weight: 3}, {Name: "S", Weight: 2}}},
				Score:      config.PluginSet{Enabled: []config.Plugin{{Name: "B", Weight: 4}, {Name: "S", Weight: 7}}},
			},
			wantFilter: []string{"A"},
			// S overridden (first, its own weight), then multiPoint's A,
			// then the rest of the point's list.
			wantScore: []config.Plugin{{Name: "S", Weight: 7}, {Name: "A", Weight: 3}, {Name: "B", Weight: 4}},
		},
		{
			name: "disabled at one point only",
			plugins: config.Plugins{
				MultiPoint: enabled("A", "F", "S"),
				Score:      config.PluginSet{Disabled: []config.Plugin{{Name: "A"}}},
			},
			wantFilter: []string{"A", "F"},
			wantScore:  []config.Plugin{{Name: "S", Weight: 1}},
		},
		{
			name: "star disables every multiPoint plugin at that point",
			plugins: config.Plugins{
				MultiPoint: enabled("A", "F", "S"),
				Filter:     config.PluginSet{Enabled: []config.Plugin{{Name: "B"}}, Disabled: []config.Plugin{{Name: "*"}}},
			},
			wantFilter: []string{"B"},
			wantScore:  []config.Plugin{{Name: "A", Weight: 1}, {Name: "S", Weight: 1}},
		},
		{
			name:       "zero weight means 1",
			plugins:    config.Plugins{Score: config.PluginSet{Enabled: []config.Plugin{{Name: "S", Weight: 0}}}},
			wantFilter: nil,
			wantScore:  []config.Plugin{{Name: "S", Weight: 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := framework.New(framework.Options{
				Profile:  config.KubeSchedulerProfile{SchedulerName: "s", Plugins: tc.plugins},
				Registry: testRegistry(),
			})
			require.NoError(t, err, "New(%+v)", tc.plugins)
			got := f.ListPlugins()
			var filters []string
			for _, p := range got.Filter.Enabled {
				filters = append(filters, p.Name)
			}
			assert.Equal(t, tc.wantFilter, filters, "filter plugins")
			assert.Equal(t, tc.wantScore, got.Score.Enabled, "score plugins")
			assert.Equal(t, "s", f.ProfileName())
		})
	}
}

func TestNewErrors(t *testing.T) {
	failing := framework.Registry{"Broken": func() (framework.Plugin, error) { return nil, errors.New("no") }}
	tests := []struct {
		name     string
		plugins  config.Plugins
		registry framework.Registry
		wantErr  string
	}{
		{name: "unknown filter plugin", plugins: config.Plugins{Filter: enabled("Nope")},
			wantErr: `FilterPlugin "Nope" does not exist`},
		{name: "unknown score plugin", plugins: config.Plugins{Score: enabled("Nope")},
			wantErr: `ScorePlugin "Nope" does not exist`},
		{name: "unknown multiPoint plugin", plugins: config.Plugins{MultiPoint: enabled("A", "Nope")},
			wantErr: `FilterPlugin "Nope" does not exist`},
		{name: "not a score plugin", plugins: config.Plugins{Score: enabled("F")},
			wantErr: `plugin "F" does not extend ScorePlugin plugin`},
		{name: "not a filter plugin", plugins: config.Plugins{Filter: enabled("S")},
			wantErr: `plugin "S" does not extend FilterPlugin plugin`},
		{name: "enabled twice", plugins: config.Plugins{Filter: enabled("A", "A")},
			wantErr: `plugin "A" already registered as "FilterPlugin"`},
		{name: "enabled twice in multiPoint", plugins: config.Plugins{MultiPoint: enabled("A", "A")},
			wantErr: `plugin "A" already registered as "FilterPlugin"`},
		{name: "factory fails", plugins: config.Plugins{Filter: enabled("Broken")}, registry: failing,
			wantErr: `initializing plugin "Broken": no`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.registry
			if r == nil {
				r = testRegistry()
			}
			_, err := framework.New(framework.Options{Profile: config.KubeSchedulerProfile{Plugins: tc.plugins}, Registry: r})
			assert.EqualError(t, err, tc.wantErr, "New(%+v)", tc.plugins)
		})
	}
}

func TestNewZeroOptions(t *testing.T) {
	f, err := framework.New(framework.Options{})
	require.NoError(t, err)
	assert.Equal(t, corev1.DefaultSchedulerName, f.ProfileName())
	assert.False(t, f.HasScorePlugins())
	nodes := []*framework.NodeInfo{framework.NewNodeInfo(st.MakeNode().Name("n1").Obj())}
	res, err := f.SchedulePod(t.Context(), st.MakePod().Obj(), nodes, nil)
	require.NoError(t, err)
	assert.Equal(t, "n1", res.SuggestedHost, "with no plugins every node fits")
}

// TestNewInstantiatesOnce checks that a plugin serving Filter and Score is
// one instance.
func TestNewInstantiatesOnce(t *testing.T) {
	calls := 0
	r := framework.Registry{"A": func() (framework.Plugin, error) { calls++; return &fakePlugin{name: "A"}, nil }}
	_, err := framework.New(framework.Options{Profile: config.KubeSchedulerProfile{Plugins: config.Plugins{
		MultiPoint: enabled("A"), Filter: enabled("A"), Score: enabled("A"),
	}}, Registry: r})
	require.NoError(t, err)
	assert.Equal(t, 1, calls, "factory calls")
}

func TestRunPreFilterPluginsSkip(t *testing.T) {
	filtered := 0
	skipper := &fakePlugin{
		name:      "Skipper",
		preFilter: func(*corev1.Pod) *framework.Status { return framework.NewStatus(framework.Skip) },
		filter: func(*corev1.Pod, *framework.NodeInfo) *framework.Status {
			filtered++
			return framework.NewStatus(framework.Unschedulable, "never")
		},
	}
	f, err := framework.New(framework.Options{
		Profile:     config.KubeSchedulerProfile{Plugins: config.Plugins{Filter: enabled("Skipper")}},
		Registry:    registryOf(skipper),
		Parallelism: 1,
	})
	require.NoError(t, err)
	state := framework.NewCycleState()
	feasible, _, err := f.FindNodesThatFit(t.Context(), state, st.MakePod().Obj(), makeNodes(3))
	require.NoError(t, err)
	assert.Len(t, feasible, 3, "a plugin whose PreFilter skipped does not filter")
	assert.Zero(t, filtered, "Filter calls")
}

func TestRunScorePlugins(t *testing.T) {
	// "A" scores node i as i, normalized to 0-100 with the best at 100;
	// "S" scores 10 everywhere; "Skipped" returns Skip from PreScore.
	a := &fakePlugin{
		name: "A",
		score: func(_ *corev1.Pod, n *framework.NodeInfo) (int64, *framework.Status) {
			return int64(n.Allocatable.MilliCPU / 1000), nil
		},
		normalize: func(s framework.NodeScoreList) *framework.Status {
			return framework.DefaultNormalizeScore(framework.MaxNodeScore, false, s)
		},
	}
	s := scoreOnly{&fakePlugin{name: "S", score: func(*corev1.Pod, *framework.NodeInfo) (int64, *framework.Status) { return 10, nil }}}
	skipped := &fakePlugin{
		name:     "Skipped",
		preScore: func(*corev1.Pod) *framework.Status { return framework.NewStatus(framework.Skip) },
		score: func(*corev1.Pod, *framework.NodeInfo) (int64, *framework.Status) {
			return 0, framework.AsStatus(errors.New("must not be called"))
		},
	}
	f, err := framework.New(framework.Options{
		Profile: config.KubeSchedulerProfile{Plugins: config.Plugins{Score: config.PluginSet{Enabled: []config.Plugin{
			{Name: "A", Weight: 2}, {Name: "S", Weight: 3}, {Name: "Skipped"},
		}}}},
		Registry: registryOf(a, s, skipped),
	})
	require.NoError(t, err)
	nodes := makeNodes(4) // node i has i+1 cpus
	state := framework.NewCycleState()
	pod := st.MakePod().Obj()
	require.True(t, f.RunPreScorePlugins(t.Context(), state, pod, nodes).IsSuccess())
	got, status := f.RunScorePlugins(t.Context(), state, pod, nodes)
	require.True(t, status.IsSuccess(), "RunScorePlugins: %v", status)
	want := []framework.NodePluginScores{
		{Name: "n0", Scores: []framework.PluginScore{{Name: "A", Score: 25 * 2}, {Name: "S", Score: 30}}, TotalScore: 80},
		{Name: "n1", Scores: []framework.PluginScore{{Name: "A", Score: 50 * 2}, {Name: "S", Score: 30}}, TotalScore: 130},
		{Name: "n2", Scores: []framework.PluginScore{{Name: "A", Score: 75 * 2}, {Name: "S", Score: 30}}, TotalScore: 180},
		{Name: "n3", Scores: []framework.PluginScore{{Name: "A", Score: 100 * 2}, {Name: "S", Score: 30}}, TotalScore: 230},
	}
	assert.Equal(t, want, got)
}

func TestRunScorePluginsErrors(t *testing.T) {
	tests := []struct {
		name    string
		plugin  *fakePlugin
		wantErr string
	}{
		{
			name: "out of range after normalize",
			plugin: &fakePlugin{name: "P", score: func(*corev1.Pod, *framework.NodeInfo) (int64, *framework.Status) {
				return 101, nil
			}},
			wantErr: `plugin "P" returns an invalid score 101, it should in the range of [0, 100] after normalizing`,
		},
		{
			name: "score fails on a node",
			plugin: &fakePlugin{name: "P", score: func(_ *corev1.Pod, n *framework.NodeInfo) (int64, *framework.Status) {
				if n.Node().Name == "n2" {
					return 0, framework.AsStatus(errors.New("boom on n2"))
				}
				return 1, nil
			}},
			wantErr: `plugin "P" failed with: boom on n2`,
		},
		{
			name: "normalize fails",
			plugin: &fakePlugin{name: "P", normalize: func(framework.NodeScoreList) *framework.Status {
				return framework.AsStatus(errors.New("bad"))
			}},
			wantErr: `running Normalize on Score plugins: plugin "P" failed with: bad`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f, err := framework.New(framework.Options{
				Profile:  config.KubeSchedulerProfile{Plugins: config.Plugins{Score: enabled("P")}},
				Registry: registryOf(tc.plugin),
			})
			require.NoError(t, err)
			_, status := f.RunScorePlugins(t.Context(), framework.NewCycleState(), st.MakePod().Obj(), makeNodes(5))
			assert.Equal(t, framework.Error, status.Code())
			assert.EqualError(t, status.AsError(), tc.wantErr)
			assert.Equal(t, "P", status.Plugin())
		})
	}
}

// makeNodes returns n ready nodes "n0".."n<n-1>"; node i has i+1 cpus and
// room for 10 pods.
func makeNodes(n int) []*framework.NodeInfo {
	out := make([]*framework.NodeInfo, n)
	for i := range out {
		cpus := []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10"}[i%10]
		node := st.MakeNode().Name("n" + strconv.Itoa(i)).Capacity(rl{"cpu": cpus, "memory": "8Gi", "pods": "10"}).Obj()
		out[i] = framework.NewNodeInfo(node)
	}
	return out
}
