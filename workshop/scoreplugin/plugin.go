package scoreplugin

import (
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/plugins"
)

const (
	// Name is the plugin's name in the scheduler's configuration.
	Name = "PreferLabelledNodes"
	// PreferredLabel marks a preferred node when its value is "true".
	PreferredLabel = "workshop.minicp.io/preferred"
	// SchedulerName is the spec.schedulerName of the pods this exercise's
	// scheduler places; the cluster's own scheduler leaves them alone.
	SchedulerName = "workshop-scheduler"
	// Weight multiplies the plugin's 0-100 score. The default plugins add
	// up to 700 points, but between empty nodes of the same size they
	// differ by a few: 5 makes a preferred node win for the first dozens
	// of pods.
	Weight = 5
)

// PreferLabelledNodes is the plugin. It keeps no state: the framework
// calls it on many nodes at once.
type PreferLabelledNodes struct{}

var _ framework.ScorePlugin = (*PreferLabelledNodes)(nil)

// New is the plugin's factory, what the Registry holds.
func New() (framework.Plugin, error) { return &PreferLabelledNodes{}, nil }

// Name returns Name.
func (pl *PreferLabelledNodes) Name() string { return Name }

// ScoreExtensions returns nil: Score's values are already between
// MinNodeScore and MaxNodeScore, so there is nothing to normalize.
func (pl *PreferLabelledNodes) ScoreExtensions() framework.ScoreExtensions { return nil }

// Registry is the in-tree plugins and this one: what the exercise's
// scheduler may enable.
func Registry() (framework.Registry, error) {
	r := plugins.NewInTreeRegistry()
	if err := r.Register(Name, New); err != nil {
		return nil, err
	}
	return r, nil
}

// Config is the configuration of the exercise's scheduler: one profile,
// SchedulerName, with the default plugins and this one at Weight, as a
// KubeSchedulerConfiguration file would say it.
func Config() *config.KubeSchedulerConfiguration {
	return &config.KubeSchedulerConfiguration{
		Profiles: []config.KubeSchedulerProfile{{
			SchedulerName: SchedulerName,
			Plugins: config.Plugins{
				Score: config.PluginSet{Enabled: []config.Plugin{{Name: Name, Weight: Weight}}},
			},
		}},
	}
}
