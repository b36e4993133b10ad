package framework_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/scheduler/framework"
)

func TestDefaultNormalizeScore(t *testing.T) {
	tests := []struct {
		name    string
		reverse bool
		scores  []int64
		want    []int64
	}{
		{name: "scale to max", scores: []int64{1, 2, 3, 4, 5}, want: []int64{20, 40, 60, 80, 100}},
		{name: "reverse", reverse: true, scores: []int64{1, 2, 3, 4, 5}, want: []int64{80, 60, 40, 20, 0}},
		{name: "integer division rounds down", scores: []int64{1, 3}, want: []int64{33, 100}},
		{name: "all zero", scores: []int64{0, 0}, want: []int64{0, 0}},
		{name: "all zero reversed", reverse: true, scores: []int64{0, 0}, want: []int64{100, 100}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			list := make(framework.NodeScoreList, len(tc.scores))
			for i, s := range tc.scores {
				list[i].Score = s
			}
			assert.Nil(t, framework.DefaultNormalizeScore(framework.MaxNodeScore, tc.reverse, list))
			got := make([]int64, len(list))
			for i := range list {
				got[i] = list[i].Score
			}
			assert.Equal(t, tc.want, got, "DefaultNormalizeScore(%v, reverse=%v)", tc.scores, tc.reverse)
		})
	}
}
