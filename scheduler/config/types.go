package config

import metav1 "github.com/minicp/minicp/api/meta/v1"

// The apiVersion and kind a configuration file must have.
const (
	APIVersion = "kubescheduler.config.k8s.io/v1"
	Kind       = "KubeSchedulerConfiguration"
)

// KubeSchedulerConfiguration configures the scheduler. A zero field is
// unset and gets its default from SetDefaults.
type KubeSchedulerConfiguration struct {
	metav1.TypeMeta `json:",inline"`
	// Parallelism is how many goroutines filter and score the nodes of one
	// cycle. Defaults to 16.
	Parallelism int32 `json:"parallelism,omitempty"`
	// PodInitialBackoffSeconds is the first backoff of an unschedulable
	// pod. Defaults to 1.
	PodInitialBackoffSeconds int64 `json:"podInitialBackoffSeconds,omitempty"`
	// PodMaxBackoffSeconds caps the backoff. Defaults to 10.
	PodMaxBackoffSeconds int64 `json:"podMaxBackoffSeconds,omitempty"`
	// Profiles are the schedulers this one process runs, each answering
	// the pods whose spec.schedulerName is its SchedulerName. Defaults to
	// one profile, "default-scheduler".
	Profiles []KubeSchedulerProfile `json:"profiles,omitempty"`
}

// KubeSchedulerProfile is one scheduler: a name and its plugins.
type KubeSchedulerProfile struct {
	// SchedulerName is the spec.schedulerName of the pods this profile
	// schedules. Defaults to "default-scheduler" when it is the only
	// profile; required otherwise.
	SchedulerName string `json:"schedulerName,omitempty"`
	// Plugins enables and disables plugins per extension point. The
	// defaults (DefaultPlugins) are merged in by SetDefaults.
	Plugins Plugins `json:"plugins,omitzero"`
}

// Plugins lists the plugins of each extension point.
//
// MultiPoint enables a plugin at every extension point it implements
// (Filter and/or Score), which is how the defaults are written. An entry
// in Filter or Score overrides the MultiPoint entry for that point (its
// Score weight, for instance), and disabling a plugin in Filter or Score
// disables it at that point only. "*" in a Disabled list disables every
// default plugin of that set.
type Plugins struct {
	MultiPoint PluginSet `json:"multiPoint,omitzero"`
	Filter     PluginSet `json:"filter,omitzero"`
	Score      PluginSet `json:"score,omitzero"`
}

// PluginSet enables and disables plugins. Enabled plugins run in order,
// after the default ones that were not disabled.
type PluginSet struct {
	Enabled  []Plugin `json:"enabled,omitempty"`
	Disabled []Plugin `json:"disabled,omitempty"`
}

// Plugin names a plugin and, for a Score plugin, its weight.
type Plugin struct {
	Name string `json:"name"`
	// Weight multiplies the plugin's scores (0 to 100 each). Only Score
	// plugins use it. Defaults to 1; negative weights are invalid.
	Weight int32 `json:"weight,omitempty"`
}
