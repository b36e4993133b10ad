package shell

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMatchPattern(t *testing.T) {
	tests := []struct {
		name string
		pat  string
		s    string
		want bool
	}{
		{name: "literal", pat: "abc", s: "abc", want: true},
		{name: "literal mismatch", pat: "abc", s: "abd"},
		{name: "literal must match whole", pat: "ab", s: "abc"},
		{name: "empty matches empty", pat: "", s: "", want: true},
		{name: "empty does not match text", pat: "", s: "a"},
		{name: "star matches anything", pat: "*", s: "any/thing", want: true},
		{name: "star matches empty", pat: "*", s: "", want: true},
		{name: "star prefix", pat: "*.txt", s: "a.b.txt", want: true},
		{name: "star suffix", pat: "a*", s: "a", want: true},
		{name: "star inside", pat: "a*c", s: "abbbc", want: true},
		{name: "star crosses slashes", pat: "/a*", s: "/a/b/c", want: true},
		{name: "stars backtrack", pat: "*a*b", s: "xaxaxb", want: true},
		{name: "several stars", pat: "a**b", s: "ab", want: true},
		{name: "question mark", pat: "a?c", s: "abc", want: true},
		{name: "question mark needs a character", pat: "a?", s: "a"},
		{name: "question mark takes a whole character", pat: "?", s: "é", want: true},
		{name: "class", pat: "[abc]", s: "b", want: true},
		{name: "class mismatch", pat: "[abc]", s: "d"},
		{name: "range", pat: "[0-9][0-9]", s: "42", want: true},
		{name: "range mismatch", pat: "[a-c]", s: "d"},
		{name: "negated class", pat: "[!0-9]", s: "x", want: true},
		{name: "negated class mismatch", pat: "[!0-9]", s: "5"},
		{name: "caret negates too", pat: "[^a]", s: "b", want: true},
		{name: "bracket first in a class", pat: "[]a]", s: "]", want: true},
		{name: "dash last in a class", pat: "[a-]", s: "-", want: true},
		{name: "escaped in a class", pat: `[\]]`, s: "]", want: true},
		{name: "unclosed bracket is literal", pat: "[ab", s: "[ab", want: true},
		{name: "class needs a character", pat: "[a]", s: ""},
		{name: "escaped star is literal", pat: `\*`, s: "*", want: true},
		{name: "escaped star does not glob", pat: `\*`, s: "x"},
		{name: "escaped question mark", pat: `a\?`, s: "ab"},
		{name: "trailing backslash is literal", pat: `a\`, s: `a\`, want: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, matchPattern(tc.pat, tc.s), "matchPattern(%q, %q)", tc.pat, tc.s)
		})
	}
}

func TestQuotePattern(t *testing.T) {
	tests := []struct {
		name string
		s    string
	}{
		{name: "plain", s: "abc"},
		{name: "star", s: "a*b"},
		{name: "everything special", s: `*?[]\`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := quotePattern(tc.s)
			assert.True(t, matchPattern(q, tc.s), "quotePattern(%q) = %q matches itself", tc.s, q)
			assert.False(t, matchPattern(q, tc.s+"x"), "quotePattern(%q) = %q matches only itself", tc.s, q)
		})
	}
}

func TestRemoveAffix(t *testing.T) {
	tests := []struct {
		name string
		v    string
		op   string
		pat  string
		want string
	}{
		{name: "shortest prefix", v: "a/b/c", op: "#", pat: "*/", want: "b/c"},
		{name: "longest prefix", v: "a/b/c", op: "##", pat: "*/", want: "c"},
		{name: "shortest suffix", v: "a.b.c", op: "%", pat: ".*", want: "a.b"},
		{name: "longest suffix", v: "a.b.c", op: "%%", pat: ".*", want: "a"},
		{name: "empty pattern removes nothing", v: "abc", op: "#", pat: "", want: "abc"},
		{name: "star removes everything longest", v: "abc", op: "##", pat: "*", want: ""},
		{name: "star removes nothing shortest", v: "abc", op: "#", pat: "*", want: "abc"},
		{name: "no match", v: "abc", op: "%", pat: "x", want: "abc"},
		{name: "whole value", v: "abc", op: "%", pat: "abc", want: ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, removeAffix(tc.v, tc.op, tc.pat), "removeAffix(%q, %q, %q)", tc.v, tc.op, tc.pat)
		})
	}
}
