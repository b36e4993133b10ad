package shell

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
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
	if split && len(p.args) == 1 && onlyQuotedAt(w) {
		return nil, nil // "$@" with no arguments is no field at all
	}
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
	// expand adds the parts of a word; quoted is set inside the quoted
	// word of a ${X:-word}, whose own quoting also counts.
	// inArg: the word is that of ${X:-word}, whose unquoted text is split
	// as the result of an expansion.
	var expand func(w word, quoted, inArg bool) error
	expand = func(w word, quoted, inArg bool) error {
		for _, pt := range w {
			pt.quoted = pt.quoted || quoted
			var v string
			switch pt.kind {
			case pLit:
				if inArg && !pt.quoted {
					addSplit(pt.text)
					continue
				}
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
				if p.usesArg(pt) {
					// The word keeps its quoting: ${X:-"a  b"} is one field.
					if err := expand(pt.arg, pt.quoted, true); err != nil {
						return err
					}
					continue
				}
				var err error
				if v, err = p.paramValue(pt); err != nil {
					return err
				}
			case pArith:
				expr, err := lexWord(pt.text, true)
				if err != nil {
					return err
				}
				text, err := p.expandString(expr)
				if err != nil {
					return err
				}
				n, err := p.arith(text)
				if err != nil {
					return err
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
		return nil
	}
	if err := expand(w, false, false); err != nil {
		return nil, err
	}
	if have {
		flush()
	}
	return fields, nil
}

// onlyQuotedAt reports whether w is "$@" (and empty quotes), which
// expands to no field when there are no arguments.
func onlyQuotedAt(w word) bool {
	at := false
	for _, pt := range w {
		switch {
		case pt.kind == pParam && pt.text == "@" && pt.op == "" && pt.quoted:
			at = true
		case pt.kind == pLit && pt.quoted && pt.text == "":
		default:
			return false
		}
	}
	return at
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

// usesArg reports whether the word of pt replaces the parameter:
// ${X:-word} when X is unset or empty, ${X-word} when it is unset,
// ${X:+word} when it is set and not empty, ${X+word} when it is set.
func (p *Process) usesArg(pt part) bool {
	v, set := p.param(pt.text)
	switch pt.op {
	case ":-":
		return !set || v == ""
	case "-":
		return !set
	case ":+":
		return set && v != ""
	case "+":
		return set
	}
	return false
}

// paramValue expands one ${...} or $NAME. An error (a :? check, set -u)
// ends a non-interactive shell with status 2, as in busybox.
func (p *Process) paramValue(pt part) (string, error) {
	v, set := p.param(pt.text)
	switch pt.op {
	case "", "len":
		if !set && p.nounset && pt.text != "@" && pt.text != "*" {
			return "", fmt.Errorf("%s: parameter not set", pt.text)
		}
		if pt.op == "len" {
			return strconv.Itoa(utf8.RuneCountInString(v)), nil
		}
		return v, nil
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
	case ":?", "?":
		if !set || pt.op == ":?" && v == "" {
			msg, err := p.expandString(pt.arg)
			switch {
			case err != nil:
				return "", err
			case msg != "":
			case pt.op == "?":
				msg = "parameter not set"
			default:
				msg = "parameter null or not set"
			}
			return "", fmt.Errorf("%s: %s", pt.text, msg)
		}
	case "#", "##", "%", "%%":
		pat, err := p.expandPattern(pt.arg)
		if err != nil {
			return "", err
		}
		return removeAffix(v, pt.op, pat), nil
	}
	return v, nil
}

// expandPattern expands w into a pattern: what was quoted in the script
// matches literally, the rest keeps its * ? and [.
func (p *Process) expandPattern(w word) (string, error) {
	var b strings.Builder
	for _, pt := range w {
		var v string
		switch pt.kind {
		case pLit:
			v = pt.text
		default:
			var err error
			if v, err = p.expandString(word{pt}); err != nil {
				return "", err
			}
		}
		if pt.quoted {
			v = quotePattern(v)
		}
		b.WriteString(v)
	}
	return b.String(), nil
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
		args: p.args, status: p.status, traps: map[string]trapAction{}, errexit: p.errexit, nounset: p.nounset,
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
	p.status, p.substituted = child.exitCode, true
	return strings.TrimRight(child.capture.String(), "\n")
}
