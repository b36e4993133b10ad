package config

import (
	"fmt"
	"os"

	"sigs.k8s.io/yaml"
)

// Load reads the configuration file at path; see Parse.
func Load(path string) (*KubeSchedulerConfiguration, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read scheduler config: %w", err)
	}
	cfg, err := Parse(data)
	if err != nil {
		return nil, fmt.Errorf("scheduler config %s: %w", path, err)
	}
	return cfg, nil
}

// Parse decodes a configuration from YAML (or JSON), applies SetDefaults
// and Validate, and returns it. Unknown and duplicate fields are errors,
// so a misspelt field fails loudly instead of being ignored. The
// apiVersion must be kubescheduler.config.k8s.io/v1 and the kind
// KubeSchedulerConfiguration.
func Parse(data []byte) (*KubeSchedulerConfiguration, error) {
	cfg := &KubeSchedulerConfiguration{}
	if err := yaml.UnmarshalStrict(data, cfg); err != nil {
		return nil, fmt.Errorf("decode: %w", err)
	}
	SetDefaults(cfg)
	if err := Validate(cfg); err != nil {
		return nil, fmt.Errorf("invalid: %w", err)
	}
	return cfg, nil
}
