package podsecurity

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCheckOrder pins the order of the checks, which is the order of
// the reasons in every message: upstream sorts each level's checks by id.
func TestCheckOrder(t *testing.T) {
	for name, checks := range map[string][]check{"baseline": baselineChecks, "restricted": restrictedChecks} {
		ids := make([]string, len(checks))
		for i, c := range checks {
			ids[i] = c.id
		}
		assert.True(t, slices.IsSorted(ids), "%s checks sorted by id: %v", name, ids)
	}
	var restricted []string
	for _, c := range checksFor(LevelRestricted) {
		restricted = append(restricted, c.id)
	}
	for _, overridden := range []string{"capabilities_baseline", "hostPathVolumes", "procMount", "seccompProfile_baseline"} {
		assert.NotContains(t, restricted, overridden, "restricted replaces %s", overridden)
	}
	assert.Nil(t, checksFor(LevelPrivileged), "privileged checks nothing")
}
