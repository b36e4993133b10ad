package cluster

import (
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"

	"sigs.k8s.io/yaml"
)

// Kubeconfig returns a kubeconfig for the admin user, with the context
// "minicp" selected and namespace default. Valid once Ready is closed.
func (c *Cluster) Kubeconfig() ([]byte, error) {
	select {
	case <-c.readyCh:
	default:
		return nil, ErrNotReady
	}
	cfg := map[string]any{
		"apiVersion": "v1",
		"kind":       "Config",
		"clusters": []any{map[string]any{
			"name": "minicp",
			"cluster": map[string]any{
				"server":                     c.URL(),
				"certificate-authority-data": base64.StdEncoding.EncodeToString(c.CACertificate()),
			},
		}},
		"users": []any{map[string]any{
			"name": "minicp-admin",
			"user": map[string]any{"token": c.token},
		}},
		"contexts": []any{map[string]any{
			"name":    "minicp",
			"context": map[string]any{"cluster": "minicp", "user": "minicp-admin", "namespace": "default"},
		}},
		"current-context": "minicp",
	}
	return yaml.Marshal(cfg)
}

// WriteKubeconfig writes Kubeconfig to path, readable by the owner only
// because it holds the admin token.
func (c *Cluster) WriteKubeconfig(path string) error {
	data, err := c.Kubeconfig()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("write kubeconfig: %w", err)
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		return fmt.Errorf("write kubeconfig: %w", err)
	}
	return nil
}
