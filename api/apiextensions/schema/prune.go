package schema

import (
	"slices"
	"strconv"
	"strings"
)

// metaFields are kept in embedded resources (and the root) whatever the
// schema says; the metadata is normalized by Coerce instead.
var metaFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true}

// Prune drops, in place, the object fields of x that s does not specify,
// except below x-kubernetes-preserve-unknown-fields and except apiVersion,
// kind and metadata of embedded resources. isResourceRoot makes x itself
// such a resource, as a whole custom resource is.
//
// It returns the paths of the dropped fields, sorted, in the form of
// kube-apiserver's 'unknown field "spec.foo"' warnings: dot-separated
// keys without a leading dot, indexes in brackets ("spec.ports[0].x"),
// keys containing dots as they are ("spec.labels.a.b").
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning
// (PruneWithOptions, with TrackUnknownFieldPaths).
func Prune(x any, s *Structural, isResourceRoot bool) []string {
	if isResourceRoot {
		s = withEmbedded(s)
	}
	p := pruner{}
	p.prune(x, s)
	slices.Sort(p.unknown)
	return p.unknown
}

// pruner walks a value; parent is the path of the value being walked.
type pruner struct {
	parent  []string
	unknown []string
}

func (p *pruner) appendKey(k string) {
	if len(p.parent) > 0 {
		p.parent = append(p.parent, ".")
	}
	p.parent = append(p.parent, k)
}

func (p *pruner) appendIndex(i int) { p.parent = append(p.parent, "[", strconv.Itoa(i), "]") }

func (p *pruner) recordUnknown(k string) {
	l := len(p.parent)
	p.appendKey(k)
	p.unknown = append(p.unknown, strings.Join(p.parent, ""))
	p.parent = p.parent[:l]
}

func (p *pruner) prune(x any, s *Structural) {
	if s != nil && s.XPreserveUnknownFields {
		p.skipPrune(x, s)
		return
	}
	l := len(p.parent)
	defer func() { p.parent = p.parent[:l] }()
	switch x := x.(type) {
	case map[string]any:
		if s == nil {
			for k := range x {
				p.recordUnknown(k)
				delete(x, k)
			}
			return
		}
		for k, v := range x {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.appendKey(k)
				p.prune(v, &prop)
				p.parent = p.parent[:l]
			} else if s.AdditionalProperties != nil {
				p.appendKey(k)
				p.prune(v, s.AdditionalProperties.Structural)
				p.parent = p.parent[:l]
			} else {
				if !metaFields[k] || len(p.parent) > 0 {
					p.recordUnknown(k)
				}
				delete(x, k)
			}
		}
	case []any:
		var items *Structural
		if s != nil {
			items = s.Items
		}
		for i, v := range x {
			p.appendIndex(i)
			p.prune(v, items)
			p.parent = p.parent[:l]
		}
	}
}

// skipPrune walks below x-kubernetes-preserve-unknown-fields: unknown
// fields stay, known ones are pruned by their own schema.
func (p *pruner) skipPrune(x any, s *Structural) {
	if s == nil {
		return
	}
	l := len(p.parent)
	defer func() { p.parent = p.parent[:l] }()
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			if s.XEmbeddedResource && metaFields[k] {
				continue
			}
			if prop, ok := s.Properties[k]; ok {
				p.appendKey(k)
				p.prune(v, &prop)
				p.parent = p.parent[:l]
			} else if s.AdditionalProperties != nil {
				p.appendKey(k)
				p.prune(v, s.AdditionalProperties.Structural)
				p.parent = p.parent[:l]
			}
		}
	case []any:
		for i, v := range x {
			p.appendIndex(i)
			p.skipPrune(v, s.Items)
			p.parent = p.parent[:l]
		}
	}
}
