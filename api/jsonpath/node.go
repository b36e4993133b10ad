package jsonpath

import (
	"fmt"
	"slices"
)

// node is one step of an action: it maps the values the previous step
// selected to the next ones.
type node interface {
	eval(e evaluator, in []any) ([]any, error)
}

// list is a sequence of steps, applied in order. An empty list selects its
// input: {@} is the current value.
type list []node

func (l list) eval(e evaluator, in []any) ([]any, error) {
	var err error
	for _, n := range l {
		if in, err = n.eval(e, in); err != nil {
			return nil, err
		}
	}
	return in, nil
}

// fieldNode selects a key of each object; other values have no fields.
type fieldNode string

func (f fieldNode) eval(e evaluator, in []any) ([]any, error) {
	if len(in) == 0 {
		return nil, nil
	}
	var out []any
	for _, v := range in {
		if m, ok := v.(map[string]any); ok {
			if x, ok := m[string(f)]; ok {
				out = append(out, x)
			}
		}
	}
	if len(out) == 0 && !e.allowMissingKeys {
		return nil, fmt.Errorf("%s is not found", string(f))
	}
	return out, nil
}

// wildcardNode selects every value of an object and every element of an
// array.
type wildcardNode struct{}

func (wildcardNode) eval(_ evaluator, in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		out = append(out, children(v)...)
	}
	return out, nil
}

// recursiveNode selects each object and array at any depth, parents before
// children, so that the next step (..name) reaches every level. Scalars
// and empty containers have nothing below them and are left out.
type recursiveNode struct{}

func (recursiveNode) eval(_ evaluator, in []any) ([]any, error) {
	var out []any
	var descend func(v any)
	descend = func(v any) {
		c := children(v)
		if len(c) == 0 {
			return
		}
		out = append(out, v)
		for _, child := range c {
			descend(child)
		}
	}
	for _, v := range in {
		descend(v)
	}
	return out, nil
}

// children returns an array's elements or an object's values in key
// order.
func children(v any) []any {
	switch v := v.(type) {
	case []any:
		return v
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		out := make([]any, len(keys))
		for i, k := range keys {
			out[i] = v[k]
		}
		return out
	}
	return nil
}

// arrayNode selects [start:end:step] of each array. single is [i], whose
// end is start+1 once a negative start is resolved.
type arrayNode struct {
	start, end, step          int
	hasStart, hasEnd, hasStep bool
	single                    bool
}

func (a arrayNode) eval(_ evaluator, in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		if v == nil {
			continue
		}
		arr, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%T is not array or slice", v)
		}
		n := len(arr)
		start := a.start
		if start < 0 {
			start += n
		}
		end := n
		switch {
		case a.single:
			end = start + 1
		case a.hasEnd:
			end = a.end
			if end < 0 {
				end += n
			}
		}
		// Asking for no elements is never out of bounds: [0:0], [5:5].
		if start == end {
			continue
		}
		if start < 0 || start >= n {
			return nil, fmt.Errorf("array index out of bounds: index %d, length %d", start, n)
		}
		if end < 0 || end > n {
			return nil, fmt.Errorf("array index out of bounds: index %d, length %d", end-1, n)
		}
		if start > end {
			return nil, fmt.Errorf("starting index %d is greater than ending index %d", start, end)
		}
		step := 1
		if a.hasStep {
			if a.step <= 0 {
				return nil, fmt.Errorf("step must be > 0")
			}
			step = a.step
		}
		for i := start; i < end; i += step {
			out = append(out, arr[i])
		}
	}
	return out, nil
}

// opExists is the operator of [?(@.x)]: keep the elements that have x.
const opExists = "exists"

// filterNode keeps the elements of each array for which left op right
// holds, both sides evaluated against the element.
type filterNode struct {
	left, right list
	op          string
}

func (f filterNode) eval(e evaluator, in []any) ([]any, error) {
	var out []any
	for _, v := range in {
		arr, ok := v.([]any)
		if !ok {
			return nil, fmt.Errorf("%T is not array or slice and cannot be filtered", v)
		}
		for _, elem := range arr {
			lefts, err := f.left.eval(e, []any{elem})
			if f.op == opExists {
				// A missing key is an error unless allowed; here it only
				// means the element does not have it.
				if len(lefts) > 0 {
					out = append(out, elem)
				}
				continue
			}
			if err != nil {
				return nil, err
			}
			left, ok, err := single(lefts)
			if !ok {
				continue
			}
			if err != nil {
				return nil, err
			}
			rights, err := f.right.eval(e, []any{elem})
			if err != nil {
				return nil, err
			}
			right, ok, err := single(rights)
			if !ok {
				continue
			}
			if err != nil {
				return nil, err
			}
			pass, err := compare(f.op, left, right)
			if err != nil {
				return nil, err
			}
			if pass {
				out = append(out, elem)
			}
		}
	}
	return out, nil
}

// single returns the one value of an operand; ok is false when there is
// none (a missing key that was allowed).
func single(values []any) (v any, ok bool, err error) {
	switch len(values) {
	case 0:
		return nil, false, nil
	case 1:
		return values[0], true, nil
	}
	return nil, true, fmt.Errorf("can only compare one element at a time")
}

// unionNode selects the results of each part in turn: [0,2], ['a','b'].
type unionNode []list

func (u unionNode) eval(e evaluator, in []any) ([]any, error) {
	var out []any
	for _, part := range u {
		r, err := part.eval(e, in)
		if err != nil {
			return nil, err
		}
		out = append(out, r...)
	}
	return out, nil
}

// textNode is a quoted literal: one string whatever its input.
type textNode string

func (t textNode) eval(evaluator, []any) ([]any, error) { return []any{string(t)}, nil }

// intNode, floatNode and boolNode are literals: one value per input, so
// that a filter compares each element with them.
type (
	intNode   int64
	floatNode float64
	boolNode  bool
)

func (n intNode) eval(_ evaluator, in []any) ([]any, error) {
	return repeat(int64(n), len(in)), nil
}

func (n floatNode) eval(_ evaluator, in []any) ([]any, error) {
	return repeat(float64(n), len(in)), nil
}

func (n boolNode) eval(_ evaluator, in []any) ([]any, error) {
	return repeat(bool(n), len(in)), nil
}

func repeat(v any, n int) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = v
	}
	return out
}
