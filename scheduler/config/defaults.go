package config

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/plugins/names"
)

// The defaults of KubeSchedulerConfiguration, upstream's.
const (
	// DefaultParallelism is upstream's: enough to keep a few cores busy
	// on clusters of thousands of nodes.
	DefaultParallelism = 16
	// DefaultPodInitialBackoffSeconds is the first retry delay of an
	// unschedulable pod.
	DefaultPodInitialBackoffSeconds = 1
	// DefaultPodMaxBackoffSeconds caps the retry delay.
	DefaultPodMaxBackoffSeconds = 10
)

// DefaultPlugins returns the plugins of a profile that configures none:
// upstream's default MultiPoint list restricted to the plugins minicp has,
// in upstream's order and with upstream's weights, plus NodeReady.
//
// The weights make taints count most: a node that needs a
// PreferNoSchedule taint tolerated loses up to 3*100 points, a preferred
// node affinity wins up to 2*100, and resource spreading and balance up to
// 100 each.
//
// NodeReady stands in for the node.kubernetes.io/not-ready and
// unreachable taints that upstream's node lifecycle controller puts on
// such nodes, so it sits just before TaintToleration, where those taints
// would be checked. It has no score.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/apis/config/v1
// (getDefaultPlugins).
func DefaultPlugins() Plugins {
	return Plugins{
		MultiPoint: PluginSet{
			Enabled: []Plugin{
				{Name: names.NodeUnschedulable},
				{Name: names.NodeName},
				{Name: names.NodeReady},
				{Name: names.TaintToleration, Weight: 3},
				{Name: names.NodeAffinity, Weight: 2},
				{Name: names.NodeResourcesFit, Weight: 1},
				{Name: names.NodeResourcesBalancedAllocation, Weight: 1},
			},
		},
	}
}

// Default returns the configuration the scheduler runs with when it is
// given no file: one profile, "default-scheduler", with DefaultPlugins.
func Default() *KubeSchedulerConfiguration {
	cfg := &KubeSchedulerConfiguration{}
	cfg.APIVersion = APIVersion
	cfg.Kind = Kind
	SetDefaults(cfg)
	return cfg
}

// SetDefaults fills cfg's unset fields in place and merges DefaultPlugins
// into every profile's plugins, as upstream's defaulting does: a default
// plugin that the profile enables again is configured by the profile's
// entry (in the default's position), one it disables (or every one, with
// "*") is left out, and the profile's other plugins follow the defaults.
// It is idempotent.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/apis/config/v1
// (SetDefaults_KubeSchedulerConfiguration, mergePlugins).
func SetDefaults(cfg *KubeSchedulerConfiguration) {
	if cfg.Parallelism == 0 {
		cfg.Parallelism = DefaultParallelism
	}
	if cfg.PodInitialBackoffSeconds == 0 {
		cfg.PodInitialBackoffSeconds = DefaultPodInitialBackoffSeconds
	}
	if cfg.PodMaxBackoffSeconds == 0 {
		cfg.PodMaxBackoffSeconds = DefaultPodMaxBackoffSeconds
	}
	if len(cfg.Profiles) == 0 {
		cfg.Profiles = []KubeSchedulerProfile{{}}
	}
	// Only a lone profile may leave its name out: with several, which one
	// is the default scheduler is for the user to say.
	if len(cfg.Profiles) == 1 && cfg.Profiles[0].SchedulerName == "" {
		cfg.Profiles[0].SchedulerName = corev1.DefaultSchedulerName
	}
	defaults := DefaultPlugins()
	for i := range cfg.Profiles {
		p := &cfg.Profiles[i].Plugins
		p.MultiPoint = mergePluginSet(defaults.MultiPoint, p.MultiPoint)
		p.Filter = mergePluginSet(defaults.Filter, p.Filter)
		p.Score = mergePluginSet(defaults.Score, p.Score)
	}
}

// mergePluginSet merges custom into defaults; see SetDefaults.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/apis/config/v1
// (mergePluginSet).
func mergePluginSet(defaults, custom PluginSet) PluginSet {
	var out PluginSet
	disabled := map[string]bool{}
	for _, list := range [][]Plugin{custom.Disabled, defaults.Disabled} {
		for _, p := range list {
			// Disabled entries stay in the result: they tell framework.New
			// not to expand MultiPoint plugins into that point.
			out.Disabled = append(out.Disabled, Plugin{Name: p.Name})
			disabled[p.Name] = true
		}
	}
	customIndex := map[string]int{}
	for i, p := range custom.Enabled {
		customIndex[p.Name] = i
	}
	replaced := map[int]bool{}
	if !disabled["*"] {
		for _, p := range defaults.Enabled {
			if disabled[p.Name] {
				continue
			}
			if i, ok := customIndex[p.Name]; ok {
				p = custom.Enabled[i]
				replaced[i] = true
			}
			out.Enabled = append(out.Enabled, p)
		}
	}
	// A plugin enabled twice stays twice, so that validation reports it.
	for i, p := range custom.Enabled {
		if !replaced[i] {
			out.Enabled = append(out.Enabled, p)
		}
	}
	return out
}
