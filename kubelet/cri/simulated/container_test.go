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

func TestBusyboxScriptLogsSleepsAndExits(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	id := h.start(cri.ContainerConfig{Image: "busybox", Command: shCmd("echo hi; sleep 2; exit 3")})

	st := h.status(id)
	require.Equal(t, cri.ContainerRunning, st.State, "while it sleeps")
	assert.Equal(t, epoch, st.StartedAt)
	assert.Equal(t, "hi\n", h.logs(id, cri.LogOptions{}))

	require.NoError(t, h.clock.BlockUntilWaiters(h.ctx, 1), "the sleep waits on the clock")
	h.clock.Step(1999 * time.Millisecond)
	assert.Equal(t, cri.ContainerRunning, h.status(id).State, "after 1.999s")

	// Start's loop wakes on its timer and reports the exit.
	changed := h.rt.Changed()
	h.clock.Step(time.Millisecond)
	<-changed
	st = h.status(id)
	assert.Equal(t, cri.ContainerExited, st.State)
	assert.Equal(t, int32(3), st.ExitCode)
	assert.Equal(t, cri.ReasonError, st.Reason)
	assert.Equal(t, 2*time.Second, st.FinishedAt.Sub(st.StartedAt), "run time")
	assert.Equal(t, "2024-05-06T07:00:00.000000000Z hi\n", h.logs(id, cri.LogOptions{Timestamps: true}))
	assert.False(t, h.clock.HasWaiters(), "nothing waits on the clock once the container exited")
}

// TestScripts runs the shell language end to end: command lines (with
// images' defaults) to log lines, exit codes and run times.
func TestScripts(t *testing.T) {
	type line struct {
		at     time.Duration
		stream cri.LogStream
		text   string
	}
	tests := []struct {
		name       string
		image      string
		command    []string
		args       []string
		env        []cri.KeyValue
		wantLines  []line
		wantCode   int32
		wantReason string
		wantTime   time.Duration
	}{
		{name: "echo env and hostname", image: "busybox", env: []cri.KeyValue{{Key: "WHO", Value: "world"}},
			command:   shCmd(`echo "hello $WHO from $HOSTNAME"`),
			wantLines: []line{{0, cri.Stdout, "hello world from pod-1"}}, wantReason: cri.ReasonCompleted},
		{name: "stdout and stderr", image: "alpine", command: shCmd("echo out; nosuch; echo err >&2; exit 0"),
			wantLines:  []line{{0, cri.Stdout, "out"}, {0, cri.Stderr, "sh: nosuch: not found"}, {0, cri.Stderr, "err"}},
			wantReason: cri.ReasonCompleted},
		{name: "unknown command is 127", image: "busybox", command: shCmd("nosuch"),
			wantLines: []line{{0, cri.Stderr, "sh: nosuch: not found"}}, wantCode: 127, wantReason: cri.ReasonError},
		{name: "timed lines", image: "busybox", command: shCmd("for i in 1 2 3; do echo tick $i; sleep 0.5; done"),
			wantLines:  []line{{0, cri.Stdout, "tick 1"}, {500 * time.Millisecond, cri.Stdout, "tick 2"}, {time.Second, cri.Stdout, "tick 3"}},
			wantReason: cri.ReasonCompleted, wantTime: 1500 * time.Millisecond},
		{name: "args of sh -c", image: "ubuntu", command: []string{"/bin/bash", "-c"}, args: []string{"echo $0 $1", "x", "y"},
			wantLines: []line{{0, cri.Stdout, "x y"}}, wantReason: cri.ReasonCompleted},
		{name: "args alone are the command of a shell image", image: "busybox", args: []string{"sh", "-c", "exit 7"},
			wantCode: 7, wantReason: cri.ReasonError},
		{name: "direct sleep", image: "busybox", command: []string{"sleep", "10"}, wantReason: cri.ReasonCompleted, wantTime: 10 * time.Second},
		{name: "shell image without command exits at once", image: "busybox", wantReason: cri.ReasonCompleted},
		{name: "ubuntu without command exits at once", image: "ubuntu:24.04", wantReason: cri.ReasonCompleted},
		{name: "env order", image: "busybox", command: []string{"env"}, env: []cri.KeyValue{{Key: "B", Value: "2"}, {Key: "A", Value: "1"}},
			wantLines: []line{
				{0, cri.Stdout, "PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"},
				{0, cri.Stdout, "HOSTNAME=pod-1"}, {0, cri.Stdout, "B=2"}, {0, cri.Stdout, "A=1"},
				{0, cri.Stdout, "HOME=/root"}, {0, cri.Stdout, "PWD=/"},
			}, wantReason: cri.ReasonCompleted},
		{name: "pod IP", image: "busybox", command: shCmd("hostname -i; cat /etc/hostname"),
			wantLines: []line{{0, cri.Stdout, "10.244.3.2"}, {0, cri.Stdout, "pod-1"}}, wantReason: cri.ReasonCompleted},
		{name: "date follows the clock", image: "busybox", command: shCmd("sleep 61; date -Iseconds"),
			wantLines: []line{{61 * time.Second, cri.Stdout, "2024-05-06T07:01:01+00:00"}}, wantReason: cri.ReasonCompleted, wantTime: 61 * time.Second},
		{name: "partial line", image: "busybox", command: shCmd("echo -n no newline"),
			wantLines: []line{{0, cri.Stdout, "no newline"}}, wantReason: cri.ReasonCompleted},
		{name: "syntax error", image: "busybox", command: shCmd("if true; then"),
			wantLines: []line{{0, cri.Stderr, "sh: syntax error: unexpected end of file"}}, wantCode: 2, wantReason: cri.ReasonError},
		{name: "unknown image runs its script", image: "example.com/team/app:v1", command: shCmd("echo app; exit 1"),
			wantLines: []line{{0, cri.Stdout, "app"}}, wantCode: 1, wantReason: cri.ReasonError},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, simulated.Options{})
			id := h.start(cri.ContainerConfig{Image: tc.image, Command: tc.command, Args: tc.args, Envs: tc.env})
			st := h.runToExit(id)
			assert.Equal(t, tc.wantCode, st.ExitCode, "exit code of %q %q", tc.command, tc.args)
			assert.Equal(t, tc.wantReason, st.Reason, "reason")
			assert.Equal(t, tc.wantTime, st.FinishedAt.Sub(st.StartedAt), "run time")

			var got []line
			for _, stream := range []cri.LogStream{cri.Stdout, cri.Stderr} {
				for l := range strings.Lines(h.logs(id, cri.LogOptions{Timestamps: true, Stream: stream})) {
					stamp, text, _ := strings.Cut(strings.TrimSuffix(l, "\n"), " ")
					at, err := time.Parse(cri.TimestampFormat, stamp)
					require.NoError(t, err, "timestamp of %q", l)
					got = append(got, line{at.Sub(epoch), stream, text})
				}
			}
			// Order by stream then time is enough: the table lists stdout
			// lines before stderr lines.
			assert.Equal(t, tc.wantLines, got, "log lines")
		})
	}
}

func TestStartErrors(t *testing.T) {
	tests := []struct {
		name    string
		image   string
		command []string
		wantMsg string
	}{
		{name: "no such program in busybox", image: "busybox", command: []string{"/app/server"}, wantMsg: `exec: "/app/server": executable file not found in $PATH`},
		{name: "no shell in pause", image: "registry.k8s.io/pause:3.10", command: shCmd("echo hi"), wantMsg: `exec: "sh": executable file not found in $PATH`},
		{name: "no shell in http-echo", image: "minicp/http-echo", command: []string{"/bin/sh"}, wantMsg: `exec: "/bin/sh": executable file not found in $PATH`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, simulated.Options{})
			id := h.create(h.sandbox("p"), cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "c"}, Image: tc.image, Command: tc.command})
			err := h.rt.StartContainer(h.ctx, id)
			require.Error(t, err, "StartContainer of %q in %s", tc.command, tc.image)
			assert.Contains(t, err.Error(), tc.wantMsg)
			st := h.status(id)
			assert.Equal(t, cri.ContainerExited, st.State)
			assert.Equal(t, int32(128), st.ExitCode)
			assert.Equal(t, cri.ReasonStartError, st.Reason)
			assert.Contains(t, st.Message, tc.wantMsg)
		})
	}
}

func TestSleepFollowsTheFakeClock(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	short := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sleep", "5"}})
	long := h.start(cri.ContainerConfig{Image: "busybox", Command: shCmd("sleep 30")})
	forever := h.start(cri.ContainerConfig{Image: "busybox", Command: []string{"sleep", "infinity"}})

	require.NoError(t, h.clock.BlockUntilWaiters(h.ctx, 1))
	assert.Equal(t, 1, h.clock.Waiters(), "one timer for all the sleeping containers")
	h.clock.Step(4900 * time.Millisecond)
	assert.Equal(t, cri.ContainerRunning, h.status(short).State, "sleep 5 after 4.9s")
	h.clock.Step(100 * time.Millisecond)
	h.waitFor("sleep 5 to end", func() bool { return h.status(short).State == cri.ContainerExited })
	st := h.status(short)
	assert.Equal(t, cri.ReasonCompleted, st.Reason)
	assert.Equal(t, epoch.Add(5*time.Second), st.FinishedAt)
	assert.Equal(t, cri.ContainerRunning, h.status(long).State)

	// One big step ends the 30s sleep at its own time.
	h.clock.Step(time.Hour)
	assert.Equal(t, epoch.Add(30*time.Second), h.status(long).FinishedAt)
	assert.Equal(t, cri.ContainerRunning, h.status(forever).State, "sleep infinity")
	assert.False(t, h.clock.HasWaiters(), "sleep infinity needs no timer")
}

func TestContainerLifecycle(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	sb := h.sandbox("web")
	cfg := cri.ContainerConfig{
		Metadata: cri.ContainerMetadata{Name: "app"},
		Image:    "busybox", Command: []string{"sleep", "60"},
		Labels: map[string]string{"tier": "front"},
	}
	_, err := h.rt.CreateContainer(h.ctx, sb, cfg)
	require.ErrorIs(t, err, cri.ErrNotFound, "CreateContainer before the image is pulled")

	id := h.create(sb, cfg)
	st := h.status(id)
	assert.Equal(t, cri.ContainerCreated, st.State)
	assert.True(t, st.StartedAt.IsZero())
	assert.Equal(t, sb, st.PodSandboxID)
	assert.Equal(t, "busybox", st.Image)
	assert.True(t, strings.HasPrefix(st.ImageRef, "sha256:"), "ImageRef %q", st.ImageRef)

	_, err = h.rt.CreateContainer(h.ctx, sb, cfg)
	assert.ErrorIs(t, err, cri.ErrAlreadyExists, "same name and attempt")
	cfg.Metadata.Attempt = 1
	second := h.create(sb, cfg)

	require.NoError(t, h.rt.StartContainer(h.ctx, id))
	assert.ErrorIs(t, h.rt.StartContainer(h.ctx, id), cri.ErrFailedPrecondition, "second start")
	assert.ErrorIs(t, h.rt.StartContainer(h.ctx, "nope"), cri.ErrNotFound)
	_, err = h.rt.ContainerStatus(h.ctx, "nope")
	assert.ErrorIs(t, err, cri.ErrNotFound)

	list, err := h.rt.ListContainers(h.ctx, cri.ContainerFilter{})
	require.NoError(t, err)
	require.Len(t, list, 2, "pause containers are not listed")
	assert.Equal(t, []string{id, second}, []string{list[0].ID, list[1].ID}, "oldest first")
	running, err := h.rt.ListContainers(h.ctx, cri.ContainerFilter{State: cri.ContainerRunning, LabelSelector: map[string]string{"tier": "front"}})
	require.NoError(t, err)
	require.Len(t, running, 1)
	assert.Equal(t, id, running[0].ID)
	none, err := h.rt.ListContainers(h.ctx, cri.ContainerFilter{LabelSelector: map[string]string{"tier": "back"}})
	require.NoError(t, err)
	assert.Empty(t, none)

	require.NoError(t, h.rt.OOMKill(id))
	st = h.status(id)
	assert.Equal(t, int32(137), st.ExitCode)
	assert.Equal(t, cri.ReasonOOMKilled, st.Reason)

	require.NoError(t, h.rt.RemoveContainer(h.ctx, id))
	require.NoError(t, h.rt.RemoveContainer(h.ctx, id), "second remove")
	_, err = h.rt.ContainerStatus(h.ctx, id)
	assert.ErrorIs(t, err, cri.ErrNotFound, "after remove")
	cfg.Metadata.Attempt = 0
	h.create(sb, cfg) // the name is free again
}

// TestMounts: a container sees its mounts' files, each start afresh (the
// kubelet passes the volume's files as they are at that start), and a
// read-only mount refuses writes; the config's files are copied.
func TestMounts(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	files := map[string]string{"greeting": "hello\n", "nested/name": "world\n"}
	id := h.start(cri.ContainerConfig{Image: "busybox",
		Command: shCmd("cat /etc/cfg/greeting /etc/cfg/nested/name /run/one; echo x > /etc/cfg/greeting"),
		Mounts: []cri.Mount{
			{ContainerPath: "/etc/cfg", Files: files, Readonly: true},
			{ContainerPath: "/run/one", Files: map[string]string{"": "single\n"}},
		}})
	files["greeting"] = "changed after create\n"
	st := h.runToExit(id)
	assert.Equal(t, int32(1), st.ExitCode, "the write fails")
	assert.Equal(t, "hello\nworld\nsingle\nsh: can't create /etc/cfg/greeting: Read-only file system\n", h.logs(id, cri.LogOptions{}))
}
