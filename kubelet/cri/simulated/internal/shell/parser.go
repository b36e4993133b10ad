package shell

import "fmt"

// The syntax tree. A script is a list of and-or lists; compile turns it
// into a Program.
type (
	node interface{ isNode() }

	assignment struct {
		name  string
		value word
	}
	redirect struct {
		fd     int
		op     string // > >> < >& <&
		target word
	}
	simpleCmd struct {
		assigns []assignment
		words   []word
		redirs  []redirect
	}
	listNode  []node
	andOrNode struct {
		first node
		rest  []andOrPart
	}
	andOrPart struct {
		and bool // && (else ||)
		cmd node
	}
	notNode struct{ cmd node }
	ifNode  struct {
		conds  []listNode
		bodies []listNode
		els    listNode // nil when there is no else
	}
	loopNode struct {
		until      bool
		cond, body listNode
	}
	forNode struct {
		name  string
		words []word // nil: "$@"
		body  listNode
	}
)

func (*simpleCmd) isNode() {}
func (listNode) isNode()   {}
func (*andOrNode) isNode() {}
func (*notNode) isNode()   {}
func (*ifNode) isNode()    {}
func (*loopNode) isNode()  {}
func (*forNode) isNode()   {}

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

func unexpected(t token) error {
	switch t.kind {
	case tEOF:
		return syntaxErrorf("unexpected end of file")
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
var closers = map[string]bool{"then": true, "elif": true, "else": true, "fi": true, "do": true, "done": true, "}": true}

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
		if t.kind == tEOF || t.kind == tRParen || t.kind == tWord && t.isPlain && closers[t.plain] {
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
		switch t.plain {
		case "if":
			return p.ifClause()
		case "while", "until":
			return p.loop()
		case "for":
			return p.forClause()
		case "{":
			p.take()
			body, err := p.list()
			if err != nil {
				return nil, err
			}
			return body, p.expect("}")
		case "case", "function", "select":
			return nil, syntaxErrorf("%q is not supported", t.plain)
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
			p.take()
			target, err := p.peek()
			if err != nil {
				return nil, err
			}
			if target.kind != tWord {
				return nil, unexpected(target)
			}
			p.take()
			cmd.redirs = append(cmd.redirs, redirect{fd: t.fd, op: t.op, target: target.word})
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

func (p *parser) ifClause() (node, error) {
	p.take() // if
	n := &ifNode{}
	for {
		cond, err := p.list()
		if err != nil {
			return nil, err
		}
		if err := p.expect("then"); err != nil {
			return nil, err
		}
		body, err := p.list()
		if err != nil {
			return nil, err
		}
		n.conds, n.bodies = append(n.conds, cond), append(n.bodies, body)
		t, err := p.peek()
		if err != nil {
			return nil, err
		}
		switch {
		case reserved(t, "elif"):
			p.take()
			continue
		case reserved(t, "else"):
			p.take()
			els, err := p.list()
			if err != nil {
				return nil, err
			}
			n.els = append(listNode{}, els...)
		}
		return n, p.expect("fi")
	}
}

func (p *parser) loop() (node, error) {
	n := &loopNode{until: p.take().plain == "until"}
	var err error
	if n.cond, err = p.list(); err != nil {
		return nil, err
	}
	if err := p.expect("do"); err != nil {
		return nil, err
	}
	if n.body, err = p.list(); err != nil {
		return nil, err
	}
	return n, p.expect("done")
}

func (p *parser) forClause() (node, error) {
	p.take() // for
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if !t.isPlain || !isName(t.plain) {
		return nil, syntaxErrorf("bad for loop variable")
	}
	p.take()
	n := &forNode{name: t.plain}
	if err := p.skipNewlines(); err != nil {
		return nil, err
	}
	if t, err = p.peek(); err != nil {
		return nil, err
	}
	if reserved(t, "in") {
		p.take()
		n.words = []word{}
		for {
			if t, err = p.peek(); err != nil {
				return nil, err
			}
			if t.kind != tWord {
				break
			}
			n.words = append(n.words, p.take().word)
		}
		if t.kind != tSemi && t.kind != tNewline {
			return nil, unexpected(t)
		}
		p.take()
	} else if t.kind == tSemi {
		p.take()
	}
	if err := p.skipNewlines(); err != nil {
		return nil, err
	}
	if err := p.expect("do"); err != nil {
		return nil, err
	}
	if n.body, err = p.list(); err != nil {
		return nil, err
	}
	return n, p.expect("done")
}

// String is for debugging test failures.
func (c *simpleCmd) String() string { return fmt.Sprintf("cmd(%d words)", len(c.words)) }
