package simulated

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"strconv"
	"strings"
	"time"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// maxExecStdinBytes bounds an exec's stdin, which is read whole before
// the command runs (the shell has no blocking reads): 64 MiB is a
// generous `kubectl cp` of a few files, and still memory a test can
// spare.
const maxExecStdinBytes = 64 << 20

// Exec runs cmd in a running container with streams; see
// cri.ContainerManager. It runs in the caller's goroutine, as ExecSync
// does, and so do the writes to the streams, made without the runtime's
// lock. The simulated shell cannot wait for input, so stdin is read to
// its end (the client closing it) before the command starts: `echo hi |
// kubectl exec -i pod -- cat` and `kubectl cp` work, a command that
// talks with its user line by line does not, except the one that matters
// most: a shell on a terminal (`kubectl exec -it pod -- sh`) reads and
// runs one line at a time.
func (r *Runtime) Exec(ctx context.Context, containerID string, cmd []string, streams cri.ExecStreams) (int32, error) {
	out := &streamOutput{streams: streams}
	run := execRun{out: out, flush: out.flush}
	switch {
	case streams.TTY && streams.Stdin != nil && streams.Stdout != nil && isInteractiveShell(cmd):
		// `kubectl exec -it pod -- sh`: the shell reads line by line
		// from its terminal.
		t := &terminal{in: bufio.NewReader(streams.Stdin), out: streams.Stdout}
		run.prompt = t.prompt
	case streams.Stdin != nil:
		data, err := io.ReadAll(io.LimitReader(streams.Stdin, maxExecStdinBytes+1))
		if err == nil {
			// The client's leaving may end stdin as if it had closed it.
			err = ctx.Err()
		}
		if err != nil {
			return -1, fmt.Errorf("exec in %s: read stdin: %w", containerID, err)
		}
		if len(data) > maxExecStdinBytes {
			return -1, fmt.Errorf("exec in %s: stdin is larger than %d bytes: %w", containerID, maxExecStdinBytes, cri.ErrFailedPrecondition)
		}
		run.stdin = string(data)
	}
	code, err := r.exec(ctx, containerID, cmd, run)
	var failed execFailed
	if errors.As(err, &failed) {
		return -1, failed.error
	}
	if err != nil {
		return -1, err
	}
	return int32(code), nil
}

// streamOutput holds what an exec wrote while the runtime's lock was
// held, in order, until flush writes it to the streams. It is used from
// the exec's goroutine only.
type streamOutput struct {
	streams cri.ExecStreams
	pending []outputChunk
}

type outputChunk struct {
	stream shell.Stream
	text   string
}

// Write implements shell.Host.
func (o *streamOutput) Write(s shell.Stream, _ time.Time, text string) {
	o.pending = append(o.pending, outputChunk{s, text})
}

// flush writes the pending output. A client that went away makes the
// writes fail; the exec goes on until ctx ends it, as a process whose
// terminal closed does until it gets SIGHUP.
func (o *streamOutput) flush() {
	for _, c := range o.pending {
		w := o.streams.Stdout
		if c.stream == shell.Stderr && !o.streams.TTY {
			w = o.streams.Stderr
		}
		if w == nil {
			continue
		}
		text := c.text
		if o.streams.TTY {
			// A terminal's output processing (ONLCR) ends lines in CR LF.
			text = strings.ReplaceAll(text, "\n", "\r\n")
		}
		_, _ = io.WriteString(w, text)
	}
	o.pending = o.pending[:0]
}

// PortForward connects to port on the sandbox's IP, through DialContext:
// a container's real server, or for a server that speaks no HTTP, a
// connection it closes at once. See cri.PodSandboxManager.
func (r *Runtime) PortForward(ctx context.Context, podSandboxID string, port uint16) (net.Conn, error) {
	r.lock()
	sb, err := r.sandboxLocked(podSandboxID)
	var ip netip.Addr
	if err == nil {
		if sb.state != cri.SandboxReady {
			err = fmt.Errorf("sandbox %s is not ready: %w", podSandboxID, cri.ErrFailedPrecondition)
		}
		ip = sb.ip
	}
	r.unlock()
	if err != nil {
		return nil, fmt.Errorf("port forward: %w", err)
	}
	conn, err := r.DialContext(ctx, "tcp", net.JoinHostPort(ip.String(), strconv.Itoa(int(port))))
	if err != nil {
		// Upstream's words, from the kubelet dialing in the pod's
		// network namespace.
		return nil, fmt.Errorf("failed to connect to localhost:%d inside namespace %q, IPv4: %w", port, podSandboxID, err)
	}
	return conn, nil
}
