package main

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

// TestTrace runs `minicp up --trace`, creates a pod as a user would, and
// prints its journey with `minicp trace pod/web --until kubelet.sync`:
// the API server's hops, then the scheduler's, then the kubelet's.
func TestTrace(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	dir := t.TempDir()
	kubeconfig := filepath.Join(dir, "kubeconfig")
	ctx, cancel := context.WithCancel(t.Context())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- execute(ctx, []string{"up", "--trace", "--listen", "127.0.0.1:0", "--kubeconfig", kubeconfig, "--web-address", ""}, pw, io.Discard)
		pw.Close()
	}()
	defer func() {
		cancel()
		go io.Copy(io.Discard, pr) //nolint:errcheck // drain the "stopped" line
		require.NoError(t, <-done)
	}()
	sc := bufio.NewScanner(pr)
	var banner []string
	for sc.Scan() {
		banner = append(banner, sc.Text())
		if strings.HasPrefix(sc.Text(), "Press Ctrl-C") {
			break
		}
	}
	assert.Contains(t, strings.Join(banner, "\n"), "  tracing:     on")

	_, err := clientsetOf(t, kubeconfig).Pods("default").Create(t.Context(), &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)

	var out bytes.Buffer
	require.NoError(t, execute(t.Context(), []string{"trace", "pod/web", "--until", "kubelet.sync", "--kubeconfig", kubeconfig}, &out, os.Stderr))
	timeline := out.String()
	t.Logf("minicp trace pod/web:\n%s", timeline)
	last := -1
	for _, hop := range []string{" request ", " authn ", " etcd.txn ", " watchcache.dispatch ", " scheduler.cycle ", " scheduler.bind ", " kubelet.sync "} {
		i := strings.Index(timeline, hop)
		require.GreaterOrEqual(t, i, 0, "hop %q in the timeline", hop)
		assert.Greater(t, i, last, "hop %q after the ones before it", hop)
		last = i
	}

	err = execute(t.Context(), []string{"trace", "pod/nope", "--kubeconfig", kubeconfig}, io.Discard, io.Discard)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "no traced create of pods default/nope")
	err = execute(t.Context(), []string{"trace", "web", "--kubeconfig", kubeconfig}, io.Discard, io.Discard)
	require.ErrorContains(t, err, "want KIND/NAME")
}
