package main

import (
	"bufio"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage/storagetest"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m, storagetest.LeakOptions()...) }

// TestUp runs `minicp up` as a user would, with an embedded etcd, and
// stops it as Ctrl-C would.
func TestUp(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- up(ctx, []string{"--listen", "127.0.0.1:0", "--kubeconfig", kubeconfig, "--log-level", "error"}, pw, io.Discard)
		pw.Close()
	}()
	sc := bufio.NewScanner(pr)
	var out []string
	for sc.Scan() {
		out = append(out, sc.Text())
		if strings.HasPrefix(sc.Text(), "press Ctrl-C") {
			break
		}
	}
	assert.Contains(t, strings.Join(out, "\n"), "kubeconfig: "+kubeconfig)
	data, err := os.ReadFile(kubeconfig)
	require.NoError(t, err)
	assert.Contains(t, string(data), "server: https://127.0.0.1:")
	assert.Contains(t, string(data), "token: ")

	cancel()
	go io.Copy(io.Discard, pr) //nolint:errcheck // drain the "stopped" line
	require.NoError(t, <-done)
}

func TestUnknownCommand(t *testing.T) {
	err := run([]string{"down"}, io.Discard, io.Discard)
	assert.ErrorContains(t, err, `unknown command "down"`)
}

func TestUpRejectsABadSchedulerConfig(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sched.yaml")
	require.NoError(t, os.WriteFile(path, []byte("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\nnonsense: 1\n"), 0o600))
	err := up(t.Context(), []string{"--listen", "127.0.0.1:0", "--scheduler-config", path}, io.Discard, io.Discard)
	assert.ErrorContains(t, err, "--scheduler-config")
}
