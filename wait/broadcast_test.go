package wait_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/wait"
)

func TestBroadcastWakesEveryWaiterOnce(t *testing.T) {
	var b wait.Broadcast
	b.Notify() // nobody waits: nothing to close
	first, second := b.Wait(), b.Wait()
	assert.Equal(t, first, second, "waiters before one Notify share a channel")
	assert.False(t, isClosed(first), "before Notify")
	b.Notify()
	assert.True(t, isClosed(first), "after Notify")
	assert.False(t, isClosed(b.Wait()), "a Wait after Notify waits for the next")
}

func isClosed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
