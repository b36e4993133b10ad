package shell

import (
	"strings"
)

// Feed gives an interactive shell that is Prompting its next input:
// one or more lines, without the last newline. It reports whether the
// input is incomplete (an if without its fi): the caller then asks for
// more with the continuation prompt, "> ", and feeds the lines so far
// and the next together. A syntax error is reported as sh does and sets
// $? to 2; the shell goes on. Call Run after a complete Feed.
func (p *Process) Feed(input string) (incomplete bool) {
	prog, err := Parse(input)
	if err != nil {
		if strings.Contains(err.Error(), `unexpected end of file`) {
			return true
		}
		p.errorf("sh: %v\n", err)
		p.status = 2
		return false
	}
	p.frames = []*frame{{prog: prog}}
	return false
}

// Prompt is busybox's default prompt for root: the working directory,
// "~" for the home directory, then " # ".
func (p *Process) Prompt() string {
	wd := p.vars["PWD"]
	if home := p.vars["HOME"]; home != "" && wd == home {
		wd = "~"
	}
	return wd + " # "
}
