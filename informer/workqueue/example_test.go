package workqueue_test

import (
	"fmt"
	"sync"

	"github.com/minicp/minicp/informer/workqueue"
)

// A controller's queue: handlers add keys, workers process each key once
// however often it was added, and the owner drains the queue on shutdown.
func ExampleRateLimitingQueue() {
	q := workqueue.NewRateLimiting(workqueue.RateLimitingOptions[string]{})
	for _, key := range []string{"default/web", "default/db", "default/web"} {
		q.Add(key)
	}

	var mu sync.Mutex
	processed := map[string]int{}
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			key, shutdown := q.Get()
			if shutdown {
				return
			}
			mu.Lock()
			processed[key]++
			mu.Unlock()
			q.Forget(key) // success: clear its backoff
			q.Done(key)
		}
	})
	q.ShutDownWithDrain()
	wg.Wait()
	fmt.Println(processed["default/web"], processed["default/db"])
	// Output: 1 1
}
