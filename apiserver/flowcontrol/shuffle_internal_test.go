package flowcontrol

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestDealHand: every hand holds handSize distinct queues of the deck,
// the same flow always gets the same hand, and flows spread over the
// whole deck.
func TestDealHand(t *testing.T) {
	for _, shape := range []struct{ deck, hand int }{{128, 6}, {64, 6}, {16, 4}, {8, 8}, {1, 1}, {15, 15}} {
		seen := map[int]bool{}
		for i := range 2000 {
			hash := flowHash("schema", string(rune('a'+i%26))+string(rune(i)))
			hand := dealHand(hash, shape.deck, shape.hand, nil)
			require.Len(t, hand, shape.hand, "deck %d", shape.deck)
			sorted := slices.Sorted(slices.Values(hand))
			assert.Equal(t, len(sorted), len(slices.Compact(sorted)), "distinct cards in %v", hand)
			for _, c := range hand {
				require.True(t, c >= 0 && c < shape.deck, "card %d of deck %d", c, shape.deck)
				seen[c] = true
			}
			assert.Equal(t, hand, dealHand(hash, shape.deck, shape.hand, nil), "same flow, same hand")
		}
		assert.Len(t, seen, shape.deck, "cards dealt from deck %d", shape.deck)
	}
}
