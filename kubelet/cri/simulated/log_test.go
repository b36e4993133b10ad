package simulated_test

import (
	"bufio"
	"context"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

func TestLogsFollowStreamsUntilExit(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: shCmd("for i in 1 2 3; do echo line $i; sleep 1; done; echo bye >&2")})

	rc, err := h.rt.ContainerLogs(h.ctx, id, cri.LogOptions{Follow: true})
	require.NoError(t, err)
	defer rc.Close()
	lines := make(chan string)
	readErr := make(chan error, 1)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(rc)
		for sc.Scan() {
			lines <- sc.Text()
		}
		readErr <- sc.Err()
	}()

	assert.Equal(t, "line 1", <-lines)
	for _, want := range []string{"line 2", "line 3"} {
		require.NoError(t, h.clock.BlockUntilWaiters(h.ctx, 1))
		h.clock.Step(time.Second)
		assert.Equal(t, want, <-lines)
	}
	h.clock.Step(time.Second)
	assert.Equal(t, "bye", <-lines, "stderr is in the log too")
	_, open := <-lines
	assert.False(t, open, "the stream ends when the container exits")
	assert.NoError(t, <-readErr, "io.EOF at the end")
}

func TestLogsFollowEndsWithCtxOrClose(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: shCmd("echo up; sleep infinity")})

	ctx, cancel := context.WithCancel(h.ctx)
	rc, err := h.rt.ContainerLogs(ctx, id, cri.LogOptions{Follow: true})
	require.NoError(t, err)
	first := make([]byte, 3)
	_, err = io.ReadFull(rc, first)
	require.NoError(t, err)
	assert.Equal(t, "up\n", string(first))
	readErr := make(chan error, 1)
	go func() {
		_, err := rc.Read(make([]byte, 10))
		readErr <- err
	}()
	cancel()
	assert.ErrorIs(t, <-readErr, context.Canceled, "Read when ctx is done")
	require.NoError(t, rc.Close())

	rc, err = h.rt.ContainerLogs(h.ctx, id, cri.LogOptions{Follow: true, TailLines: new(int64)})
	require.NoError(t, err)
	go func() {
		_, err := rc.Read(make([]byte, 10))
		readErr <- err
	}()
	require.NoError(t, rc.Close())
	assert.ErrorIs(t, <-readErr, io.EOF, "Read after Close")

	// Removing the container ends a follower too.
	rc, err = h.rt.ContainerLogs(h.ctx, id, cri.LogOptions{Follow: true, TailLines: new(int64)})
	require.NoError(t, err)
	defer rc.Close()
	go func() {
		_, err := rc.Read(make([]byte, 10))
		readErr <- err
	}()
	require.NoError(t, h.rt.RemoveContainer(h.ctx, id))
	assert.ErrorIs(t, <-readErr, io.EOF, "Read after the container was removed")
}

func TestLogOptions(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: shCmd("echo a; echo b >&2; sleep 10; echo c; echo d >&2; echo -n e")})
	h.runToExit(id)
	tail := func(n int64) *int64 { return &n }
	tests := []struct {
		name string
		opts cri.LogOptions
		want string
	}{
		{name: "everything", want: "a\nb\nc\nd\ne"},
		{name: "stdout", opts: cri.LogOptions{Stream: cri.Stdout}, want: "a\nc\ne"},
		{name: "stderr", opts: cri.LogOptions{Stream: cri.Stderr}, want: "b\nd\n"},
		{name: "tail 2", opts: cri.LogOptions{TailLines: tail(2)}, want: "d\ne"},
		{name: "tail 0", opts: cri.LogOptions{TailLines: tail(0)}, want: ""},
		{name: "tail more than there is", opts: cri.LogOptions{TailLines: tail(100)}, want: "a\nb\nc\nd\ne"},
		{name: "tail 1 of stderr", opts: cri.LogOptions{TailLines: tail(1), Stream: cri.Stderr}, want: "d\n"},
		{name: "since", opts: cri.LogOptions{SinceTime: epoch.Add(5 * time.Second)}, want: "c\nd\ne"},
		{name: "limit bytes", opts: cri.LogOptions{LimitBytes: 3}, want: "a\nb"},
		{name: "timestamps", opts: cri.LogOptions{Timestamps: true, TailLines: tail(1)},
			want: "2024-05-06T07:00:10.000000000Z e"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, h.logs(id, tc.opts), "logs with %+v", tc.opts)
		})
	}
	_, err := h.rt.ContainerLogs(h.ctx, "nope", cri.LogOptions{})
	assert.ErrorIs(t, err, cri.ErrNotFound)
}

func TestLogsAreBounded(t *testing.T) {
	h := newHarness(t, simulated.Options{MaxLogBytes: 1000})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: shCmd("for i in $(seq 1000); do echo line $i; done")})
	h.runToExit(id)
	out := h.logs(id, cri.LogOptions{})
	assert.Less(t, len(out), 1000, "the log keeps at most MaxLogBytes")
	assert.Contains(t, out, "line 1000\n", "the newest lines are kept")
	assert.NotContains(t, out, "line 1\n", "the oldest lines are dropped")
}
