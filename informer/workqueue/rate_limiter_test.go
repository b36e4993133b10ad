package workqueue_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/informer/workqueue"
)

func TestItemExponentialFailureRateLimiter(t *testing.T) {
	r := workqueue.NewItemExponentialFailureRateLimiter[string](time.Millisecond, time.Second)
	want := []time.Duration{1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1000, 1000}
	for i, w := range want {
		assert.Equal(t, w*time.Millisecond, r.When("a"), "retry %d", i)
	}
	assert.Equal(t, len(want), r.NumRequeues("a"))
	assert.Equal(t, time.Millisecond, r.When("b"), "items back off independently")
	r.Forget("a")
	assert.Equal(t, 0, r.NumRequeues("a"))
	assert.Equal(t, time.Millisecond, r.When("a"), "Forget starts over")

	huge := workqueue.NewItemExponentialFailureRateLimiter[string](time.Millisecond, 1000*time.Second)
	for range 200 {
		huge.When("x")
	}
	assert.Equal(t, 1000*time.Second, huge.When("x"), "no overflow after many failures")
}

func TestBucketRateLimiter(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	r := workqueue.NewBucketRateLimiter[string](10, 2, clk)
	assert.Equal(t, time.Duration(0), r.When("a"), "burst token 1")
	assert.Equal(t, time.Duration(0), r.When("b"), "burst token 2")
	assert.Equal(t, 100*time.Millisecond, r.When("c"), "then one every 100ms")
	assert.Equal(t, 200*time.Millisecond, r.When("d"))
	clk.Step(time.Second)
	assert.Equal(t, time.Duration(0), r.When("e"), "the bucket refills on the clock")
	assert.Equal(t, 0, r.NumRequeues("a"))
}

func TestMaxOfRateLimiter(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	r := workqueue.DefaultControllerRateLimiter[string](clk)
	assert.Equal(t, 5*time.Millisecond, r.When("a"), "the item's backoff exceeds the bucket's (full) wait")
	assert.Equal(t, 10*time.Millisecond, r.When("a"))
	assert.Equal(t, 2, r.NumRequeues("a"))
	for range 200 {
		r.When("flood")
	}
	assert.Greater(t, r.When("fresh"), 5*time.Second, "an empty bucket slows even a fresh item")
	r.Forget("a")
	assert.Equal(t, 0, r.NumRequeues("a"))
}

func TestRateLimitingQueue(t *testing.T) {
	clk := clocktest.NewFake(time.Unix(0, 0))
	q := workqueue.NewRateLimiting(workqueue.RateLimitingOptions[string]{
		Clock:       clk,
		RateLimiter: workqueue.NewItemExponentialFailureRateLimiter[string](time.Second, time.Minute),
	})
	defer q.ShutDown()

	q.AddRateLimited("a") // first failure: 1s
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	clk.Step(time.Second)
	assert.Equal(t, "a", getWithin[string](t, q))
	q.Done("a")

	q.AddRateLimited("a") // second failure: 2s
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1))
	clk.Step(time.Second)
	assert.Equal(t, 0, q.Len(), "the second retry waits longer")
	clk.Step(time.Second)
	assert.Equal(t, "a", getWithin[string](t, q))
	assert.Equal(t, 2, q.NumRequeues("a"))
	q.Forget("a")
	q.Done("a")
	assert.Equal(t, 0, q.NumRequeues("a"))
}
