package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// expandWords expands words into fields: parameters, arithmetic and
// command substitutions, then field splitting of the unquoted results.
// There is no pathname expansion (globbing).
func (p *Process) expandWords(words []word) ([]string, error) {
	var fields []string
	for _, w := range words {
		f, err := p.expandWord(w, true)
		if err != nil {
			return nil, err
		}
		fields = append(fields, f...)
	}
	return fields, nil
}

// expandString expands w into one string, without field splitting, as in
// assignments and redirection targets.
func (p *Process) expandString(w word) (string, error) {
	f, err := p.expandWord(w, false)
	if err != nil || len(f) == 0 {
		return "", err
	}
	return f[0], nil
}

func isIFS(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func (p *Process) expandWord(w word, split bool) ([]string, error) {
	var (
		fields []string
		cur    strings.Builder
		have   bool
	)
	flush := func() {
		fields = append(fields, cur.String())
		cur.Reset()
		have = false
	}
	addSplit := func(v string) {
		if !split {
			cur.WriteString(v)
			have = true
			return
		}
		if v == "" {
			return
		}
		if isIFS(v[0]) && have {
			flush()
		}
		for i, piece := range strings.FieldsFunc(v, func(r rune) bool { return r < 128 && isIFS(byte(r)) }) {
			if i > 0 {
				flush()
			}
			cur.WriteString(piece)
			have = true
		}
		if isIFS(v[len(v)-1]) && have {
			flush()
		}
	}
	for _, pt := range w {
		var v string
		switch pt.kind {
		case pLit:
			cur.WriteString(pt.text)
			if pt.quoted || pt.text != "" {
				have = true
			}
			continue
		case pParam:
			if pt.text == "@" && pt.op == "" && pt.quoted && split {
				for i, a := range p.args[1:] {
					if i > 0 {
						flush()
					}
					cur.WriteString(a)
					have = true
				}
				continue
			}
			var err error
			if v, err = p.paramValue(pt); err != nil {
				return nil, err
			}
		case pArith:
			expr, err := lexWord(pt.text, true)
			if err != nil {
				return nil, err
			}
			text, err := p.expandString(expr)
			if err != nil {
				return nil, err
			}
			n, err := p.arith(text)
			if err != nil {
				return nil, err
			}
			v = strconv.FormatInt(n, 10)
		case pSubst:
			v = p.substitute(pt.prog)
		}
		if pt.quoted {
			cur.WriteString(v)
			have = true
		} else {
			addSplit(v)
		}
	}
	if have {
		flush()
	}
	return fields, nil
}

// param returns the value of a parameter and whether it is set.
func (p *Process) param(name string) (string, bool) {
	switch name {
	case "?":
		return strconv.Itoa(p.status), true
	case "#":
		return strconv.Itoa(len(p.args) - 1), true
	case "$":
		return "1", true // PID 1
	case "!":
		return "", false
	case "-":
		flags := ""
		if p.errexit {
			flags += "e"
		}
		if p.xtrace {
			flags += "x"
		}
		return flags, true
	case "@", "*":
		return strings.Join(p.args[1:], " "), len(p.args) > 1
	}
	if name[0] >= '0' && name[0] <= '9' {
		i := atoi(name)
		if i < len(p.args) {
			return p.args[i], true
		}
		return "", false
	}
	v, ok := p.vars[name]
	return v, ok
}

func (p *Process) paramValue(pt part) (string, error) {
	v, set := p.param(pt.text)
	switch pt.op {
	case "":
		return v, nil
	case "#":
		return strconv.Itoa(len(v)), nil
	case ":-", "-":
		if !set || pt.op == ":-" && v == "" {
			return p.expandString(pt.arg)
		}
	case ":=", "=":
		if !set || pt.op == ":=" && v == "" {
			d, err := p.expandString(pt.arg)
			if err != nil {
				return "", err
			}
			if !isName(pt.text) {
				return "", fmt.Errorf("%s: bad variable name", pt.text)
			}
			p.setVar(pt.text, d)
			return d, nil
		}
	case ":+", "+":
		if set && (pt.op == "+" || v != "") {
			return p.expandString(pt.arg)
		}
		return "", nil
	}
	return v, nil
}

// substLimit bounds a command substitution, in Run calls of stepBudget
// instructions each, so that `$(while true; do :; done)` ends.
const substLimit = 100

// substitute runs prog as a command substitution and returns its output
// without trailing newlines. It runs in a copy of the shell (assignments
// do not leak out) and takes no time: a sleep in it returns at once.
func (p *Process) substitute(prog *Program) string {
	if p.depth >= 8 {
		return ""
	}
	child := &Process{
		cfg: p.cfg, fs: p.fs, vars: make(map[string]string, len(p.vars)), env: slices.Clone(p.env),
		args: p.args, status: p.status, traps: map[string]*Program{}, errexit: p.errexit,
		fds: [3]sink{{}, {kind: sinkStdout}, p.fds[2]}, capture: &strings.Builder{}, depth: p.depth + 1,
	}
	for k, v := range p.vars {
		child.vars[k] = v
	}
	child.frames = []*frame{{prog: prog}}
	for range substLimit {
		if r := child.Run(p.now); r.Kind != Sleeping {
			break
		}
	}
	p.status = child.exitCode
	return strings.TrimRight(child.capture.String(), "\n")
}
