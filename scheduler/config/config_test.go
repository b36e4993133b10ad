package config_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/scheduler/config"
)

func defaultMultiPoint() []config.Plugin {
	return []config.Plugin{
		{Name: "NodeUnschedulable"},
		{Name: "NodeName"},
		{Name: "NodeReady"},
		{Name: "TaintToleration", Weight: 3},
		{Name: "NodeAffinity", Weight: 2},
		{Name: "NodeResourcesFit", Weight: 1},
		{Name: "NodeResourcesBalancedAllocation", Weight: 1},
	}
}

func TestDefault(t *testing.T) {
	cfg := config.Default()
	require.NoError(t, config.Validate(cfg))
	assert.Equal(t, config.APIVersion, cfg.APIVersion)
	assert.Equal(t, config.Kind, cfg.Kind)
	assert.Equal(t, int32(16), cfg.Parallelism)
	assert.Equal(t, int64(1), cfg.PodInitialBackoffSeconds)
	assert.Equal(t, int64(10), cfg.PodMaxBackoffSeconds)
	require.Len(t, cfg.Profiles, 1)
	assert.Equal(t, "default-scheduler", cfg.Profiles[0].SchedulerName)
	assert.Equal(t, config.Plugins{MultiPoint: config.PluginSet{Enabled: defaultMultiPoint()}}, cfg.Profiles[0].Plugins)
}

func TestParseMergesDefaults(t *testing.T) {
	tests := []struct {
		name string
		yaml string
		want config.Plugins
	}{
		{
			name: "no plugins: the defaults",
			yaml: "profiles:\n- schedulerName: s\n",
			want: config.Plugins{MultiPoint: config.PluginSet{Enabled: defaultMultiPoint()}},
		},
		{
			name: "re-weighting a default in multiPoint keeps its position",
			yaml: `
profiles:
- plugins:
    multiPoint:
      enabled:
      - name: NodeResourcesFit
        weight: 7
      - name: MyPlugin
`,
			want: config.Plugins{MultiPoint: config.PluginSet{Enabled: []config.Plugin{
				{Name: "NodeUnschedulable"}, {Name: "NodeName"}, {Name: "NodeReady"},
				{Name: "TaintToleration", Weight: 3}, {Name: "NodeAffinity", Weight: 2},
				{Name: "NodeResourcesFit", Weight: 7},
				{Name: "NodeResourcesBalancedAllocation", Weight: 1},
				{Name: "MyPlugin"},
			}}},
		},
		{
			name: "disabling a default in multiPoint drops it",
			yaml: `
profiles:
- plugins:
    multiPoint:
      disabled:
      - name: NodeReady
      - name: TaintToleration
`,
			want: config.Plugins{MultiPoint: config.PluginSet{
				Enabled: []config.Plugin{
					{Name: "NodeUnschedulable"}, {Name: "NodeName"}, {Name: "NodeAffinity", Weight: 2},
					{Name: "NodeResourcesFit", Weight: 1}, {Name: "NodeResourcesBalancedAllocation", Weight: 1},
				},
				Disabled: []config.Plugin{{Name: "NodeReady"}, {Name: "TaintToleration"}},
			}},
		},
		{
			name: "score and filter sets are kept for framework.New",
			yaml: `
profiles:
- plugins:
    score:
      enabled:
      - name: NodeAffinity
        weight: 5
      disabled:
      - name: '*'
    filter:
      disabled:
      - name: NodeName
`,
			want: config.Plugins{
				MultiPoint: config.PluginSet{Enabled: defaultMultiPoint()},
				Filter:     config.PluginSet{Disabled: []config.Plugin{{Name: "NodeName"}}},
				Score: config.PluginSet{
					Enabled:  []config.Plugin{{Name: "NodeAffinity", Weight: 5}},
					Disabled: []config.Plugin{{Name: "*"}},
				},
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			y := "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n" + tc.yaml
			cfg, err := config.Parse([]byte(y))
			require.NoError(t, err, "Parse(%s)", y)
			require.Len(t, cfg.Profiles, 1)
			assert.Equal(t, tc.want, cfg.Profiles[0].Plugins)

			again := *cfg
			again.Profiles = append([]config.KubeSchedulerProfile(nil), cfg.Profiles...)
			config.SetDefaults(&again)
			assert.Equal(t, cfg.Profiles, again.Profiles, "SetDefaults is idempotent")
		})
	}
}

func TestParseErrors(t *testing.T) {
	const header = "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
	tests := []struct {
		name    string
		yaml    string
		wantErr string
	}{
		{name: "wrong apiVersion", yaml: "apiVersion: kubescheduler.config.k8s.io/v1beta3\nkind: KubeSchedulerConfiguration\n",
			wantErr: `invalid: apiVersion/kind: Unsupported value: "kubescheduler.config.k8s.io/v1beta3"/"KubeSchedulerConfiguration": supported values: "kubescheduler.config.k8s.io/v1"/"KubeSchedulerConfiguration"`},
		{name: "missing kind", yaml: "apiVersion: kubescheduler.config.k8s.io/v1\n",
			wantErr: `invalid: apiVersion/kind: Unsupported value: "kubescheduler.config.k8s.io/v1"/"": supported values: "kubescheduler.config.k8s.io/v1"/"KubeSchedulerConfiguration"`},
		{name: "unknown field", yaml: header + "profiles:\n- schedulerName: a\n  pluginConfig: []\n",
			wantErr: `decode: error unmarshaling JSON: while decoding JSON: json: unknown field "pluginConfig"`},
		{name: "duplicate field", yaml: header + "parallelism: 1\nparallelism: 2\n",
			wantErr: "decode: error converting YAML to JSON: yaml: unmarshal errors:\n  line 4: key \"parallelism\" already set in map"},
		{name: "not yaml", yaml: header + "profiles: [",
			wantErr: "decode: error converting YAML to JSON: yaml: line 3: did not find expected node content"},
		{name: "two profiles need names", yaml: header + "profiles:\n- schedulerName: a\n- {}\n",
			wantErr: "invalid: profiles[1].schedulerName: Required value"},
		{name: "duplicate scheduler names", yaml: header + "profiles:\n- schedulerName: a\n- schedulerName: a\n",
			wantErr: `invalid: profiles[1].schedulerName: Duplicate value: "a"`},
		{name: "negative weight", yaml: header + "profiles:\n- plugins:\n    score:\n      enabled:\n      - name: NodeAffinity\n        weight: -1\n",
			wantErr: "invalid: profiles[0].plugins.score.enabled[0].weight: Invalid value: -1: must be non-negative"},
		{name: "plugin enabled twice", yaml: header + "profiles:\n- plugins:\n    filter:\n      enabled:\n      - name: X\n      - name: X\n",
			wantErr: `invalid: profiles[0].plugins.filter.enabled[1].name: Duplicate value: "X"`},
		{name: "plugin without a name", yaml: header + "profiles:\n- plugins:\n    filter:\n      disabled:\n      - weight: 1\n",
			wantErr: "invalid: profiles[0].plugins.filter.disabled[0].name: Required value"},
		{name: "negative parallelism and backoff", yaml: header + "parallelism: -1\npodInitialBackoffSeconds: 5\npodMaxBackoffSeconds: 2\n",
			wantErr: "invalid: parallelism: Invalid value: -1: should be an integer value greater than zero\n" +
				"podMaxBackoffSeconds: Invalid value: 2: must be greater than or equal to PodInitialBackoffSeconds"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := config.Parse([]byte(tc.yaml))
			assert.EqualError(t, err, tc.wantErr, "Parse(%s)", tc.yaml)
		})
	}
}

func TestLoad(t *testing.T) {
	cfg, err := config.Load(filepath.Join("testdata", "scheduler-config.yaml"))
	require.NoError(t, err)
	assert.Equal(t, int32(4), cfg.Parallelism)
	require.Len(t, cfg.Profiles, 2)
	assert.Equal(t, "default-scheduler", cfg.Profiles[0].SchedulerName)
	assert.Equal(t, []config.Plugin{{Name: "NodeAffinity", Weight: 5}}, cfg.Profiles[0].Plugins.Score.Enabled)
	assert.Equal(t, "no-scoring", cfg.Profiles[1].SchedulerName)
	assert.Empty(t, cfg.Profiles[1].Plugins.MultiPoint.Enabled, "'*' disables every default")

	_, err = config.Load(filepath.Join(t.TempDir(), "missing.yaml"))
	assert.ErrorIs(t, err, os.ErrNotExist)

	bad := filepath.Join(t.TempDir(), "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("kind: Pod\n"), 0o600))
	_, err = config.Load(bad)
	assert.ErrorContains(t, err, "scheduler config "+bad+": invalid: apiVersion/kind")
}
