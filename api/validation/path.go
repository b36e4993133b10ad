package validation

import "strconv"

// path is a field path under construction: "spec", then
// "spec.containers[0]", then "spec.containers[0].image".
//
// Upstream: k8s.io/apimachinery/pkg/util/validation/field (Path).
type path string

func (p path) child(names ...string) path {
	for _, n := range names {
		if p == "" {
			p = path(n)
		} else {
			p = p + "." + path(n)
		}
	}
	return p
}

func (p path) index(i int) path { return p + "[" + path(strconv.Itoa(i)) + "]" }

func (p path) key(k string) path { return p + "[" + path(k) + "]" }

func (p path) String() string { return string(p) }
