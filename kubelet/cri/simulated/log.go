package simulated

import (
	"context"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
	"github.com/minicp/minicp/wait"
)

// maxLineBytes is where a line with no newline yet is cut, as containerd
// cuts log lines at 16 KiB.
const maxLineBytes = 16 << 10

// logEntryOverhead is what an entry costs besides its text, roughly, for
// the MaxLogBytes budget.
const logEntryOverhead = 48

// logEntry is one line of a container log.
type logEntry struct {
	at     time.Time
	stream shell.Stream
	// partial marks a line that ended without a newline: at exit, or cut
	// at maxLineBytes.
	partial bool
	text    string
}

// containerLog is a container's stdout and stderr, line by line. It is
// guarded by Runtime.mu.
type containerLog struct {
	max int
	// unbuffered makes every write visible at once, a line's start as a
	// partial entry: a terminal's output (a prompt, an echoed key) is
	// not held until its line ends.
	unbuffered bool
	// entries are the lines kept; the oldest are dropped past max bytes.
	// first is the sequence number of entries[0], so that a reader's
	// position survives the dropping.
	entries []logEntry
	first   uint64
	bytes   int
	// partial holds, per stream, the start of a line not yet ended by a
	// newline (index 0 unused), and when its first byte was written.
	partial   [3]string
	partialAt [3]time.Time
	// closed is set when the container exited or was removed: no more
	// lines come.
	closed bool
	// changed is notified when lines are added or the log closes.
	changed wait.Broadcast
}

// write appends text written to stream at now; complete lines become
// entries.
func (l *containerLog) write(stream shell.Stream, now time.Time, text string) {
	if l.closed {
		return
	}
	for text != "" {
		if l.partial[stream] == "" {
			l.partialAt[stream] = now
		}
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			l.partial[stream] += text
			if len(l.partial[stream]) >= maxLineBytes {
				l.flush(stream)
			}
			break
		}
		l.add(logEntry{at: now, stream: stream, text: l.partial[stream] + text[:i]})
		l.partial[stream] = ""
		text = text[i+1:]
	}
	if l.unbuffered {
		l.flush(stream)
	}
	l.notify()
}

// flush turns the partial line of stream into an entry.
func (l *containerLog) flush(stream shell.Stream) {
	if l.partial[stream] != "" {
		l.add(logEntry{at: l.partialAt[stream], stream: stream, partial: true, text: l.partial[stream]})
		l.partial[stream] = ""
	}
}

func (l *containerLog) add(e logEntry) {
	l.entries = append(l.entries, e)
	l.bytes += len(e.text) + logEntryOverhead
	for l.bytes > l.max && len(l.entries) > 1 {
		l.bytes -= len(l.entries[0].text) + logEntryOverhead
		l.entries[0] = logEntry{}
		l.entries = l.entries[1:]
		l.first++
	}
}

// close flushes partial lines and wakes readers, which then end.
func (l *containerLog) close() {
	if l.closed {
		return
	}
	l.flush(shell.Stdout)
	l.flush(shell.Stderr)
	l.closed = true
	l.notify()
}

func (l *containerLog) notify() {
	l.changed.Notify()
}

func (l *containerLog) waitCh() <-chan struct{} {
	return l.changed.Wait()
}

func streamOf(s shell.Stream) cri.LogStream {
	if s == shell.Stderr {
		return cri.Stderr
	}
	return cri.Stdout
}

// ContainerLogs returns a reader of the container's log. The reader owns
// no goroutine: Read blocks in the caller's.
func (r *Runtime) ContainerLogs(ctx context.Context, containerID string, opts cri.LogOptions) (io.ReadCloser, error) {
	r.lock()
	defer r.unlock()
	c, err := r.containerLocked(containerID)
	if err != nil {
		return nil, err
	}
	lr := &logReader{r: r, c: c, ctx: ctx, opts: opts, closedCh: make(chan struct{})}
	l := &c.log
	start := len(l.entries)
	for i, e := range l.entries {
		if !e.at.Before(opts.SinceTime) {
			start = i
			break
		}
	}
	if opts.TailLines != nil {
		n := *opts.TailLines
		i := len(l.entries)
		for i > start && n > 0 {
			i--
			if lr.wants(l.entries[i]) {
				n--
			}
		}
		start = i
	}
	lr.next = l.first + uint64(start)
	return lr, nil
}

// logReader reads one container's log.
type logReader struct {
	r    *Runtime
	c    *container
	ctx  context.Context
	opts cri.LogOptions
	// next is the sequence number of the next entry to read; buf what was
	// formatted and not yet read; sent counts bytes read for LimitBytes.
	next      uint64
	buf       []byte
	sent      int64
	closeOnce sync.Once
	closedCh  chan struct{}
}

func (lr *logReader) wants(e logEntry) bool {
	return (lr.opts.Stream == "" || lr.opts.Stream == streamOf(e.stream)) && !e.at.Before(lr.opts.SinceTime)
}

// fillBytes bounds what one fill formats.
const fillBytes = 32 << 10

// Read implements io.Reader; see cri.ContainerLogReader for when it ends.
func (lr *logReader) Read(p []byte) (int, error) {
	for {
		if len(lr.buf) > 0 {
			n := copy(p, lr.buf)
			lr.buf = lr.buf[n:]
			lr.sent += int64(n)
			return n, nil
		}
		if lr.opts.LimitBytes > 0 && lr.sent >= lr.opts.LimitBytes {
			return 0, io.EOF
		}
		select {
		case <-lr.closedCh:
			return 0, io.EOF
		default:
		}
		lr.r.lock()
		l := &lr.c.log
		if lr.next < l.first {
			lr.next = l.first // the lines in between were dropped
		}
		for i := int(lr.next - l.first); i < len(l.entries) && len(lr.buf) < fillBytes; i++ {
			lr.next++
			if e := l.entries[i]; lr.wants(e) {
				lr.buf = lr.format(lr.buf, e)
			}
		}
		if lr.opts.LimitBytes > 0 {
			if left := lr.opts.LimitBytes - lr.sent; int64(len(lr.buf)) > left {
				lr.buf = lr.buf[:left]
			}
		}
		done := len(lr.buf) == 0 && (!lr.opts.Follow || l.closed)
		var wait <-chan struct{}
		if len(lr.buf) == 0 && !done {
			wait = l.waitCh()
		}
		lr.r.unlock()
		switch {
		case len(lr.buf) > 0:
			continue
		case done:
			return 0, io.EOF
		}
		select {
		case <-wait:
		case <-lr.ctx.Done():
			return 0, lr.ctx.Err()
		case <-lr.closedCh:
			return 0, io.EOF
		}
	}
}

func (lr *logReader) format(buf []byte, e logEntry) []byte {
	if lr.opts.Timestamps {
		buf = e.at.UTC().AppendFormat(buf, cri.TimestampFormat)
		buf = append(buf, ' ')
	}
	buf = append(buf, e.text...)
	if !e.partial {
		buf = append(buf, '\n')
	}
	return buf
}

// Close ends the reader; a blocked Read returns io.EOF.
func (lr *logReader) Close() error {
	lr.closeOnce.Do(func() { close(lr.closedCh) })
	return nil
}
