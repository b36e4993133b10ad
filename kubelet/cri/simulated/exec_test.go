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

// TestExecProbeExample runs the exec liveness probe example of the
// Kubernetes documentation.
func TestExecProbeExample(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "registry.k8s.io/busybox",
		Command: shCmd("touch /tmp/healthy; sleep 30; rm -f /tmp/healthy; sleep 600")})

	probe := []string{"cat", "/tmp/healthy"}
	res, err := h.rt.ExecSync(h.ctx, id, probe, time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(0), res.ExitCode, "healthy at first")

	h.clock.Step(30 * time.Second)
	res, err = h.rt.ExecSync(h.ctx, id, probe, time.Second)
	require.NoError(t, err)
	assert.Equal(t, int32(1), res.ExitCode, "unhealthy after 30s")
	assert.Equal(t, "cat: can't open '/tmp/healthy': No such file or directory\n", string(res.Stderr))

	res, err = h.rt.ExecSync(h.ctx, id, shCmd("echo $HOSTNAME; echo oops >&2; exit 3"), 0)
	require.NoError(t, err)
	assert.Equal(t, "pod-1\n", string(res.Stdout))
	assert.Equal(t, "oops\n", string(res.Stderr))
	assert.Equal(t, int32(3), res.ExitCode)
	assert.NotContains(t, h.logs(id, cri.LogOptions{}), "oops", "exec output is not the container's log")

	res, err = h.rt.ExecSync(h.ctx, id, []string{"curl", "localhost"}, 0)
	require.NoError(t, err)
	assert.Equal(t, int32(127), res.ExitCode)
	assert.Contains(t, string(res.Stderr), `exec: "curl": executable file not found in $PATH`)
}

func TestExecSleepsOnTheClock(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sleep", "infinity"}})

	type result struct {
		res cri.ExecSyncResult
		err error
	}
	done := make(chan result, 1)
	go func() {
		res, err := h.rt.ExecSync(h.ctx, id, shCmd("sleep 2; echo slept"), 5*time.Second)
		done <- result{res, err}
	}()
	require.NoError(t, h.clock.BlockUntilWaiters(h.ctx, 2), "the exec's timeout and sleep timers")
	h.clock.Step(2 * time.Second)
	r := <-done
	require.NoError(t, r.err)
	assert.Equal(t, "slept\n", string(r.res.Stdout))

	go func() {
		res, err := h.rt.ExecSync(h.ctx, id, []string{"sleep", "10"}, time.Second)
		done <- result{res, err}
	}()
	require.NoError(t, h.clock.BlockUntilWaiters(h.ctx, 2))
	h.clock.Step(time.Second)
	r = <-done
	assert.ErrorIs(t, r.err, context.DeadlineExceeded, "a probe that outlives its timeout")

	require.NoError(t, h.rt.StopContainer(h.ctx, id, 0))
	_, err := h.rt.ExecSync(h.ctx, id, []string{"true"}, 0)
	assert.ErrorIs(t, err, cri.ErrFailedPrecondition, "exec in an exited container")
}
