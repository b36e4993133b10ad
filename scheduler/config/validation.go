package config

import (
	"errors"
	"fmt"
)

// Validate checks a defaulted configuration and returns every problem it
// finds, joined, each prefixed with its field path as upstream's field
// errors are ("profiles[1].schedulerName: Required value"). It does not
// know which plugins exist; framework.New checks that.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/apis/config/validation
// (ValidateKubeSchedulerConfiguration).
func Validate(cfg *KubeSchedulerConfiguration) error {
	var errs []error
	if cfg.APIVersion != APIVersion || cfg.Kind != Kind {
		errs = append(errs, fmt.Errorf("apiVersion/kind: Unsupported value: %q/%q: supported values: %q/%q",
			cfg.APIVersion, cfg.Kind, APIVersion, Kind))
	}
	if cfg.Parallelism <= 0 {
		errs = append(errs, fmt.Errorf("parallelism: Invalid value: %d: should be an integer value greater than zero", cfg.Parallelism))
	}
	if cfg.PodInitialBackoffSeconds <= 0 {
		errs = append(errs, fmt.Errorf("podInitialBackoffSeconds: Invalid value: %d: must be greater than 0", cfg.PodInitialBackoffSeconds))
	}
	if cfg.PodMaxBackoffSeconds < cfg.PodInitialBackoffSeconds {
		errs = append(errs, fmt.Errorf("podMaxBackoffSeconds: Invalid value: %d: must be greater than or equal to PodInitialBackoffSeconds", cfg.PodMaxBackoffSeconds))
	}
	if len(cfg.Profiles) == 0 {
		errs = append(errs, errors.New("profiles: Required value"))
	}
	seen := map[string]bool{}
	for i, prof := range cfg.Profiles {
		path := fmt.Sprintf("profiles[%d]", i)
		switch {
		case prof.SchedulerName == "":
			errs = append(errs, fmt.Errorf("%s.schedulerName: Required value", path))
		case seen[prof.SchedulerName]:
			errs = append(errs, fmt.Errorf("%s.schedulerName: Duplicate value: %q", path, prof.SchedulerName))
		}
		seen[prof.SchedulerName] = true
		errs = append(errs, validatePluginSet(path+".plugins.multiPoint", prof.Plugins.MultiPoint)...)
		errs = append(errs, validatePluginSet(path+".plugins.filter", prof.Plugins.Filter)...)
		errs = append(errs, validatePluginSet(path+".plugins.score", prof.Plugins.Score)...)
	}
	return errors.Join(errs...)
}

func validatePluginSet(path string, set PluginSet) []error {
	var errs []error
	enabled := map[string]bool{}
	for i, p := range set.Enabled {
		field := fmt.Sprintf("%s.enabled[%d]", path, i)
		switch {
		case p.Name == "":
			errs = append(errs, fmt.Errorf("%s.name: Required value", field))
		case enabled[p.Name]:
			errs = append(errs, fmt.Errorf("%s.name: Duplicate value: %q", field, p.Name))
		}
		enabled[p.Name] = true
		if p.Weight < 0 {
			errs = append(errs, fmt.Errorf("%s.weight: Invalid value: %d: must be non-negative", field, p.Weight))
		}
	}
	for i, p := range set.Disabled {
		if p.Name == "" {
			errs = append(errs, fmt.Errorf("%s.disabled[%d].name: Required value", path, i))
		}
	}
	return errs
}
