package shell

func (p *parser) ifClause() (node, error) {
	p.take() // if
	n := &ifNode{}
	for {
		cond, err := p.compoundList()
		if err != nil {
			return nil, err
		}
		if err := p.expect("then"); err != nil {
			return nil, err
		}
		body, err := p.compoundList()
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
			els, err := p.compoundList()
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
	if n.cond, err = p.compoundList(); err != nil {
		return nil, err
	}
	n.body, err = p.doGroup()
	return n, err
}

// doGroup parses the do list done of a loop.
func (p *parser) doGroup() (listNode, error) {
	if err := p.expect("do"); err != nil {
		return nil, err
	}
	body, err := p.compoundList()
	if err != nil {
		return nil, err
	}
	return body, p.expect("done")
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
	n.body, err = p.doGroup()
	return n, err
}

func (p *parser) braceGroup() (node, error) {
	p.take() // {
	body, err := p.compoundList()
	if err != nil {
		return nil, err
	}
	return body, p.expect("}")
}

// caseClause parses case WORD in [(]pattern[|pattern...]) list ;; ... esac.
// The last item's ;; is optional.
func (p *parser) caseClause() (node, error) {
	p.take() // case
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	if t.kind != tWord {
		return nil, unexpected(t)
	}
	n := &caseNode{word: p.take().word}
	if err := p.skipNewlines(); err != nil {
		return nil, err
	}
	if err := p.expect("in"); err != nil {
		return nil, err
	}
	for {
		if err := p.skipNewlines(); err != nil {
			return nil, err
		}
		if t, err = p.peek(); err != nil {
			return nil, err
		}
		if reserved(t, "esac") {
			p.take()
			return n, nil
		}
		if t.kind == tLParen {
			p.take()
		}
		var item caseItem
		for {
			if t, err = p.peek(); err != nil {
				return nil, err
			}
			if t.kind != tWord {
				return nil, unexpected(t)
			}
			item.patterns = append(item.patterns, p.take().word)
			if t, err = p.peek(); err != nil {
				return nil, err
			}
			if t.kind == tRParen {
				p.take()
				break
			}
			if t.kind != tPipe {
				return nil, unexpected(t)
			}
			p.take()
		}
		if item.body, err = p.list(); err != nil {
			return nil, err
		}
		n.items = append(n.items, item)
		if t, err = p.peek(); err != nil {
			return nil, err
		}
		switch {
		case t.kind == tDSemi:
			p.take()
		case reserved(t, "esac"):
		default:
			return nil, unexpected(t)
		}
	}
}

// compoundList is the list of an if, a loop or a brace group, which
// cannot be empty: `if true; then fi` is a syntax error, as in sh.
func (p *parser) compoundList() (listNode, error) {
	list, err := p.list()
	if err != nil || len(list) > 0 {
		return list, err
	}
	t, err := p.peek()
	if err != nil {
		return nil, err
	}
	return nil, unexpected(t)
}
