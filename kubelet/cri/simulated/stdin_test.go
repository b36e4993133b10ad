package simulated_test

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// TestAttachStdinTerminal: a shell with stdin and a terminal as its main
// process prompts in its log, echoes and runs what is typed, waits on
// the clock in between, and with stdinOnce exits when its client's
// stdin ends.
func TestAttachStdinTerminal(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sh"}, Stdin: true, StdinOnce: true, TTY: true})
	assert.Equal(t, cri.ContainerRunning, h.status(id).State, "waiting for input, not exited")
	assert.Equal(t, "/ # ", h.logs(id, cri.LogOptions{}))

	require.NoError(t, h.rt.AttachStdin(h.ctx, id, strings.NewReader("sleep 10; echo late\recho queued\r")))
	assert.Equal(t, cri.ContainerRunning, h.status(id).State, "sleeping in the first line")
	h.clock.Step(10 * time.Second)
	h.waitFor("the exit", func() bool { return h.status(id).State == cri.ContainerExited })
	assert.Equal(t, "/ # sleep 10; echo late\r\necho queued\r\nlate\r\n/ # queued\r\n/ # ", h.logs(id, cri.LogOptions{}),
		"typed-ahead lines echo at once and run in turn; stdinOnce: the end of the client's stdin ends the shell")
	assert.Equal(t, int32(0), h.status(id).ExitCode)
}

// TestAttachStdinLines: without a terminal, lines are read as they come,
// with no echo and no prompt; exit ends the container with its code.
func TestAttachStdinLines(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sh"}, Stdin: true})
	require.NoError(t, h.rt.AttachStdin(h.ctx, id, strings.NewReader("X=1\n")))
	assert.Equal(t, cri.ContainerRunning, h.status(id).State, "no stdinOnce: stdin stays open")
	require.NoError(t, h.rt.AttachStdin(h.ctx, id, strings.NewReader("echo $X\nexit 3\n")))
	st := h.status(id)
	require.Equal(t, cri.ContainerExited, st.State)
	assert.Equal(t, int32(3), st.ExitCode)
	assert.Equal(t, "1\n", h.logs(id, cri.LogOptions{}))

	plain := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sleep", "infinity"}})
	require.NoError(t, h.rt.AttachStdin(h.ctx, plain, strings.NewReader("ignored\n")), "no stdin: dropped")
}
