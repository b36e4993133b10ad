package fields

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSelector(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{in: "", want: ""},
		{in: "a=b", want: "a=b"},
		{in: "a==b", want: "a=b"},
		{in: "a!=b", want: "a!=b"},
		{in: "spec.nodeName=", want: "spec.nodeName="},
		{in: "spec.nodeName!=", want: "spec.nodeName!="},
		{in: "status.phase=Running,metadata.name=x", want: "metadata.name=x,status.phase=Running"},
		{in: "a=b,,c=d", want: "a=b,c=d"},
		{in: `a=x\,y`, want: `a=x\,y`},
		{in: `a=x\=y\\z`, want: `a=x\=y\\z`},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			sel, err := ParseSelector(tc.in)
			require.NoError(t, err, "ParseSelector(%q)", tc.in)
			assert.Equal(t, tc.want, sel.String(), "ParseSelector(%q).String()", tc.in)
			assert.Equal(t, tc.want == "", sel.Empty(), "ParseSelector(%q).Empty()", tc.in)
			again, err := ParseSelector(sel.String())
			require.NoError(t, err, "ParseSelector(%q) of the canonical form of %q", sel.String(), tc.in)
			assert.Equal(t, sel.String(), again.String(), "canonical form of %q is stable", tc.in)
		})
	}
}

func TestParseSelectorErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{in: "a", want: "invalid selector: 'a'; can't understand 'a'"},
		{in: "a=b,c", want: "invalid selector: 'a=b,c'; can't understand 'c'"},
		{in: "a=b=c", want: "invalid field selector: unescaped character in value: '='"},
		{in: `a=b\`, want: `invalid field selector: invalid escape sequence: \`},
		{in: `a=b\x`, want: `invalid field selector: invalid escape sequence: \x`},
		{in: "a>1", want: "can't understand 'a>1'"},
	}
	for _, tc := range tests {
		_, err := ParseSelector(tc.in)
		require.Error(t, err, "ParseSelector(%q)", tc.in)
		assert.Contains(t, err.Error(), tc.want, "ParseSelector(%q)", tc.in)
	}
}

func TestMatches(t *testing.T) {
	set := Set{"metadata.name": "web-1", "spec.nodeName": "", "status.phase": "Running", "odd": "x,y=z"}
	tests := []struct {
		sel  string
		want bool
	}{
		{"", true},
		{"metadata.name=web-1", true},
		{"metadata.name==web-1", true},
		{"metadata.name=web-2", false},
		{"metadata.name!=web-2", true},
		{"spec.nodeName=", true},
		{"spec.nodeName!=", false},
		{"missing=", true},
		{"missing!=x", true},
		{"status.phase!=Succeeded,status.phase!=Failed", true},
		{"status.phase=Running,metadata.name=other", false},
		{`odd=x\,y\=z`, true},
	}
	for _, tc := range tests {
		sel, err := ParseSelector(tc.sel)
		require.NoError(t, err, "ParseSelector(%q)", tc.sel)
		assert.Equal(t, tc.want, sel.Matches(set), "ParseSelector(%q).Matches", tc.sel)
	}
}

func TestRequiresExactMatch(t *testing.T) {
	tests := []struct {
		sel, field string
		want       string
		wantFound  bool
	}{
		{"spec.nodeName=n1", "spec.nodeName", "n1", true},
		{"spec.nodeName==n1", "spec.nodeName", "n1", true},
		{"spec.nodeName!=n1", "spec.nodeName", "", false},
		{"a=b,spec.nodeName=", "spec.nodeName", "", true},
		{"a=b", "spec.nodeName", "", false},
	}
	for _, tc := range tests {
		sel, err := ParseSelector(tc.sel)
		require.NoError(t, err, "ParseSelector(%q)", tc.sel)
		got, found := sel.RequiresExactMatch(tc.field)
		assert.Equal(t, tc.wantFound, found, "ParseSelector(%q).RequiresExactMatch(%q)", tc.sel, tc.field)
		assert.Equal(t, tc.want, got, "ParseSelector(%q).RequiresExactMatch(%q)", tc.sel, tc.field)
	}
}

func TestConstructors(t *testing.T) {
	e := Everything()
	assert.True(t, e.Empty())
	assert.True(t, e.Matches(Set{"a": "b"}))
	assert.Equal(t, "", e.String())

	one := OneTermEqualSelector("spec.nodeName", "n1")
	assert.Equal(t, "spec.nodeName=n1", one.String())
	assert.True(t, one.Matches(Set{"spec.nodeName": "n1"}))
	assert.False(t, one.Matches(Set{"spec.nodeName": "n2"}))
	assert.Equal(t, []Requirement{{Field: "spec.nodeName", Operator: Equals, Value: "n1"}}, one.Requirements())

	fromSet := SelectorFromSet(Set{"z": "1", "a": "x,y"})
	assert.Equal(t, `a=x\,y,z=1`, fromSet.String())
	assert.True(t, fromSet.Matches(Set{"a": "x,y", "z": "1"}))
	assert.True(t, SelectorFromSet(nil).Empty())
	assert.Equal(t, `a=x\,y,z=1`, Set{"z": "1", "a": "x,y"}.String())
}

func TestEscapeValue(t *testing.T) {
	for _, v := range []string{"", "plain", `a\b`, "a,b", "a=b", `\,=`} {
		got, err := UnescapeValue(EscapeValue(v))
		require.NoError(t, err, "UnescapeValue(EscapeValue(%q))", v)
		assert.Equal(t, v, got, "EscapeValue round trip of %q", v)
	}
}
