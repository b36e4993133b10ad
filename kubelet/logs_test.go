package kubelet_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// TestLogServer: the kubelet's log server answers for the pods of its
// node only, with upstream's errors, and honours the log options.
func TestLogServer(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("talk", corev1.RestartPolicyNever, "echo one; echo two; echo three >&2; sleep 3600"))
	h.waitPod("talk", "Running", phaseIs(corev1.PodRunning))

	tests := []struct {
		name, pod, container string
		query                url.Values
		wantCode             int
		want                 string
	}{
		{name: "all", pod: "talk", container: "main", wantCode: http.StatusOK, want: "one\ntwo\nthree\n"},
		{name: "tail", pod: "talk", container: "main", query: url.Values{"tailLines": {"1"}}, wantCode: http.StatusOK, want: "three\n"},
		{name: "stderr", pod: "talk", container: "main", query: url.Values{"stream": {"Stderr"}}, wantCode: http.StatusOK, want: "three\n"},
		{name: "limit", pod: "talk", container: "main", query: url.Values{"limitBytes": {"5"}}, wantCode: http.StatusOK, want: "one\nt"},
		{name: "since", pod: "talk", container: "main", query: url.Values{"sinceSeconds": {"1"}}, wantCode: http.StatusOK, want: "one\ntwo\nthree\n"},
		{name: "no previous", pod: "talk", container: "main", query: url.Values{"previous": {"true"}},
			wantCode: http.StatusBadRequest, want: `previous terminated container "main" in pod "talk" not found`},
		{name: "bad option", pod: "talk", container: "main", query: url.Values{"tailLines": {"-1"}},
			wantCode: http.StatusBadRequest, want: "tailLines=-1: must be greater than or equal to 0"},
		{name: "no pod", pod: "ghost", container: "main", wantCode: http.StatusNotFound, want: `pod "ghost" does not exist`},
		{name: "no container", pod: "talk", container: "ghost", wantCode: http.StatusNotFound, want: `container "ghost" not found in pod "talk"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			code, body := h.kubeletLogs(tc.pod, tc.container, tc.query)
			assert.Equal(t, tc.wantCode, code, "GET %s/%s?%s: %s", tc.pod, tc.container, tc.query.Encode(), body)
			if tc.wantCode == http.StatusOK {
				assert.Equal(t, tc.want, body)
			} else {
				assert.Contains(t, body, tc.want)
			}
		})
	}
}

// TestPreviousLogs: after a restart, previous=true reads the run before.
func TestPreviousLogs(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("again", corev1.RestartPolicyAlways, `echo "run at $(date +%s)"; sleep 1; exit 1`))
	h.waitPod("again", "Running", running("main", 0))
	h.clock.Step(time.Second)
	h.waitPod("again", "restarted", running("main", 1))
	assert.Equal(t, "run at 1714978801\n", h.apiLogs("again", nil), "the current run (at epoch+1s)")
	assert.Equal(t, "run at 1714978800\n", h.apiLogs("again", url.Values{"previous": {"true"}}), "the run before")
}

// TestLogsOfTheRunTheAPIShows: once the API server has stored a status
// showing a container's new run, its logs are that run's, even while
// the kubelet has not yet heard back from the write (it answers from the
// status it generated, not from the last write that returned).
func TestLogsOfTheRunTheAPIShows(t *testing.T) {
	hold := &restartWriteHold{held: make(chan struct{}), release: make(chan struct{})}
	defer close(hold.release)
	h := newHarnessOn(t, apiservertest.New(t).Handler(), apiservertest.AdminToken, hold.wrap)

	h.run(busybox("again", corev1.RestartPolicyAlways, `echo "run at $(date +%s)"; sleep 1; exit 1`))
	h.waitPod("again", "Running", running("main", 0))
	h.clock.Step(time.Second)
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case <-hold.held:
	case <-ctx.Done():
		t.Fatalf("the kubelet wrote no status of the restarted container within %v", clustertest.WaitTimeout)
	}
	h.waitPod("again", "restarted", running("main", 1))
	assert.Equal(t, "run at 1714978801\n", h.apiLogs("again", nil), "the run the API shows")
	assert.Equal(t, "run at 1714978800\n", h.apiLogs("again", url.Values{"previous": {"true"}}), "the run before")
}

// restartWriteHold holds the answer to the kubelet's first status write
// that shows a container running after a restart: the API server has
// stored it, but the kubelet does not hear so until release is closed.
type restartWriteHold struct {
	held, release chan struct{}
	once          sync.Once
}

func (h *restartWriteHold) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripFunc(func(req *http.Request) (*http.Response, error) {
		restarted := false
		if req.Method == http.MethodPut && strings.HasSuffix(req.URL.Path, "/status") && req.Body != nil {
			body, err := io.ReadAll(req.Body)
			if err != nil {
				return nil, err
			}
			req.Body = io.NopCloser(bytes.NewReader(body))
			var pod corev1.Pod
			if json.Unmarshal(body, &pod) == nil {
				for _, cs := range pod.Status.ContainerStatuses {
					restarted = restarted || cs.RestartCount == 1 && cs.State.Running != nil
				}
			}
		}
		resp, err := next.RoundTrip(req)
		if restarted {
			h.once.Do(func() {
				close(h.held)
				<-h.release
			})
		}
		return resp, err
	})
}

// roundTripFunc adapts a function to http.RoundTripper.
type roundTripFunc func(*http.Request) (*http.Response, error)

// RoundTrip implements http.RoundTripper.
func (f roundTripFunc) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

// TestFollowLogsThroughAPIServer: pods/log?follow=true streams each line
// as the container writes it, and ends when the container exits.
func TestFollowLogsThroughAPIServer(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("ticker", corev1.RestartPolicyNever, "echo a; sleep 1; echo b; sleep 1; echo c"))
	h.waitPod("ticker", "Running", phaseIs(corev1.PodRunning))

	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	rc, err := h.cs.Pods("default").Stream(ctx, "ticker", "log", url.Values{"follow": {"true"}})
	require.NoError(t, err, "follow pods/ticker/log")
	defer rc.Close()
	lines := bufio.NewReader(rc)
	readLine := func() string {
		t.Helper()
		line, err := lines.ReadString('\n')
		require.NoError(t, err, "read a line (so far %q)", line)
		return line
	}
	assert.Equal(t, "a\n", readLine())
	h.clock.Step(time.Second)
	assert.Equal(t, "b\n", readLine(), "streamed before the container ends")
	h.clock.Step(time.Second)
	assert.Equal(t, "c\n", readLine())
	_, err = lines.ReadString('\n')
	assert.ErrorContains(t, err, "EOF", "the stream ends with the container")
}

// TestKubectlLogs runs the real kubectl logs, and logs -f, against a
// cluster whose one node is a kubelet. It is skipped when kubectl is not
// installed.
func TestKubectlLogs(t *testing.T) {
	kubeconfig := filepath.Join(t.TempDir(), "kubeconfig")
	k := clustertest.NewKubectl(t, kubeconfig)
	c := clustertest.New(t, clustertest.WithNodes(0))
	h := newHarnessOn(t, c.APIServer().Handler(), c.Token(), nil)
	cs := h.cs

	pod := busybox("chatty", corev1.RestartPolicyNever, "echo hello; sleep 1; echo world")
	pod.Spec.NodeName = "node-1" // no scheduler here
	_, err := cs.Pods("default").Create(t.Context(), pod, client.WriteOptions{})
	require.NoError(t, err)
	h.waitPod("chatty", "Running", phaseIs(corev1.PodRunning))

	require.NoError(t, c.WriteKubeconfig(kubeconfig))
	kubectl := k.Command
	cmdCtx, cmdCancel := clustertest.WaitContext(t)
	defer cmdCancel()
	out, err := kubectl(cmdCtx, "logs", "chatty").CombinedOutput()
	require.NoError(t, err, "kubectl logs: %s", out)
	assert.Equal(t, "hello\n", string(out))

	follow := kubectl(cmdCtx, "logs", "-f", "chatty")
	stdout, err := follow.StdoutPipe()
	require.NoError(t, err)
	var stderr strings.Builder
	follow.Stderr = &stderr
	require.NoError(t, follow.Start(), "kubectl logs -f")
	lines := bufio.NewReader(stdout)
	line, err := lines.ReadString('\n')
	require.NoError(t, err, "kubectl logs -f: %s", stderr.String())
	assert.Equal(t, "hello\n", line)
	h.clock.Step(time.Second)
	line, err = lines.ReadString('\n')
	require.NoError(t, err, "kubectl logs -f: %s", stderr.String())
	assert.Equal(t, "world\n", line, "followed")
	require.NoError(t, follow.Wait(), "kubectl logs -f ends with the container: %s", stderr.String())

	pending := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "pending"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
	_, err = cs.Pods("default").Create(t.Context(), pending, client.WriteOptions{})
	require.NoError(t, err)
	out, err = kubectl(cmdCtx, "logs", "pending").CombinedOutput()
	assert.Error(t, err)
	assert.Contains(t, string(out), "pod pending does not have a host assigned")
}
