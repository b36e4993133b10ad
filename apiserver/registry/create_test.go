package registry_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/apiserver/registry"
)

// nameAlphabet is Kubernetes' generated-name alphabet: no vowels and no
// look-alikes (0, 1, 3), so names never spell words.
const nameAlphabet = "bcdfghjklmnpqrstvwxz2456789"

func TestGenerateName(t *testing.T) {
	tests := []struct {
		name     string
		base     string
		wantBase string
	}{
		{name: "empty", base: "", wantBase: ""},
		{name: "short", base: "web-", wantBase: "web-"},
		{name: "58 characters are kept", base: strings.Repeat("a", 58), wantBase: strings.Repeat("a", 58)},
		{name: "59 characters are cut to 58", base: strings.Repeat("b", 59), wantBase: strings.Repeat("b", 58)},
		{name: "long", base: strings.Repeat("c", 300), wantBase: strings.Repeat("c", 58)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := registry.GenerateName(tc.base)
			assert.Len(t, got, len(tc.wantBase)+5, "GenerateName(%q) = %q", tc.base, got)
			assert.LessOrEqual(t, len(got), 63, "GenerateName(%q) = %q", tc.base, got)
			assert.True(t, strings.HasPrefix(got, tc.wantBase), "GenerateName(%q) = %q", tc.base, got)
			suffix := got[len(tc.wantBase):]
			for _, c := range suffix {
				assert.Contains(t, nameAlphabet, string(c), "GenerateName(%q) suffix %q", tc.base, suffix)
			}
		})
	}
}

// Over many names, every character of the alphabet shows up and names
// differ: the suffix is random, not fixed.
func TestGenerateNameIsRandom(t *testing.T) {
	seen := map[rune]bool{}
	names := map[string]bool{}
	for range 1000 {
		name := registry.GenerateName("p-")
		names[name] = true
		for _, c := range strings.TrimPrefix(name, "p-") {
			seen[c] = true
		}
	}
	assert.Len(t, seen, len(nameAlphabet), "characters used by 1000 names")
	// 27^5 is about 14 million, so 1000 names collide with a chance of
	// about 3%; allowing a few collisions makes this test never flake.
	assert.Greater(t, len(names), 990, "distinct names among 1000")
}
