package kubelet

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestBackOff(t *testing.T) {
	t0 := time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC)
	tests := []struct {
		name string
		// steps are the event times of next, each stepped at its own time.
		steps []time.Duration
		// at is when to ask inBackOffSince about an event at the last step.
		at        time.Duration
		wantDelay time.Duration
		wantIn    bool
	}{
		{name: "first", steps: []time.Duration{0}, at: 5 * time.Second, wantDelay: 10 * time.Second, wantIn: true},
		{name: "first over", steps: []time.Duration{0}, at: 10 * time.Second, wantDelay: 10 * time.Second, wantIn: false},
		{name: "doubles", steps: []time.Duration{0, 10 * time.Second}, at: 29 * time.Second, wantDelay: 20 * time.Second, wantIn: true},
		{name: "doubles again", steps: []time.Duration{0, 10 * time.Second, 30 * time.Second}, at: 69 * time.Second, wantDelay: 40 * time.Second, wantIn: true},
		{name: "capped", steps: []time.Duration{0, 10, 30, 70, 150, 310, 630, 930}, at: 0, wantDelay: 5 * time.Minute},
		{name: "expires after twice the cap", steps: []time.Duration{0, 10 * time.Second, 11 * time.Minute}, at: 11 * time.Minute, wantDelay: 10 * time.Second, wantIn: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var b backOff
			var last time.Time
			for _, s := range tc.steps {
				if s < time.Second {
					s *= time.Second // bare numbers in the table are seconds
				}
				last = t0.Add(s)
				b.next("k", last, last)
			}
			assert.Equal(t, tc.wantDelay, b.delay("k"), "delay after %v", tc.steps)
			if tc.at > 0 {
				_, in := b.inBackOffSince("k", last, t0.Add(tc.at))
				assert.Equal(t, tc.wantIn, in, "in backoff at %v since %v", tc.at, last.Sub(t0))
			}
		})
	}
}
