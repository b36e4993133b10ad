package labels

import (
	"reflect"
	"testing"
)

// FuzzParse feeds arbitrary strings to Parse. A selector that parses must
// print, through String, a selector that parses to the same requirements
// and prints the same again: clients send String() on the wire, so a
// selector that does not survive the trip would select other objects on
// the server than in the informer.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"",
		"app=web",
		"app==web,tier!=db",
		"env in (prod, staging),!canary",
		"env notin (dev),release",
		"example.com/owner=team-a,version>3,rank<10",
		"in in (in),notin notin (notin)",
		"a=,b in (),c notin ( )",
		" x = y , ! z ",
		"a=b=c",
		"(a)",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Selectors arrive in a query string; a few KB is far past any
		// real one and keeps each run fast.
		if len(s) > 4096 {
			t.Skip()
		}
		sel, err := Parse(s)
		if err != nil {
			return
		}
		printed := sel.String()
		again, err := Parse(printed)
		if err != nil {
			t.Fatalf("Parse(%q) printed %q, which does not parse: %v", s, printed, err)
		}
		if !reflect.DeepEqual(sel, again) {
			t.Fatalf("Parse(%q) = %#v, but its String %q parses to %#v", s, sel, printed, again)
		}
		if again.String() != printed {
			t.Fatalf("Parse(%q): String is not stable: %q, then %q", s, printed, again.String())
		}
	})
}
