package noderesources

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestBalancedResourceScore(t *testing.T) {
	tests := []struct {
		name                   string
		requested, allocatable []int64
		want                   int64
	}{
		{name: "two resources", requested: []int64{1, 3}, allocatable: []int64{2, 4}, want: 87}, // |0.5-0.75|/2 = 0.125
		// mean 0.5, variance (0.09+0+0.09)/3 = 0.06, std 0.2449.
		{name: "three resources", requested: []int64{2, 5, 8}, allocatable: []int64{10, 10, 10}, want: 75},
		{name: "one resource has no deviation", requested: []int64{9}, allocatable: []int64{10}, want: 100},
		{name: "resources the node lacks are left out", requested: []int64{1, 5}, allocatable: []int64{0, 10}, want: 100},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, balancedResourceScore(tc.requested, tc.allocatable), tc.name)
	}
}

func TestLeastAllocatedScoreWeights(t *testing.T) {
	resources := []resourceSpec{{name: "cpu", weight: 3}, {name: "memory", weight: 1}}
	// cpu 50 * 3 + memory 90 * 1 = 240, / 4 = 60.
	assert.Equal(t, int64(60), leastAllocatedScore([]int64{50, 10}, []int64{100, 100}, resources))
	assert.Equal(t, int64(0), leastAllocatedScore([]int64{1, 1}, []int64{0, 0}, resources), "nothing allocatable")
}
