package minicpenv

import (
	"context"
	"crypto/rand"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/minicp/minicp/cluster"
)

// runningCluster is a minicp cluster started in this process, and what
// stops it.
type runningCluster struct {
	cluster *cluster.Cluster
	cancel  context.CancelFunc
	// doneCh receives Start's result once; its buffer of one lets the
	// goroutine exit even if nobody waits for it.
	doneCh chan error
	// tokens are the bearer tokens of Environment.Users, by name.
	tokens map[string]string
}

// startCluster starts a cluster with opts and the extra users, and
// returns once it is Ready, or with an error (and nothing left running)
// when it fails or is not ready within timeout.
func startCluster(opts cluster.Options, users []envtest.User, timeout time.Duration) (*runningCluster, error) {
	tokens := map[string]string{}
	if len(users) > 0 {
		// minicp reads the token file while it starts, before Ready, so
		// the file is gone by the time startCluster returns.
		dir, err := os.MkdirTemp("", "minicpenv-")
		if err != nil {
			return nil, fmt.Errorf("minicpenv: %w", err)
		}
		defer os.RemoveAll(dir)
		if tokens, err = writeTokenFile(filepath.Join(dir, "tokens.csv"), users); err != nil {
			return nil, err
		}
		opts.TokenAuthFile = filepath.Join(dir, "tokens.csv")
	}
	c, err := cluster.New(opts)
	if err != nil {
		return nil, fmt.Errorf("minicpenv: %w", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	rc := &runningCluster{cluster: c, cancel: cancel, doneCh: make(chan error, 1), tokens: tokens}
	go func() { rc.doneCh <- c.Start(ctx) }()

	readyCtx, cancelReady := context.WithTimeout(context.Background(), timeout)
	defer cancelReady()
	select {
	case <-c.Ready():
		return rc, nil
	case err := <-rc.doneCh:
		cancel()
		return nil, fmt.Errorf("minicpenv: start minicp: %w", err)
	case <-readyCtx.Done():
		err := fmt.Errorf("minicpenv: minicp not ready within %s", timeout)
		return nil, errors.Join(err, rc.stop(timeout))
	}
}

// writeTokenFile writes users to path in kube-apiserver's
// --token-auth-file format (token,user,uid,"group1,group2"), each with a
// random token, and returns the tokens by user name.
func writeTokenFile(path string, users []envtest.User) (map[string]string, error) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("minicpenv: token file: %w", err)
	}
	defer f.Close()
	tokens := map[string]string{}
	w := csv.NewWriter(f)
	for _, u := range users {
		if u.Name == "" {
			return nil, errors.New("minicpenv: a user of Users has no name")
		}
		if _, dup := tokens[u.Name]; dup {
			return nil, fmt.Errorf("minicpenv: user %q is in Users twice", u.Name)
		}
		b := make([]byte, 16)
		if _, err := rand.Read(b); err != nil {
			return nil, fmt.Errorf("minicpenv: token: %w", err)
		}
		tokens[u.Name] = hex.EncodeToString(b)
		if err := w.Write([]string{tokens[u.Name], u.Name, u.Name, strings.Join(u.Groups, ",")}); err != nil {
			return nil, fmt.Errorf("minicpenv: token file: %w", err)
		}
	}
	w.Flush()
	if err := w.Error(); err != nil {
		return nil, fmt.Errorf("minicpenv: token file: %w", err)
	}
	if err := f.Close(); err != nil {
		return nil, fmt.Errorf("minicpenv: token file: %w", err)
	}
	return tokens, nil
}

// adminConfig talks to the cluster as its admin (in minicp's privileged
// group, as envtest's admin is in system:masters), with envtest's client
// rate limits: a test API server need not be protected from its tests.
func (rc *runningCluster) adminConfig() *rest.Config {
	return &rest.Config{
		Host:            rc.cluster.URL(),
		BearerToken:     rc.cluster.Token(),
		TLSClientConfig: rest.TLSClientConfig{CAData: rc.cluster.CACertificate()},
		QPS:             1000,
		Burst:           2000,
	}
}

// stop cancels the cluster and waits, at most timeout, until its Start
// has returned.
func (rc *runningCluster) stop(timeout time.Duration) error {
	rc.cancel()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	select {
	case err := <-rc.doneCh:
		if err != nil && !errors.Is(err, context.Canceled) {
			return fmt.Errorf("minicpenv: minicp: %w", err)
		}
		return nil
	case <-ctx.Done():
		return fmt.Errorf("minicpenv: minicp did not stop within %s", timeout)
	}
}
