package workqueue_test

import (
	"fmt"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/minicp/minicp/informer/workqueue"
)

// TestQueueStress runs many producers and workers on one queue (run it
// with -race) and checks the two promises controllers rely on: no key is
// processed by two workers at once, and every key's last processing
// started after its last Add.
func TestQueueStress(t *testing.T) {
	const (
		producers   = 4
		workers     = 8
		keys        = 50
		addsPerProd = 2000
	)
	q := workqueue.New[string](workqueue.QueueOptions{})
	var (
		seq       atomic.Int64
		mu        sync.Mutex
		inFlight  = map[string]bool{}
		lastAdd   = map[string]int64{}
		lastStart = map[string]int64{}
		overlaps  atomic.Int64
	)

	var workersWG sync.WaitGroup
	for range workers {
		workersWG.Go(func() {
			for {
				key, shutdown := q.Get()
				if shutdown {
					return
				}
				mu.Lock()
				if inFlight[key] {
					overlaps.Add(1)
				}
				inFlight[key] = true
				lastStart[key] = seq.Add(1)
				mu.Unlock()

				// Give other workers a chance to grab the same key.
				for range rand.IntN(50) {
					_ = fmt.Sprint(key)
				}

				mu.Lock()
				inFlight[key] = false
				mu.Unlock()
				q.Done(key)
			}
		})
	}

	var producersWG sync.WaitGroup
	for p := range producers {
		producersWG.Go(func() {
			r := rand.New(rand.NewPCG(uint64(p), 42))
			for range addsPerProd {
				key := fmt.Sprintf("key-%d", r.IntN(keys))
				mu.Lock()
				lastAdd[key] = seq.Add(1)
				mu.Unlock()
				q.Add(key)
			}
		})
	}
	producersWG.Wait()
	q.ShutDown()
	workersWG.Wait()

	assert.Zero(t, overlaps.Load(), "a key was processed by two workers at once")
	for key, added := range lastAdd {
		assert.GreaterOrEqual(t, lastStart[key], added, "%s: its last Add was not processed", key)
	}
	assert.Equal(t, 0, q.Len())
}
