package flowcontrol

// dealHand fills hand with handSize distinct queue indices out of
// deckSize, drawn from hash: the flow's hand, which shuffle sharding
// makes nearly unique per flow so that two heavy flows rarely share all
// their queues. Each draw takes one digit of hash in a mixed radix
// (deckSize, deckSize-1, ...) as the index among the cards not yet dealt;
// validation keeps the bits this needs under 60.
//
// Upstream: k8s.io/apiserver/pkg/util/shufflesharding (Dealer.Deal).
func dealHand(hash uint64, deckSize, handSize int, hand []int) []int {
	hand = hand[:0]
	for i := range handSize {
		n := uint64(deckSize - i)
		card := int(hash % n)
		hash /= n
		// Skip the cards already dealt, in increasing order, so card
		// becomes the card-th undealt one.
		for _, dealt := range sortedCopy(hand) {
			if card >= dealt {
				card++
			}
		}
		hand = append(hand, card)
	}
	return hand
}

// sortedCopy is hand in increasing order; hands are at most a few cards.
func sortedCopy(hand []int) []int {
	var buf [16]int
	out := buf[:0]
	if len(hand) > len(buf) {
		out = make([]int, 0, len(hand))
	}
	for _, c := range hand {
		i := len(out)
		out = append(out, c)
		for i > 0 && out[i-1] > c {
			out[i] = out[i-1]
			i--
		}
		out[i] = c
	}
	return out
}

// flowHash hashes a flow's identity (its schema and distinguisher) with
// 64-bit FNV-1a, inline so that it does not allocate.
func flowHash(schema, distinguisher string) uint64 {
	const offset, prime = 14695981039346656037, 1099511628211
	h := uint64(offset)
	for i := 0; i < len(schema); i++ {
		h = (h ^ uint64(schema[i])) * prime
	}
	h = (h ^ 0) * prime // separates ("ab","c") from ("a","bc")
	for i := 0; i < len(distinguisher); i++ {
		h = (h ^ uint64(distinguisher[i])) * prime
	}
	return h
}
