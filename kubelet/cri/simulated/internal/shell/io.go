package shell

import (
	"fmt"
	"path"
)

// sinkKind is where a file descriptor writes.
type sinkKind uint8

const (
	sinkClosed sinkKind = iota
	sinkStdout
	sinkStderr
	sinkNull
	sinkFile
	sinkCapture
)

type sink struct {
	kind sinkKind
	path string
}

// input is what fd 0 reads: the content of a file, less what was read.
// The commands that share an fd 0 share its input, so that successive
// reads in `while read line; do ...; done <file` take successive lines.
// A nil input is empty: containers have no stdin.
type input struct{ data string }

// rest returns what is left to read.
func (in *input) rest() string {
	if in == nil {
		return ""
	}
	return in.data
}

// consume marks everything up to n as read.
func (in *input) consume(n int) {
	if in != nil {
		in.data = in.data[n:]
	}
}

func (p *Process) write(fd int, s string) {
	if s == "" || fd < 1 || fd > 2 {
		return
	}
	switch k := p.fds[fd]; k.kind {
	case sinkStdout:
		if p.capture != nil {
			p.capture.WriteString(s)
			return
		}
		p.cfg.Host.Write(Stdout, p.now, s)
	case sinkStderr:
		p.cfg.Host.Write(Stderr, p.now, s)
	case sinkFile:
		p.fs.Write(k.path, s, true)
	}
}

func (p *Process) abs(name string) string {
	if path.IsAbs(name) {
		return path.Clean(name)
	}
	return path.Join(p.vars["PWD"], name)
}

// expansionError is a redirection target that failed to expand, which
// ends a non-interactive shell like any failed expansion; other failed
// redirections fail only their command.
type expansionError struct{ error }

// redirect applies a command's redirections to p.fds and p.stdin.
func (p *Process) redirect(redirs []redirect) error {
	for _, r := range redirs {
		target, err := p.expandString(r.target)
		if err != nil {
			return expansionError{err}
		}
		switch r.op {
		case ">", ">>":
			var s sink
			switch target {
			case "/dev/null":
				s = sink{kind: sinkNull}
			case "/dev/stdout":
				s = p.fds[1]
			case "/dev/stderr":
				s = p.fds[2]
			default:
				s = sink{kind: sinkFile, path: p.abs(target)}
				if p.fs.ReadOnly(s.path) {
					return fmt.Errorf("can't create %s: Read-only file system", target)
				}
				if r.op == ">" {
					p.fs.Write(s.path, "", false)
				} else {
					p.fs.Write(s.path, "", true)
				}
			}
			if r.fd >= 1 && r.fd <= 2 {
				p.fds[r.fd] = s
			}
		case ">&":
			if r.fd < 1 || r.fd > 2 {
				continue
			}
			switch target {
			case "1", "2":
				p.fds[r.fd] = p.fds[atoi(target)]
			case "-":
				p.fds[r.fd] = sink{kind: sinkClosed}
			default:
				return fmt.Errorf("%s: bad file descriptor", target)
			}
		case "<":
			if target == "/dev/null" {
				p.stdin = nil
				continue
			}
			data, ok := p.fs.Read(p.abs(target))
			if !ok {
				return fmt.Errorf("can't open '%s': No such file or directory", target)
			}
			p.stdin = &input{data: data}
		}
	}
	return nil
}
