package config_test

import (
	"fmt"

	"github.com/minicp/minicp/scheduler/config"
)

// A file that weighs preferred node affinity more than upstream does and
// turns off BalancedAllocation; everything else keeps its default.
func ExampleParse() {
	cfg, err := config.Parse([]byte(`
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
profiles:
- plugins:
    score:
      enabled:
      - name: NodeAffinity
        weight: 10
      disabled:
      - name: NodeResourcesBalancedAllocation
`))
	if err != nil {
		panic(err)
	}
	p := cfg.Profiles[0]
	fmt.Println(p.SchedulerName, cfg.Parallelism)
	fmt.Println("score:", p.Plugins.Score.Enabled, "disabled:", p.Plugins.Score.Disabled)
	fmt.Println("multiPoint:", len(p.Plugins.MultiPoint.Enabled), "default plugins")
	// Output:
	// default-scheduler 16
	// score: [{NodeAffinity 10}] disabled: [{NodeResourcesBalancedAllocation 0}]
	// multiPoint: 7 default plugins
}
