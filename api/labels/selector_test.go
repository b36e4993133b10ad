package labels

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestEverythingAndNothing(t *testing.T) {
	e := Everything()
	assert.True(t, e.Empty(), "Everything is empty")
	assert.True(t, e.Matches(Set{}), "Everything matches an empty set")
	assert.True(t, e.Matches(Set{"a": "b"}), "Everything matches any set")
	assert.Equal(t, "", e.String())

	n := Nothing()
	assert.False(t, n.Empty(), "Nothing is not empty")
	assert.False(t, n.Matches(Set{}), "Nothing matches no set")
	assert.False(t, n.Matches(Set{"a": "b"}), "Nothing matches no set")
	_, found := n.RequiresExactMatch("a")
	assert.False(t, found)
}

func TestSelectorFromSet(t *testing.T) {
	tests := []struct {
		name string
		set  Set
		want string
	}{
		{name: "nil", set: nil, want: ""},
		{name: "empty", set: Set{}, want: ""},
		{name: "sorted", set: Set{"z": "1", "a": "2"}, want: "a=2,z=1"},
	}
	for _, tc := range tests {
		sel := SelectorFromSet(tc.set)
		assert.Equal(t, tc.want, sel.String(), "SelectorFromSet(%v)", tc.set)
		assert.True(t, sel.Matches(tc.set), "SelectorFromSet(%v) matches its own set", tc.set)
	}
	sel := SelectorFromSet(Set{"app": "web"})
	assert.False(t, sel.Matches(Set{"app": "db"}))
	assert.True(t, sel.Matches(Set{"app": "web", "x": "y"}))
	v, found := sel.RequiresExactMatch("app")
	assert.True(t, found)
	assert.Equal(t, "web", v)
	assert.Equal(t, "a=b,c=d", Set{"c": "d", "a": "b"}.String())
}

func TestNewRequirement(t *testing.T) {
	tests := []struct {
		name    string
		key     string
		op      Operator
		vals    []string
		want    string
		wantErr string
	}{
		{name: "in", key: "a", op: In, vals: []string{"y", "x"}, want: "a in (x,y)"},
		{name: "exists", key: "a", op: Exists, want: "a"},
		{name: "in without values", key: "a", op: In, wantErr: "values: Invalid value: []string(nil): for 'in', 'notin' operators, values set can't be empty"},
		{name: "equals with two", key: "a", op: Equals, vals: []string{"x", "y"}, wantErr: "exact-match compatibility requires one single value"},
		{name: "exists with values", key: "a", op: Exists, vals: []string{"x"}, wantErr: "values set must be empty for exists and does not exist"},
		{name: "gt with two", key: "a", op: GreaterThan, vals: []string{"1", "2"}, wantErr: "for 'Gt', 'Lt' operators, exactly one value is required"},
		{name: "bad operator", key: "a", op: "~", vals: []string{"x"}, wantErr: `operator: Unsupported value: "~"`},
		{name: "bad key", key: "", op: Exists, wantErr: "key: Invalid value: \"\": name part must be non-empty"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r, err := NewRequirement(tc.key, tc.op, tc.vals)
			if tc.wantErr != "" {
				require.Error(t, err, "NewRequirement(%q, %q, %v)", tc.key, tc.op, tc.vals)
				assert.Contains(t, err.Error(), tc.wantErr, "NewRequirement(%q, %q, %v)", tc.key, tc.op, tc.vals)
				return
			}
			require.NoError(t, err, "NewRequirement(%q, %q, %v)", tc.key, tc.op, tc.vals)
			assert.Equal(t, tc.want, r.String())
			assert.Equal(t, tc.key, r.Key())
			assert.Equal(t, tc.op, r.Operator())
		})
	}
	vals := []string{"b", "a"}
	r, err := NewRequirement("k", In, vals)
	require.NoError(t, err)
	vals[0] = "changed"
	assert.Equal(t, []string{"a", "b"}, r.Values(), "the requirement keeps its own copy")

	r2, err := NewRequirement("j", Exists, nil)
	require.NoError(t, err)
	sel := NewSelector(*r, *r2)
	assert.Equal(t, "j,k in (a,b)", sel.String())
}

func TestFromLabelSelector(t *testing.T) {
	tests := []struct {
		name    string
		in      *metav1.LabelSelector
		want    string
		match   Set
		noMatch Set
		wantErr string
	}{
		{name: "nil selects nothing", in: nil, want: "", noMatch: Set{}},
		{name: "empty selects everything", in: &metav1.LabelSelector{}, want: "", match: Set{"a": "b"}},
		{
			name:    "matchLabels",
			in:      &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web", "tier": "fe"}},
			want:    "app=web,tier=fe",
			match:   Set{"app": "web", "tier": "fe", "x": "y"},
			noMatch: Set{"app": "web"},
		},
		{
			name: "matchExpressions",
			in: &metav1.LabelSelector{
				MatchLabels: map[string]string{"app": "web"},
				MatchExpressions: []metav1.LabelSelectorRequirement{
					{Key: "tier", Operator: "In", Values: []string{"fe", "be"}},
					{Key: "env", Operator: "NotIn", Values: []string{"prod"}},
					{Key: "team", Operator: "Exists"},
					{Key: "canary", Operator: "DoesNotExist"},
				},
			},
			want:    "app=web,!canary,env notin (prod),team,tier in (be,fe)",
			match:   Set{"app": "web", "tier": "be", "team": "x"},
			noMatch: Set{"app": "web", "tier": "be", "team": "x", "canary": "1"},
		},
		{
			name:    "bad operator",
			in:      &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Gt", Values: []string{"1"}}}},
			wantErr: `"Gt" is not a valid label selector operator`,
		},
		{
			name:    "In without values",
			in:      &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "In"}}},
			wantErr: "values set can't be empty",
		},
		{
			name:    "bad matchLabels value",
			in:      &metav1.LabelSelector{MatchLabels: map[string]string{"a": "-x"}},
			wantErr: `values[0][a]: Invalid value: "-x"`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			sel, err := FromLabelSelector(tc.in)
			if tc.wantErr != "" {
				require.Error(t, err, "FromLabelSelector(%+v)", tc.in)
				assert.Contains(t, err.Error(), tc.wantErr, "FromLabelSelector(%+v)", tc.in)
				return
			}
			require.NoError(t, err, "FromLabelSelector(%+v)", tc.in)
			assert.Equal(t, tc.want, sel.String(), "FromLabelSelector(%+v).String()", tc.in)
			if tc.match != nil {
				assert.True(t, sel.Matches(tc.match), "FromLabelSelector(%+v).Matches(%v)", tc.in, tc.match)
			}
			if tc.noMatch != nil {
				assert.False(t, sel.Matches(tc.noMatch), "FromLabelSelector(%+v).Matches(%v)", tc.in, tc.noMatch)
			}
		})
	}
}
