package simulated

import (
	"context"
	"errors"
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
	out := &execOutput{max: r.maxLogBytes}
	code, err := r.exec(ctx, containerID, cmd, execRun{timeout: timeout, out: out})
	var failed execFailed
	if errors.As(err, &failed) {
		return cri.ExecSyncResult{}, failed.error
	}
	return out.result(code), err
}

// execRun is how one exec runs: its deadline (zero: none), its stdin,
// where its output goes while the runtime's lock is held, and flush,
// which hands that output on after the lock is released. With prompt the
// command is an interactive shell: prompt, called without the lock,
// reads its user's next input and feeds it (see shell.Process.Feed).
type execRun struct {
	timeout time.Duration
	stdin   string
	out     shell.Host
	flush   func()
	prompt  func(ctx context.Context, proc *shell.Process)
}

// execFailed marks the errors that leave no exit code: the exec did not
// run.
type execFailed struct{ error }

func (e execFailed) Unwrap() error { return e.error }

// containerExitedError is an exec cut short by its container's exit.
type containerExitedError struct{ error }

func (e containerExitedError) Unwrap() error { return e.error }

// exec runs cmd in the container and returns its exit code. The code is
// -1 with an execFailed error when it could not start, -1 with the error
// when ctx or the timeout ended it, and 137 with a containerExitedError
// when the container exited under it.
func (r *Runtime) exec(ctx context.Context, containerID string, cmd []string, run execRun) (int, error) {
	flush := run.flush
	if flush == nil {
		flush = func() {}
	}
	if len(cmd) == 0 {
		return -1, execFailed{fmt.Errorf("exec in %s: empty command: %w", containerID, cri.ErrFailedPrecondition)}
	}
	r.lock()
	c, err := r.containerLocked(containerID)
	if err == nil && (c.state != cri.ContainerRunning || c.dying) {
		err = fmt.Errorf("container %s is not running: %w", containerID, cri.ErrFailedPrecondition)
	}
	if err != nil {
		r.unlock()
		return -1, execFailed{fmt.Errorf("exec: %w", err)}
	}
	if err := c.resolve(cmd); err != nil {
		r.unlock()
		run.out.Write(shell.Stderr, time.Time{}, "OCI runtime exec failed: exec failed: unable to start container process: "+err.Error()+": unknown\n")
		flush()
		return 127, nil
	}
	proc := c.newProcess(cmd, run.out, run.stdin, run.prompt != nil)
	exited := c.exitedCh
	var deadline <-chan time.Time
	if run.timeout > 0 {
		t := r.clock.NewTimer(run.timeout)
		defer t.Stop()
		deadline = t.C()
	}
	now := r.clock.Now()
	for {
		res := proc.Run(now)
		r.unlock()
		// The output goes out without the lock: it is I/O, and the
		// reader may be slow.
		flush()
		switch res.Kind {
		case shell.Exited:
			return res.ExitCode, nil
		case shell.Prompting:
			// The user takes their time; the container may exit
			// meanwhile, which the next Run sees.
			run.prompt(ctx, proc)
			if err := ctx.Err(); err != nil {
				return -1, fmt.Errorf("exec in %s: %w", containerID, err)
			}
			r.lock()
			if c.state != cri.ContainerRunning || c.dying {
				r.unlock()
				return 137, containerExitedError{fmt.Errorf("exec in %s: the container exited: %w", containerID, cri.ErrFailedPrecondition)}
			}
			now = r.clock.Now()
			continue
		case shell.Waiting:
			// The network I/O runs here, in the caller's goroutine,
			// without the lock.
			res.IO(ctx)
			r.lock()
			now = r.clock.Now()
			continue
		case shell.Serving:
			run.out.Write(shell.Stderr, now, fmt.Sprintf("%s: bind: address already in use\n", res.Argv[0]))
			flush()
			return 1, nil
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
			err = fmt.Errorf("exec in %s: command %q timed out after %v: %w", containerID, cmd, run.timeout, context.DeadlineExceeded)
		case <-exited:
			err = containerExitedError{fmt.Errorf("exec in %s: the container exited: %w", containerID, cri.ErrFailedPrecondition)}
		case <-ctx.Done():
			err = fmt.Errorf("exec in %s: %w", containerID, ctx.Err())
		}
		if timer != nil {
			timer.Stop()
		}
		if err != nil {
			return -1, err
		}
		r.lock()
		if c.state != cri.ContainerRunning || c.dying {
			r.unlock()
			return 137, containerExitedError{fmt.Errorf("exec in %s: the container exited: %w", containerID, cri.ErrFailedPrecondition)}
		}
		now = res.Until
	}
}
