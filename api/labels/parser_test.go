package labels

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParse(t *testing.T) {
	tests := []struct {
		in   string
		want string // canonical String
	}{
		{in: "", want: ""},
		{in: "   ", want: ""},
		{in: "a=b", want: "a=b"},
		{in: "a==b", want: "a==b"},
		{in: "a!=b", want: "a!=b"},
		{in: "a", want: "a"},
		{in: "!a", want: "!a"},
		{in: "a in (x,y)", want: "a in (x,y)"},
		{in: "a in (y,x,y)", want: "a in (x,y)"},
		{in: "a notin (x)", want: "a notin (x)"},
		{in: "a>1", want: "a>1"},
		{in: "a<1", want: "a<1"},
		{in: "a=", want: "a="},
		{in: "a=,b=c", want: "a=,b=c"},
		{in: "a in ()", want: "a in ()"},
		{in: "a in (,x)", want: "a in (,x)"},
		{in: "a in (x,)", want: "a in (,x)"},
		{in: "z=1,a=2,m", want: "a=2,m,z=1"},
		{in: " app = web , tier in ( fe , be ) , ! canary ", want: "app=web,!canary,tier in (be,fe)"},
		{in: "x=a,x!=b", want: "x=a,x!=b"},
		{in: "example.com/tier=front.end_1", want: "example.com/tier=front.end_1"},
		{in: "in=notin", want: "in=notin"},
		{in: "in in (in,notin)", want: "in in (in,notin)"},
		{in: "environment in (production, qa),tier notin (frontend, backend),partition", want: "environment in (production,qa),partition,tier notin (backend,frontend)"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			sel, err := Parse(tc.in)
			require.NoError(t, err, "Parse(%q)", tc.in)
			assert.Equal(t, tc.want, sel.String(), "Parse(%q).String()", tc.in)
			assert.Equal(t, tc.want == "", sel.Empty(), "Parse(%q).Empty()", tc.in)
			again, err := Parse(sel.String())
			require.NoError(t, err, "Parse(%q) of the canonical form of %q", sel.String(), tc.in)
			assert.Equal(t, sel.String(), again.String(), "canonical form of %q is stable", tc.in)
		})
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{in: "a=b,", want: "found '', expected: identifier after ','"},
		{in: ",a", want: "found ',', expected: !, identifier, or 'end of string'"},
		{in: "a b", want: "unable to parse requirement: found 'b', expected: in, notin, =, ==, !=, gt, lt"},
		{in: "a=b c", want: "found 'c', expected: ',' or 'end of string'"},
		{in: "a in x", want: "unable to parse requirement: found 'x' expected: '('"},
		{in: "a in (x", want: "unable to parse requirement: found '', expected: ',' or ')'"},
		{in: "a in (x y)", want: "unable to parse requirement: found 'y', expected: ',' or ')'"},
		{in: "a in (=)", want: "unable to parse requirement: found '=', expected: ',', ')' or identifier"},
		{in: "a=(b)", want: "unable to parse requirement: found '(', expected: identifier"},
		{in: "!", want: "unable to parse requirement: found '', expected: identifier"},
		{in: "!a=b", want: "found '=', expected: ',' or 'end of string'"},
		{in: "a>b", want: "values[0]: Invalid value: \"b\": for 'Gt', 'Lt' operators, the value must be an integer"},
		{in: "-a=b", want: "key: Invalid value: \"-a\": name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"},
		{in: "a/b/c", want: "key: Invalid value: \"a/b/c\": a qualified name must consist of"},
		{in: "a=b_", want: "values[0][a]: Invalid value: \"b_\": a valid label must be an empty string or consist of alphanumeric characters"},
		{in: "Example.com/a=b", want: "key: Invalid value: \"Example.com/a\": prefix part a lowercase RFC 1123 subdomain"},
		{in: "a<-1", want: "values[0][a]: Invalid value: \"-1\""},
		{in: "a=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", want: "must be no more than 63 characters"},
		{in: "a=>b", want: "found '>', expected: identifier"},
		{in: "a=!b", want: "found '!', expected: identifier"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			_, err := Parse(tc.in)
			require.Error(t, err, "Parse(%q)", tc.in)
			assert.Contains(t, err.Error(), tc.want, "Parse(%q)", tc.in)
		})
	}
}

func TestMatches(t *testing.T) {
	set := Set{"app": "web", "tier": "fe", "version": "3", "empty": ""}
	tests := []struct {
		sel  string
		want bool
	}{
		{"", true},
		{"app=web", true},
		{"app==web", true},
		{"app=db", false},
		{"app!=db", true},
		{"app!=web", false},
		{"missing!=x", true},
		{"missing=x", false},
		{"app in (web,db)", true},
		{"app in (db)", false},
		{"missing in (x)", false},
		{"app notin (db)", true},
		{"app notin (web)", false},
		{"missing notin (x)", true},
		{"app", true},
		{"missing", false},
		{"!app", false},
		{"!missing", true},
		{"version>2", true},
		{"version>3", false},
		{"version<4", true},
		{"app>1", false},
		{"missing<1", false},
		{"empty=", true},
		{"empty in ()", true},
		{"app=web,tier=fe", true},
		{"app=web,tier=be", false},
	}
	for _, tc := range tests {
		sel, err := Parse(tc.sel)
		require.NoError(t, err, "Parse(%q)", tc.sel)
		assert.Equal(t, tc.want, sel.Matches(set), "Parse(%q).Matches(%v)", tc.sel, set)
	}
}

func TestRequiresExactMatch(t *testing.T) {
	tests := []struct {
		sel, label string
		want       string
		wantFound  bool
	}{
		{"a=b", "a", "b", true},
		{"a==b", "a", "b", true},
		{"a in (b)", "a", "b", true},
		{"a in (b,c)", "a", "", false},
		{"a!=b", "a", "", false},
		{"a", "a", "", false},
		{"x=y,a=b", "a", "b", true},
		{"a=b", "c", "", false},
	}
	for _, tc := range tests {
		sel, err := Parse(tc.sel)
		require.NoError(t, err, "Parse(%q)", tc.sel)
		got, found := sel.RequiresExactMatch(tc.label)
		assert.Equal(t, tc.wantFound, found, "Parse(%q).RequiresExactMatch(%q)", tc.sel, tc.label)
		assert.Equal(t, tc.want, got, "Parse(%q).RequiresExactMatch(%q)", tc.sel, tc.label)
	}
}
