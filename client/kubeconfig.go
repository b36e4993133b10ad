package client

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/yaml"
)

// kubeconfig is the part of a kubeconfig file minicp reads. []byte fields
// are base64 in the file, which encoding/json decodes.
//
// Upstream: k8s.io/client-go/tools/clientcmd/api/v1 (Config).
type kubeconfig struct {
	Clusters []struct {
		Name    string `json:"name"`
		Cluster struct {
			Server                   string `json:"server"`
			CertificateAuthority     string `json:"certificate-authority"`
			CertificateAuthorityData []byte `json:"certificate-authority-data"`
			InsecureSkipTLSVerify    bool   `json:"insecure-skip-tls-verify"`
		} `json:"cluster"`
	} `json:"clusters"`
	Users []struct {
		Name string `json:"name"`
		User struct {
			Token                 string `json:"token"`
			TokenFile             string `json:"tokenFile"`
			ClientCertificate     string `json:"client-certificate"`
			ClientCertificateData []byte `json:"client-certificate-data"`
			ClientKey             string `json:"client-key"`
			ClientKeyData         []byte `json:"client-key-data"`
		} `json:"user"`
	} `json:"users"`
	Contexts []struct {
		Name    string `json:"name"`
		Context struct {
			Cluster   string `json:"cluster"`
			User      string `json:"user"`
			Namespace string `json:"namespace"`
		} `json:"context"`
	} `json:"contexts"`
	CurrentContext string `json:"current-context"`
}

// LoadKubeconfig reads the kubeconfig file at path and returns the Config
// of its current context; see ParseKubeconfig. Relative file names in it
// are relative to the file's directory, as kubectl reads them.
//
// Upstream: k8s.io/client-go/tools/clientcmd (BuildConfigFromFlags).
func LoadKubeconfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, fmt.Errorf("client: load kubeconfig: %w", err)
	}
	cfg, err := ParseKubeconfig(data, filepath.Dir(path))
	if err != nil {
		return Config{}, fmt.Errorf("%w (in %s)", err, path)
	}
	return cfg, nil
}

// ParseKubeconfig returns the Config of data's current context: the
// cluster's server and CA (certificate-authority-data, or the file
// certificate-authority), the user's token (token or tokenFile) and client
// certificate (client-certificate-data / client-key-data or the files),
// and the context's namespace ("default" when it names none). Files named
// by relative paths are looked up in dir. Files other than the CA are
// read now; the CA file is read by New.
func ParseKubeconfig(data []byte, dir string) (Config, error) {
	var kc kubeconfig
	if err := yaml.Unmarshal(data, &kc); err != nil {
		return Config{}, fmt.Errorf("client: parse kubeconfig: %w", err)
	}
	if kc.CurrentContext == "" {
		return Config{}, errors.New("client: kubeconfig has no current-context")
	}
	ctxIdx := -1
	for i, c := range kc.Contexts {
		if c.Name == kc.CurrentContext {
			ctxIdx = i
		}
	}
	if ctxIdx < 0 {
		return Config{}, fmt.Errorf("client: kubeconfig has no context %q", kc.CurrentContext)
	}
	kctx := kc.Contexts[ctxIdx].Context
	resolve := func(p string) string {
		if p == "" || filepath.IsAbs(p) || strings.HasPrefix(p, "~") {
			return p
		}
		return filepath.Join(dir, p)
	}

	cfg := Config{Namespace: kctx.Namespace}
	if cfg.Namespace == "" {
		cfg.Namespace = "default"
	}
	found := false
	for _, c := range kc.Clusters {
		if c.Name != kctx.Cluster {
			continue
		}
		found = true
		cfg.Host = c.Cluster.Server
		cfg.CAData = c.Cluster.CertificateAuthorityData
		if len(cfg.CAData) == 0 {
			cfg.CAFile = resolve(c.Cluster.CertificateAuthority)
		}
		cfg.Insecure = c.Cluster.InsecureSkipTLSVerify
	}
	if !found {
		return Config{}, fmt.Errorf("client: kubeconfig context %q names no known cluster %q", kc.CurrentContext, kctx.Cluster)
	}
	if kctx.User == "" {
		return cfg, nil // anonymous
	}
	for _, u := range kc.Users {
		if u.Name != kctx.User {
			continue
		}
		var err error
		cfg.BearerToken = u.User.Token
		if cfg.BearerToken == "" && u.User.TokenFile != "" {
			var tok []byte
			if tok, err = os.ReadFile(resolve(u.User.TokenFile)); err != nil {
				return Config{}, fmt.Errorf("client: kubeconfig token file: %w", err)
			}
			cfg.BearerToken = strings.TrimSpace(string(tok))
		}
		if cfg.CertData, err = dataOrFile(u.User.ClientCertificateData, resolve(u.User.ClientCertificate)); err != nil {
			return Config{}, fmt.Errorf("client: kubeconfig client certificate: %w", err)
		}
		if cfg.KeyData, err = dataOrFile(u.User.ClientKeyData, resolve(u.User.ClientKey)); err != nil {
			return Config{}, fmt.Errorf("client: kubeconfig client key: %w", err)
		}
		return cfg, nil
	}
	return Config{}, fmt.Errorf("client: kubeconfig context %q names no known user %q", kc.CurrentContext, kctx.User)
}

// dataOrFile returns data, or the contents of file when data is empty.
func dataOrFile(data []byte, file string) ([]byte, error) {
	if len(data) > 0 || file == "" {
		return data, nil
	}
	return os.ReadFile(file)
}
