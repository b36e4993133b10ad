package schema

import "strconv"

// path is a field path as upstream's field.Path prints it: names joined
// with dots, keys and indexes in brackets ("spec.ports[0]",
// "properties[spec].type"). The zero path is the root, which prints as
// "<nil>" (upstream's nil *field.Path) when an error is reported at it.
//
// Upstream: k8s.io/apimachinery/pkg/util/validation/field (Path).
type path struct{ s string }

func newPath(s string) path { return path{s} }

// child appends names, each after a dot (none before the first element).
func (p path) child(names ...string) path {
	for _, n := range names {
		if p.s == "" {
			p.s = n
		} else {
			p.s += "." + n
		}
	}
	return p
}

func (p path) key(k string) path { return path{p.s + "[" + k + "]"} }

func (p path) index(i int) path { return p.key(strconv.Itoa(i)) }

// String is the path as an error reports it.
func (p path) String() string {
	if p.s == "" {
		return "<nil>"
	}
	return p.s
}
