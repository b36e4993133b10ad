package fields

import (
	"reflect"
	"testing"
)

// FuzzParseSelector feeds arbitrary strings to ParseSelector. A selector
// that parses must print, through String, a selector that parses to the
// same requirements, and EscapeValue must undo with UnescapeValue, since
// clients build the ?fieldSelector= parameter from them.
func FuzzParseSelector(f *testing.F) {
	for _, s := range []string{
		"",
		"metadata.name=web",
		"metadata.namespace==default,status.phase!=Running",
		"spec.nodeName=",
		`metadata.name=a\,b\=c\\d`,
		"a=b,,c=d",
		"a!==b",
		`a\,b=c`,
		"noop",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		// Selectors arrive in a query string; a few KB is far past any
		// real one and keeps each run fast.
		if len(s) > 4096 {
			t.Skip()
		}
		if got, err := UnescapeValue(EscapeValue(s)); err != nil || got != s {
			t.Fatalf("UnescapeValue(EscapeValue(%q)) = %q, %v", s, got, err)
		}
		sel, err := ParseSelector(s)
		if err != nil {
			return
		}
		printed := sel.String()
		again, err := ParseSelector(printed)
		if err != nil {
			t.Fatalf("ParseSelector(%q) printed %q, which does not parse: %v", s, printed, err)
		}
		if !reflect.DeepEqual(sel.(andTerm).Requirements(), again.(andTerm).Requirements()) {
			t.Fatalf("ParseSelector(%q) = %#v, but its String %q parses to %#v", s, sel, printed, again)
		}
		if again.String() != printed {
			t.Fatalf("ParseSelector(%q): String is not stable: %q, then %q", s, printed, again.String())
		}
	})
}
