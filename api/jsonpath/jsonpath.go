package jsonpath

import (
	"encoding/json"
	"fmt"
	"io"
	"reflect"
)

// JSONPath is a compiled template. After AllowMissingKeys it is read-only:
// FindResults and Execute are safe for concurrent use.
type JSONPath struct {
	template         string
	segments         []segment
	allowMissingKeys bool
}

// Parse compiles a template: text with {...} actions. A bare expression
// such as a printer column's ".spec.replicas" is text; wrap it in braces
// first. Every syntax error is returned, never a panic.
func Parse(template string) (*JSONPath, error) {
	segments, err := parseTemplate(template)
	if err != nil {
		return nil, fmt.Errorf("parse jsonpath %q: %w", template, err)
	}
	return &JSONPath{template: template, segments: segments}, nil
}

// AllowMissingKeys sets whether a field that is not there yields no result
// (allow) or an error (the default). It returns j for chaining and must be
// called before j is shared.
func (j *JSONPath) AllowMissingKeys(allow bool) *JSONPath {
	j.allowMissingKeys = allow
	return j
}

// String returns the template j was parsed from.
func (j *JSONPath) String() string { return j.template }

// FindResults evaluates j against data. It returns one result list per
// piece of the template, in order: a text piece gives its text, an action
// the values it selects (none when a missing key is allowed), and a range
// the pieces of each iteration. A JSON null is a result: nil. data is only
// read.
func (j *JSONPath) FindResults(data any) ([][]any, error) {
	e := evaluator{allowMissingKeys: j.allowMissingKeys}
	var results [][]any
	if err := e.segments(&results, data, j.segments); err != nil {
		return nil, err
	}
	return results, nil
}

// Execute evaluates j against data and writes each result list with
// PrintResults.
func (j *JSONPath) Execute(w io.Writer, data any) error {
	results, err := j.FindResults(data)
	if err != nil {
		return err
	}
	for _, r := range results {
		if err := PrintResults(w, r); err != nil {
			return err
		}
	}
	return nil
}

// PrintResults writes results separated by spaces: strings as they are,
// objects and arrays as compact JSON, null as <nil>, other values as fmt
// prints them.
func PrintResults(w io.Writer, results []any) error {
	for i, r := range results {
		text, err := printable(r)
		if err != nil {
			return err
		}
		if i < len(results)-1 {
			text = append(text, ' ')
		}
		if _, err := w.Write(text); err != nil {
			return err
		}
	}
	return nil
}

func printable(v any) ([]byte, error) {
	switch v := v.(type) {
	case string:
		return []byte(v), nil
	case nil:
		return []byte("<nil>"), nil
	}
	switch reflect.ValueOf(v).Kind() {
	case reflect.Map, reflect.Slice, reflect.Array, reflect.Struct:
		return json.Marshal(v)
	}
	return fmt.Append(nil, v), nil
}

// segment is one piece of a compiled template: textSegment, actionSegment
// or *rangeSegment.
type segment interface{ isSegment() }

// textSegment is template text outside braces, printed as is.
type textSegment string

// actionSegment is one {...} action: the steps applied to the data.
type actionSegment list

// rangeSegment is {range over}body{end}: body is evaluated once per result
// of over, with that result as its data.
type rangeSegment struct {
	over list
	body []segment
}

func (textSegment) isSegment()   {}
func (actionSegment) isSegment() {}
func (*rangeSegment) isSegment() {}

// evaluator holds the options of one evaluation.
type evaluator struct {
	allowMissingKeys bool
}

func (e evaluator) segments(results *[][]any, data any, segments []segment) error {
	for _, s := range segments {
		switch s := s.(type) {
		case textSegment:
			*results = append(*results, []any{string(s)})
		case actionSegment:
			r, err := list(s).eval(e, []any{data})
			if err != nil {
				return err
			}
			*results = append(*results, r)
		case *rangeSegment:
			items, err := s.over.eval(e, []any{data})
			if err != nil {
				return err
			}
			for _, item := range items {
				if err := e.segments(results, item, s.body); err != nil {
					return err
				}
			}
		}
	}
	return nil
}
