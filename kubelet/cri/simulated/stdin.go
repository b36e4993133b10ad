package simulated

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// mainStdin is the stdin of a container whose main process is a shell
// reading its commands (spec stdin: true, command sh): what attached
// clients type, turned into lines (with a terminal, by its line editor)
// and fed to the shell whenever it prompts. Its fields are guarded by
// Runtime.mu.
type mainStdin struct {
	ed lineEditor
	// partial is a line typed without a terminal, not yet ended.
	partial []byte
	// queue holds whole lines the shell has not read yet; eof after them
	// is the end of input.
	queue []string
	eof   bool
	// lines is the command being entered, when it spans lines (an if
	// without its fi).
	lines []string
	// prompting is set while the shell waits for a line; shown once its
	// prompt was written.
	prompting, shown bool
}

// Write makes a container the shell.Host of its process: what it writes
// goes to the log, through the terminal's output processing (ONLCR) if
// it has one.
func (c *container) Write(s shell.Stream, now time.Time, text string) {
	if c.config.TTY {
		text = strings.ReplaceAll(text, "\n", "\r\n")
	}
	c.log.write(s, now, text)
}

// promptLocked acts on the main shell's waiting for input: it shows the
// prompt (on a terminal), as a shell does before each read, then feeds
// the next queued line, or waits for one.
func (r *Runtime) promptLocked(c *container, at time.Time) {
	in := c.stdin
	if in == nil {
		return // no stdin: it waits forever, as sh on an open, silent stdin
	}
	for {
		if !in.shown {
			p := c.proc.Prompt()
			if len(in.lines) > 0 {
				p = "> "
			}
			r.showPromptLocked(c, p, at)
			in.shown = true
		}
		switch {
		case len(in.queue) > 0:
			line := in.queue[0]
			in.queue, in.shown = in.queue[1:], false
			in.lines = append(in.lines, line)
			if c.proc.Feed(strings.Join(in.lines, "\n")) {
				continue
			}
		case in.eof:
			in.lines = nil
			c.proc.Feed("exit")
		default:
			in.prompting = true
			return
		}
		in.lines, in.prompting = nil, false
		now := r.clock.Now()
		r.resultLocked(c, c.proc.Run(now), now)
		return
	}
}

func (r *Runtime) showPromptLocked(c *container, prompt string, at time.Time) {
	if c.config.TTY {
		c.log.write(shell.Stdout, at, prompt)
	}
}

// AttachStdin copies stdin to the main process's stdin; see
// cri.ContainerManager. It reads in the caller's goroutine, without the
// lock, and ends when stdin does (the client closing it, or its
// connection ending, which the caller makes happen at ctx's end).
func (r *Runtime) AttachStdin(ctx context.Context, containerID string, stdin io.Reader) error {
	buf := make([]byte, 4<<10)
	for ctx.Err() == nil {
		n, err := stdin.Read(buf)
		if n > 0 {
			r.lock()
			c, cerr := r.containerLocked(containerID)
			if cerr == nil {
				r.typeLocked(c, buf[:n])
			}
			r.unlock()
			if cerr != nil {
				return fmt.Errorf("attach: %w", cerr)
			}
		}
		if err != nil {
			break
		}
	}
	r.lock()
	defer r.unlock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		return fmt.Errorf("attach: %w", err)
	}
	if c.config.StdinOnce && c.stdin != nil && !c.stdin.eof {
		c.stdin.eof = true
		r.typedLocked(c)
	}
	return nil
}

// typeLocked takes what a client typed: with a terminal, key by key
// through the line editor, echoing to the log as a pty does; without,
// as lines.
func (r *Runtime) typeLocked(c *container, data []byte) {
	in := c.stdin
	if in == nil || in.eof || c.state != cri.ContainerRunning || c.proc == nil {
		return // nobody reads it
	}
	now := r.clock.Now()
	for _, b := range data {
		if !c.config.TTY {
			if b == '\n' {
				in.queue = append(in.queue, string(in.partial))
				in.partial = in.partial[:0]
			} else {
				in.partial = append(in.partial, b)
			}
			continue
		}
		echo, line, end, done := in.ed.key(b)
		if echo != "" {
			c.log.write(shell.Stdout, now, echo)
		}
		if !done {
			continue
		}
		switch end {
		case lineDone:
			in.queue = append(in.queue, line)
		case lineInterrupted:
			in.queue, in.lines = nil, nil
			if in.prompting {
				r.showPromptLocked(c, c.proc.Prompt(), now)
			}
		case inputClosed:
			in.eof = true
		}
	}
	r.typedLocked(c)
}

// typedLocked hands queued input to a shell that waits for it.
func (r *Runtime) typedLocked(c *container) {
	in := c.stdin
	if in.prompting && c.proc != nil && (len(in.queue) > 0 || in.eof) {
		in.prompting = false
		r.promptLocked(c, r.clock.Now())
	}
}
