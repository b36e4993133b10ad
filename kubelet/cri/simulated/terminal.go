package simulated

import (
	"bufio"
	"context"
	"io"
	"path"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// isInteractiveShell reports whether argv starts a shell that reads its
// commands from its user: a shell with no script (sh, sh -i, bash -l).
func isInteractiveShell(argv []string) bool {
	if len(argv) == 0 || !shell.IsShell(path.Base(argv[0])) {
		return false
	}
	return !slices.ContainsFunc(argv[1:], func(a string) bool { return a != "-i" && a != "-l" && a != "-" })
}

// inputEnd is how a line of input ended.
type inputEnd uint8

const (
	lineDone inputEnd = iota
	lineInterrupted
	inputClosed
)

// lineEditor is the line discipline of a terminal (a pty in canonical
// mode, as a shell's line editor leaves it): it echoes what the user
// types, edits the line (backspace, Ctrl-U), turns Ctrl-C into a fresh
// line and Ctrl-D on an empty line into the end of input, and hands on
// whole lines. The client's terminal is in raw mode, so all of that is
// the container side's to do. Not safe for concurrent use.
type lineEditor struct {
	line []byte
	// esc is where an escape sequence is: 0 none, 1 after ESC, 2 inside
	// ESC [ ... (arrow keys), whose keys do nothing: there is no history
	// or cursor movement.
	esc uint8
}

// key takes one typed byte and returns what to echo and, when it ends
// the line, the line and how it ended.
func (e *lineEditor) key(b byte) (echo string, line string, end inputEnd, done bool) {
	switch e.esc {
	case 1:
		e.esc = 0
		if b == '[' || b == 'O' {
			e.esc = 2
		}
		return "", "", 0, false
	case 2:
		if b >= 0x40 && b <= 0x7e {
			e.esc = 0
		}
		return "", "", 0, false
	}
	switch {
	case b == '\r' || b == '\n':
		line, e.line = string(e.line), e.line[:0]
		return "\r\n", line, lineDone, true
	case b == 0x7f || b == '\b':
		if len(e.line) > 0 {
			_, size := utf8.DecodeLastRune(e.line)
			e.line = e.line[:len(e.line)-size]
			return "\b \b", "", 0, false
		}
	case b == 0x15: // Ctrl-U: erase the line
		echo = strings.Repeat("\b \b", utf8.RuneCount(e.line))
		e.line = e.line[:0]
		return echo, "", 0, false
	case b == 0x03: // Ctrl-C
		e.line = e.line[:0]
		return "^C\r\n", "", lineInterrupted, true
	case b == 0x04: // Ctrl-D: the end of input, on an empty line
		if len(e.line) == 0 {
			return "", "", inputClosed, true
		}
	case b == 0x1b:
		e.esc = 1
	case b < 0x20:
		// Other control keys (Tab: no completion) do nothing.
	default:
		e.line = append(e.line, b)
		return string(b), "", 0, false
	}
	return "", "", 0, false
}

// terminal is an exec's terminal: the line editor over the client's
// stdin and stdout. It is used from the exec's goroutine only.
type terminal struct {
	in  *bufio.Reader
	out io.Writer
	ed  lineEditor
}

// prompt reads the shell's next command, with its prompt, and feeds it;
// at the end of input it feeds exit, as sh reading EOF exits.
func (t *terminal) prompt(_ context.Context, proc *shell.Process) {
	var lines []string
	p := proc.Prompt()
	for {
		_, _ = io.WriteString(t.out, p)
		line, end := t.readLine()
		switch end {
		case inputClosed:
			_, _ = io.WriteString(t.out, "\r\n")
			proc.Feed("exit")
			return
		case lineInterrupted:
			lines, p = nil, proc.Prompt()
			continue
		}
		lines = append(lines, line)
		if proc.Feed(strings.Join(lines, "\n")) {
			p = "> "
			continue
		}
		return
	}
}

// readLine reads one line, echoing and editing it.
func (t *terminal) readLine() (string, inputEnd) {
	for {
		b, err := t.in.ReadByte()
		if err != nil {
			return "", inputClosed
		}
		echo, line, end, done := t.ed.key(b)
		if echo != "" {
			_, _ = io.WriteString(t.out, echo)
		}
		if done {
			return line, end
		}
	}
}
