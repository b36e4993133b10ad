package simulated

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// execOutput collects an exec's output, up to max bytes a stream.
type execOutput struct {
	stdout, stderr strings.Builder
	max            int
}

func (o *execOutput) Write(s shell.Stream, _ time.Time, text string) {
	b := &o.stdout
	if s == shell.Stderr {
		b = &o.stderr
	}
	if room := o.max - b.Len(); room < len(text) {
		text = text[:max(room, 0)]
	}
	b.WriteString(text)
}

func (o *execOutput) result(code int) cri.ExecSyncResult {
	return cri.ExecSyncResult{Stdout: []byte(o.stdout.String()), Stderr: []byte(o.stderr.String()), ExitCode: int32(code)}
}

// ExecSync runs cmd in a running container, in the caller's goroutine:
// the command shares the container's environment and files, and its
// sleeps wait on the runtime's clock. A server program cannot start in an
// exec (its port is taken); it fails with exit code 1. See
// cri.ContainerManager.
func (r *Runtime) ExecSync(ctx context.Context, containerID string, cmd []string, timeout time.Duration) (cri.ExecSyncResult, error) {
	if len(cmd) == 0 {
		return cri.ExecSyncResult{}, fmt.Errorf("exec in %s: empty command: %w", containerID, cri.ErrFailedPrecondition)
	}
	out := &execOutput{max: r.maxLogBytes}
	r.lock()
	c, err := r.containerLocked(containerID)
	if err == nil && (c.state != cri.ContainerRunning || c.dying) {
		err = fmt.Errorf("container %s is not running: %w", containerID, cri.ErrFailedPrecondition)
	}
	if err != nil {
		r.unlock()
		return cri.ExecSyncResult{}, fmt.Errorf("exec: %w", err)
	}
	if err := c.resolve(cmd); err != nil {
		r.unlock()
		out.Write(shell.Stderr, time.Time{}, "OCI runtime exec failed: exec failed: unable to start container process: "+err.Error()+": unknown\n")
		return out.result(127), nil
	}
	proc := c.newProcess(cmd, out)
	exited := c.exitedCh
	start := r.clock.Now()
	var deadline <-chan time.Time
	if timeout > 0 {
		t := r.clock.NewTimer(timeout)
		defer t.Stop()
		deadline = t.C()
	}
	now := start
	for {
		res := proc.Run(now)
		r.unlock()
		switch res.Kind {
		case shell.Exited:
			return out.result(res.ExitCode), nil
		case shell.Waiting:
			// The network I/O runs here, in the caller's goroutine,
			// without the lock.
			res.IO(ctx)
			r.lock()
			now = r.clock.Now()
			continue
		case shell.Serving:
			out.Write(shell.Stderr, now, fmt.Sprintf("%s: bind: address already in use\n", res.Argv[0]))
			return out.result(1), nil
		}
		// A process that sleeps forever (tail -f) only ends by the
		// deadline, ctx or the container's exit.
		var (
			wake  <-chan time.Time
			timer interface{ Stop() bool }
		)
		if !res.Until.IsZero() {
			if d := res.Until.Sub(r.clock.Now()); d > 0 {
				t := r.clock.NewTimer(d)
				wake, timer = t.C(), t
			} else {
				ch := make(chan time.Time, 1)
				ch <- res.Until
				wake = ch
			}
		}
		var err error
		select {
		case <-wake:
		case <-deadline:
			err = fmt.Errorf("exec in %s: command %q timed out after %v: %w", containerID, cmd, timeout, context.DeadlineExceeded)
		case <-exited:
			err = fmt.Errorf("exec in %s: the container exited: %w", containerID, cri.ErrFailedPrecondition)
		case <-ctx.Done():
			err = fmt.Errorf("exec in %s: %w", containerID, ctx.Err())
		}
		if timer != nil {
			timer.Stop()
		}
		if err != nil {
			return out.result(-1), err
		}
		r.lock()
		if c.state != cri.ContainerRunning || c.dying {
			r.unlock()
			return out.result(137), fmt.Errorf("exec in %s: the container exited: %w", containerID, cri.ErrFailedPrecondition)
		}
		now = res.Until
	}
}
