package controllermanager

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/minicp/minicp/controllers/clusterroleaggregation"
	"github.com/minicp/minicp/controllers/deployment"
	"github.com/minicp/minicp/controllers/disruption"
	"github.com/minicp/minicp/controllers/endpoints"
	"github.com/minicp/minicp/controllers/endpointslice"
	"github.com/minicp/minicp/controllers/garbagecollector"
	"github.com/minicp/minicp/controllers/job"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/namespace"
	"github.com/minicp/minicp/controllers/nodelifecycle"
	"github.com/minicp/minicp/controllers/replicaset"
	"github.com/minicp/minicp/controllers/resourcequota"
	"github.com/minicp/minicp/controllers/rootcacertpublisher"
	"github.com/minicp/minicp/controllers/serviceaccount"
	"github.com/minicp/minicp/controllers/ttlafterfinished"
)

// controllers are the known controllers by kube-controller-manager's
// names for them.
var controllers = map[string]AddFunc{
	"clusterrole-aggregation-controller":       clusterroleaggregation.Add,
	"deployment-controller":                    deployment.Add,
	"disruption-controller":                    disruption.Add,
	"endpoints-controller":                     endpoints.Add,
	"endpointslice-controller":                 endpointslice.Add,
	"garbage-collector-controller":             garbagecollector.Add,
	"job-controller":                           job.Add,
	"namespace-controller":                     namespace.Add,
	"node-lifecycle-controller":                nodelifecycle.Add,
	"replicaset-controller":                    replicaset.Add,
	"resourcequota-controller":                 resourcequota.Add,
	"root-ca-certificate-publisher-controller": nil, // built from Config by Add (configured)
	"serviceaccount-controller":                serviceaccount.Add,
	"ttl-after-finished-controller":            ttlafterfinished.Add,
}

// aliases are the controllers' names before Kubernetes 1.28 gave them
// the -controller suffix, which kube-controller-manager still accepts.
var aliases = map[string]string{
	"clusterrole-aggregation": "clusterrole-aggregation-controller",
	"deployment":              "deployment-controller",
	"disruption":              "disruption-controller",
	"endpoint":                "endpoints-controller",
	"endpointslice":           "endpointslice-controller",
	"garbagecollector":        "garbage-collector-controller",
	"job":                     "job-controller",
	"namespace":               "namespace-controller",
	"nodelifecycle":           "node-lifecycle-controller",
	"replicaset":              "replicaset-controller",
	"resourcequota":           "resourcequota-controller",
	"root-ca-cert-publisher":  "root-ca-certificate-publisher-controller",
	"serviceaccount":          "serviceaccount-controller",
	"ttl-after-finished":      "ttl-after-finished-controller",
}

// Config is what some controllers need besides the Manager, as
// kube-controller-manager's flags give it to them.
type Config struct {
	// RootCA is the PEM bundle that verifies the API server
	// (--root-ca-file): what root-ca-certificate-publisher-controller
	// publishes in every namespace. Without it, that controller does
	// nothing.
	RootCA []byte
}

// configured builds the AddFunc of the controllers that need Config;
// their entries in controllers only name them.
var configured = map[string]func(Config) AddFunc{
	rootcacertpublisher.ControllerName: func(cfg Config) AddFunc {
		return func(mgr *manager.Manager) error {
			if len(cfg.RootCA) == 0 {
				return nil
			}
			return rootcacertpublisher.Add(mgr, cfg.RootCA)
		}
	},
}

// AddFunc adds one controller, with its watches, to mgr.
type AddFunc func(mgr *manager.Manager) error

// KnownControllers returns the names of every controller, sorted.
func KnownControllers() []string {
	return slices.Sorted(maps.Keys(controllers))
}

// Resolve turns a --controllers list into the names it enables, sorted:
// "*" is every known controller, "name" adds one, "-name" removes one,
// and the last mention of a name wins over "*". A nil list means
// {"*"}; an empty one enables nothing. Names may be the old aliases
// ("replicaset" for "replicaset-controller"); an unknown name is an
// error.
func Resolve(list []string) ([]string, error) {
	if list == nil {
		list = []string{"*"}
	}
	star := false
	explicit := map[string]bool{}
	for _, item := range list {
		item = strings.TrimSpace(item)
		switch {
		case item == "*":
			star = true
		default:
			name, enable := strings.CutPrefix(item, "-")
			enable = !enable
			if canonical, ok := aliases[name]; ok {
				name = canonical
			}
			if _, ok := controllers[name]; !ok {
				return nil, fmt.Errorf("controllermanager: unknown controller %q", name)
			}
			explicit[name] = enable
		}
	}
	var enabled []string
	for _, name := range KnownControllers() {
		on, mentioned := explicit[name]
		if mentioned && on || !mentioned && star {
			enabled = append(enabled, name)
		}
	}
	return enabled, nil
}

// Add adds the controllers that list enables (see Resolve) to mgr, with
// cfg.
func Add(mgr *manager.Manager, list []string, cfg Config) error {
	names, err := Resolve(list)
	if err != nil {
		return err
	}
	for _, name := range names {
		add := controllers[name]
		if build, ok := configured[name]; ok {
			add = build(cfg)
		}
		if err := add(mgr); err != nil {
			return fmt.Errorf("controllermanager: %s: %w", name, err)
		}
	}
	return nil
}
