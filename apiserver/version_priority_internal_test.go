package apiserver

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestCompareKubeAwareVersions(t *testing.T) {
	// The order upstream documents for CompareKubeAwareVersionStrings.
	want := []string{"v10", "v2", "v1", "v11beta2", "v10beta3", "v3beta1", "v12alpha1", "v11alpha2", "foo1", "foo10"}
	got := slices.Clone(want)
	slices.Reverse(got)
	slices.SortFunc(got, compareKubeAwareVersions)
	assert.Equal(t, want, got)
}
