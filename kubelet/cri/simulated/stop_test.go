package simulated_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

func TestStopContainer(t *testing.T) {
	const grace = 30 * time.Second
	tests := []struct {
		name    string
		image   string
		command []string
		timeout time.Duration
		// steps are the clock steps taken while StopContainer blocks,
		// once it waits on its grace timer.
		steps       []time.Duration
		wantCode    int32
		wantReason  string
		wantAfter   time.Duration // from SIGTERM to the exit
		wantMessage string
		wantLog     string
	}{
		{name: "nginx exits 0 on SIGTERM", image: "nginx", wantReason: cri.ReasonCompleted,
			wantLog: "signal 15 (SIGTERM) received, exiting"},
		{name: "pause exits 0 on SIGTERM", image: "registry.k8s.io/pause:3.10", wantReason: cri.ReasonCompleted},
		{name: "unknown image exits 0 on SIGTERM", image: "example.com/app:v1", wantReason: cri.ReasonCompleted},
		{name: "exec'd server exits 0", image: "nginx", command: shCmd("echo setup; exec nginx -g 'daemon off;'"), wantReason: cri.ReasonCompleted},
		{name: "script is killed after the grace period", image: "busybox", command: shCmd("while true; do sleep 3600; done"),
			steps: []time.Duration{29 * time.Second, time.Second}, wantCode: 137, wantReason: cri.ReasonError, wantAfter: grace,
			wantMessage: "did not exit within 30s of SIGTERM: killed with SIGKILL"},
		{name: "bare sleep is killed after the grace period", image: "busybox", command: []string{"sleep", "3600"},
			steps: []time.Duration{grace}, wantCode: 137, wantReason: cri.ReasonError, wantAfter: grace,
			wantMessage: "did not exit within 30s of SIGTERM: killed with SIGKILL"},
		{name: "server child of sh is killed", image: "nginx", command: shCmd("nginx -g 'daemon off;'"),
			steps: []time.Duration{grace}, wantCode: 137, wantReason: cri.ReasonError, wantAfter: grace,
			wantMessage: "did not exit within 30s of SIGTERM: killed with SIGKILL"},
		// SIGTERM comes a minute after the start, 5s before the sleep ends.
		{name: "script that ends within the grace period", image: "busybox", command: shCmd("sleep 65; echo done; exit 4"),
			steps: []time.Duration{grace}, wantCode: 4, wantReason: cri.ReasonError, wantAfter: 5 * time.Second, wantLog: "done"},
		{name: "trap runs after the current sleep", image: "busybox",
			command: shCmd("trap 'echo bye; exit 0' TERM; while true; do sleep 1; done"),
			steps:   []time.Duration{time.Second}, wantReason: cri.ReasonCompleted, wantAfter: time.Second, wantLog: "bye"},
		{name: "timeout 0 kills at once", image: "busybox", command: shCmd("sleep 3600"), timeout: -1,
			wantCode: 137, wantReason: cri.ReasonError, wantMessage: "killed with SIGKILL (no grace period)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, simulated.Options{})
			id := h.start(cri.ContainerConfig{Image: tc.image, Command: tc.command})
			h.clock.Step(time.Minute) // so that SIGTERM comes after the start
			require.Equal(t, cri.ContainerRunning, h.status(id).State, "before StopContainer")
			termAt := h.clock.Now()

			timeout := grace
			if tc.timeout < 0 {
				timeout = 0
			}
			waiters := h.clock.Waiters()
			done := make(chan error, 1)
			go func() { done <- h.rt.StopContainer(h.ctx, id, timeout) }()
			if len(tc.steps) > 0 {
				// The grace timer joins whatever the container waits on.
				require.NoError(t, h.clock.BlockUntilWaiters(h.ctx, waiters+1))
				for _, d := range tc.steps {
					select {
					case err := <-done:
						t.Fatalf("StopContainer returned %v before the clock reached the exit", err)
					default:
					}
					h.clock.Step(d)
				}
			}
			require.NoError(t, <-done, "StopContainer")

			st := h.status(id)
			assert.Equal(t, cri.ContainerExited, st.State)
			assert.Equal(t, tc.wantCode, st.ExitCode, "exit code")
			assert.Equal(t, tc.wantReason, st.Reason, "reason")
			assert.Equal(t, tc.wantAfter, st.FinishedAt.Sub(termAt), "time from SIGTERM to exit")
			assert.Equal(t, tc.wantMessage, st.Message, "message")
			assert.Contains(t, h.logs(id, cri.LogOptions{}), tc.wantLog, "log")
			require.NoError(t, h.rt.StopContainer(h.ctx, id, grace), "stopping an exited container")
		})
	}
}

func TestStopContainerCtxEnds(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sleep", "3600"}})
	ctx, cancel := context.WithCancel(h.ctx)
	cancel()
	err := h.rt.StopContainer(ctx, id, 30*time.Second)
	require.ErrorIs(t, err, context.Canceled)
	assert.Equal(t, cri.ContainerRunning, h.status(id).State, "SIGTERM was ignored and nobody killed it")
	assert.ErrorIs(t, h.rt.StopContainer(h.ctx, "nope", 0), cri.ErrNotFound)
}
