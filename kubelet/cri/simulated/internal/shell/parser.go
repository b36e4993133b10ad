package shell

type parser struct {
	lex    lexer
	tok    token
	peeked bool
}

// Parse parses a script in the shell language (see the package doc). The
// error is a *SyntaxError.
func Parse(script string) (*Program, error) {
	p := &parser{lex: lexer{src: script}}
	list, err := p.list()
	if err != nil {
		return nil, err
	}
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if t.kind != tEOF {
		return nil, unexpected(t)
	}
	return compile(list), nil
}

func (p *parser) peek() (token, error) {
	if !p.peeked {
		t, err := p.lex.next()
		if err != nil {
			return token{}, err
		}
		p.tok, p.peeked = t, true
	}
	return p.tok, nil
}

func (p *parser) take() token {
	p.peeked = false
	return p.tok
}

// unexpected is the syntax error for token t. As in busybox, the end of
// file, a newline, a redirection and a word are named bare, and operators
// and reserved words quoted.
func unexpected(t token) error {
	switch t.kind {
	case tEOF, tNewline, tRedir:
		return syntaxErrorf("unexpected %s", t.kind)
	case tWord:
		if t.isPlain {
			return syntaxErrorf("unexpected %q", t.plain)
		}
		return syntaxErrorf("unexpected word")
	}
	return syntaxErrorf("unexpected %q", t.kind.String())
}

// reserved reports whether t is the reserved word w.
func reserved(t token, w string) bool { return t.kind == tWord && t.isPlain && t.plain == w }

// closers end a list: the words that close the compound command around it.
var closers = map[string]bool{"then": true, "elif": true, "else": true, "fi": true, "do": true, "done": true, "}": true, "esac": true}

func (p *parser) skipNewlines() error {
	for {
		t, err := p.peek()
		if err != nil {
			return err
		}
		if t.kind != tNewline {
			return nil
		}
		p.take()
	}
}

// list parses and-or lists separated by ; or newlines, up to the end of
// the script, a ')' or a closing reserved word.
func (p *parser) list() (listNode, error) {
	var list listNode
	for {
		if err := p.skipNewlines(); err != nil {
			return nil, err
		}
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind == tEOF || t.kind == tRParen || t.kind == tDSemi || t.kind == tWord && t.isPlain && closers[t.plain] {
			return list, nil
		}
		n, err := p.andOr()
		if err != nil {
			return nil, err
		}
		list = append(list, n)
		t, err = p.peek()
		if err != nil {
			return nil, err
		}
		switch t.kind {
		case tSemi, tNewline:
			p.take()
		case tAmp:
			return nil, syntaxErrorf("background jobs (&) are not supported")
		default:
			return list, nil
		}
	}
}

func (p *parser) andOr() (node, error) {
	first, err := p.pipeline()
	if err != nil {
		return nil, err
	}
	n := &andOrNode{first: first}
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind != tAndIf && t.kind != tOrIf {
			break
		}
		p.take()
		if err := p.skipNewlines(); err != nil {
			return nil, err
		}
		cmd, err := p.pipeline()
		if err != nil {
			return nil, err
		}
		n.rest = append(n.rest, andOrPart{and: t.kind == tAndIf, cmd: cmd})
	}
	if len(n.rest) == 0 {
		return first, nil
	}
	return n, nil
}

func (p *parser) pipeline() (node, error) {
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if reserved(t, "!") {
		p.take()
		cmd, err := p.command()
		if err != nil {
			return nil, err
		}
		return &notNode{cmd: cmd}, p.noPipe()
	}
	cmd, err := p.command()
	if err != nil {
		return nil, err
	}
	return cmd, p.noPipe()
}

func (p *parser) noPipe() error {
	t, err := p.peek()
	if err != nil {
		return err
	}
	if t.kind == tPipe {
		return syntaxErrorf("pipes (|) are not supported")
	}
	return nil
}

func (p *parser) command() (node, error) {
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if t.kind == tLParen {
		return nil, syntaxErrorf("subshells ( ... ) are not supported")
	}
	if t.kind == tWord && t.isPlain {
		var compound func() (node, error)
		switch t.plain {
		case "if":
			compound = p.ifClause
		case "while", "until":
			compound = p.loop
		case "for":
			compound = p.forClause
		case "case":
			compound = p.caseClause
		case "{":
			compound = p.braceGroup
		case "function", "select":
			return nil, syntaxErrorf("%q is not supported", t.plain)
		}
		if compound != nil {
			n, err := compound()
			if err != nil {
				return nil, err
			}
			return p.redirected(n)
		}
		if closers[t.plain] {
			return nil, unexpected(t)
		}
	}
	return p.simple()
}

func (p *parser) expect(w string) error {
	t, err := p.peek()
	if err != nil {
		return err
	}
	if !reserved(t, w) {
		return unexpected(t)
	}
	p.take()
	return nil
}

// redirected parses the redirections after a compound command, if any.
func (p *parser) redirected(n node) (node, error) {
	var redirs []redirect
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		if t.kind != tRedir {
			break
		}
		r, err := p.redirection()
		if err != nil {
			return nil, err
		}
		redirs = append(redirs, r)
	}
	if redirs == nil {
		return n, nil
	}
	return &redirectedNode{cmd: n, redirs: redirs}, nil
}

// redirection parses a redirection operator and its target word.
func (p *parser) redirection() (redirect, error) {
	op := p.take()
	target, err := p.peek()
	if err != nil {
		return redirect{}, err
	}
	if target.kind != tWord {
		return redirect{}, unexpected(target)
	}
	p.take()
	return redirect{fd: op.fd, op: op.op, target: target.word}, nil
}

func (p *parser) simple() (node, error) {
	cmd := &simpleCmd{}
	for {
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		switch t.kind {
		case tWord:
			p.take()
			if a, ok := asAssignment(t); ok && len(cmd.words) == 0 {
				cmd.assigns = append(cmd.assigns, a)
				continue
			}
			cmd.words = append(cmd.words, t.word)
			continue
		case tRedir:
			r, err := p.redirection()
			if err != nil {
				return nil, err
			}
			cmd.redirs = append(cmd.redirs, r)
			continue
		case tLParen:
			if len(cmd.words) == 1 && len(cmd.assigns) == 0 {
				return nil, syntaxErrorf("functions are not supported")
			}
		}
		break
	}
	if len(cmd.words) == 0 && len(cmd.assigns) == 0 && len(cmd.redirs) == 0 {
		t, _ := p.peek()
		return nil, unexpected(t)
	}
	return cmd, nil
}

// asAssignment recognizes NAME=value: the NAME= must be unquoted literal
// text at the start of the word.
func asAssignment(t token) (assignment, bool) {
	if len(t.word) == 0 || t.word[0].kind != pLit || t.word[0].quoted {
		return assignment{}, false
	}
	first := t.word[0].text
	eq := -1
	for i := 0; i < len(first); i++ {
		if first[i] == '=' {
			eq = i
			break
		}
	}
	if eq <= 0 || !isName(first[:eq]) {
		return assignment{}, false
	}
	value := append(word{{kind: pLit, quoted: true, text: first[eq+1:]}}, t.word[1:]...)
	return assignment{name: first[:eq], value: value}, true
}
