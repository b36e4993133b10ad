package labels

import (
	"fmt"
	"slices"
)

// Parse parses a label selector in the syntax of the ?labelSelector= query
// parameter: comma-separated requirements, each one of
//
//	key=value  key==value  key!=value
//	key in (v1,v2)  key notin (v1,v2)
//	key  !key
//	key>1  key<1
//
// with whitespace allowed between tokens. An empty string gives Everything.
// Keys must be qualified names and values valid label values. Errors
// say what was found and what was expected, with "unable to parse
// requirement: " before errors inside one requirement.
//
// Upstream: k8s.io/apimachinery/pkg/labels (Parse).
func Parse(s string) (Selector, error) {
	p := &parser{}
	l := &lexer{s: s}
	for {
		tok, lit := l.lex()
		p.items = append(p.items, scannedItem{tok: tok, literal: lit})
		if tok == endOfStringToken {
			break
		}
	}
	reqs, err := p.parse()
	if err != nil {
		return nil, err
	}
	return reqs.sorted(), nil
}

type scannedItem struct {
	tok     token
	literal string
}

// parserContext says how to read the keywords "in" and "notin": as
// operators after a key, as plain identifiers where a key or value goes.
type parserContext int

const (
	keyAndOperator parserContext = iota
	values
)

// parser is a recursive-descent parser over the scanned tokens.
//
// Upstream: k8s.io/apimachinery/pkg/labels (Parser).
type parser struct {
	items    []scannedItem
	position int
}

func (p *parser) lookahead(ctx parserContext) (token, string) {
	tok, lit := p.items[p.position].tok, p.items[p.position].literal
	if ctx == values && (tok == inToken || tok == notInToken) {
		tok = identifierToken
	}
	return tok, lit
}

func (p *parser) consume(ctx parserContext) (token, string) {
	tok, lit := p.lookahead(ctx)
	// The last item is always endOfStringToken; stay on it.
	if p.position < len(p.items)-1 {
		p.position++
	}
	return tok, lit
}

func (p *parser) parse() (internalSelector, error) {
	var reqs internalSelector
	for {
		tok, lit := p.lookahead(values)
		switch tok {
		case identifierToken, doesNotExistToken:
			r, err := p.parseRequirement()
			if err != nil {
				return nil, fmt.Errorf("unable to parse requirement: %w", err)
			}
			reqs = append(reqs, *r)
			t, l := p.consume(values)
			switch t {
			case endOfStringToken:
				return reqs, nil
			case commaToken:
				if t2, l2 := p.lookahead(values); t2 != identifierToken && t2 != doesNotExistToken {
					return nil, fmt.Errorf("found '%s', expected: identifier after ','", l2)
				}
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or 'end of string'", l)
			}
		case endOfStringToken:
			return reqs, nil
		default:
			return nil, fmt.Errorf("found '%s', expected: !, identifier, or 'end of string'", lit)
		}
	}
}

func (p *parser) parseRequirement() (*Requirement, error) {
	key, op, err := p.parseKeyAndInferOperator()
	if err != nil {
		return nil, err
	}
	if op == Exists || op == DoesNotExist {
		return NewRequirement(key, op, nil)
	}
	if op, err = p.parseOperator(); err != nil {
		return nil, err
	}
	var vals []string
	switch op {
	case In, NotIn:
		vals, err = p.parseValues()
	default:
		vals, err = p.parseExactValue()
	}
	if err != nil {
		return nil, err
	}
	return NewRequirement(key, op, vals)
}

// parseKeyAndInferOperator reads "key" or "!key". It returns Exists or
// DoesNotExist when nothing but a comma or the end follows ("!key" always
// gives DoesNotExist), and no operator otherwise.
func (p *parser) parseKeyAndInferOperator() (string, Operator, error) {
	var op Operator
	tok, lit := p.consume(values)
	if tok == doesNotExistToken {
		op = DoesNotExist
		tok, lit = p.consume(values)
	}
	if tok != identifierToken {
		return "", "", fmt.Errorf("found '%s', expected: identifier", lit)
	}
	if t, _ := p.lookahead(values); t == endOfStringToken || t == commaToken {
		if op != DoesNotExist {
			op = Exists
		}
	}
	return lit, op, nil
}

func (p *parser) parseOperator() (Operator, error) {
	tok, lit := p.consume(keyAndOperator)
	switch tok {
	case inToken:
		return In, nil
	case equalsToken:
		return Equals, nil
	case doubleEqualsToken:
		return DoubleEquals, nil
	case greaterThanToken:
		return GreaterThan, nil
	case lessThanToken:
		return LessThan, nil
	case notInToken:
		return NotIn, nil
	case notEqualsToken:
		return NotEquals, nil
	}
	return "", fmt.Errorf("found '%s', expected: %s", lit, "in, notin, =, ==, !=, gt, lt")
}

// parseValues reads "(v1,v2)". Empty entries are the empty value, so
// "()" and "(a,)" select the label's empty value too. The result is
// sorted and free of duplicates.
func (p *parser) parseValues() ([]string, error) {
	if tok, lit := p.consume(values); tok != openParToken {
		return nil, fmt.Errorf("found '%s' expected: '('", lit)
	}
	tok, lit := p.lookahead(values)
	switch tok {
	case identifierToken, commaToken:
		vals, err := p.parseIdentifiersList()
		if err != nil {
			return nil, err
		}
		if tok, _ := p.consume(values); tok != closedParToken {
			return nil, fmt.Errorf("found '%s', expected: ')'", lit)
		}
		slices.Sort(vals)
		return slices.Compact(vals), nil
	case closedParToken:
		p.consume(values)
		return []string{""}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: ',', ')' or identifier", lit)
}

func (p *parser) parseIdentifiersList() ([]string, error) {
	var vals []string
	for {
		tok, lit := p.consume(values)
		switch tok {
		case identifierToken:
			vals = append(vals, lit)
			switch tok2, lit2 := p.lookahead(values); tok2 {
			case commaToken:
				continue
			case closedParToken:
				return vals, nil
			default:
				return nil, fmt.Errorf("found '%s', expected: ',' or ')'", lit2)
			}
		case commaToken:
			// A comma first, last or doubled stands for an empty value.
			if len(vals) == 0 {
				vals = append(vals, "")
			}
			switch tok2, _ := p.lookahead(values); tok2 {
			case closedParToken:
				return append(vals, ""), nil
			case commaToken:
				p.consume(values)
				vals = append(vals, "")
			}
		default:
			return nil, fmt.Errorf("found '%s', expected: ',', or identifier", lit)
		}
	}
}

// parseExactValue reads the one value after =, ==, !=, > or <; nothing
// before a comma or the end is the empty value.
func (p *parser) parseExactValue() ([]string, error) {
	if tok, _ := p.lookahead(values); tok == endOfStringToken || tok == commaToken {
		return []string{""}, nil
	}
	tok, lit := p.consume(values)
	if tok == identifierToken {
		return []string{lit}, nil
	}
	return nil, fmt.Errorf("found '%s', expected: identifier", lit)
}
