package framework

import (
	"context"
	"math"
	"sync"
	"sync/atomic"
)

// parallelize calls work(i) for every i in [0, n) on up to f.parallelism
// goroutines and returns when all of them have returned. Once ctx is done
// it starts no new chunk, so some i may never be worked on; the caller
// checks ctx.Err() afterwards. work must be safe to call concurrently for
// different i.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/parallelize
// (Parallelizer.Until).
func (f *Framework) parallelize(ctx context.Context, n int, work func(i int)) {
	chunk := chunkSizeFor(n, f.parallelism)
	workers := min(f.parallelism, (n+chunk-1)/chunk)
	if workers <= 1 {
		// One worker would only add a goroutine switch.
		for i := range n {
			if i%chunk == 0 && ctx.Err() != nil {
				return
			}
			work(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				start := int(next.Add(int64(chunk))) - chunk
				if start >= n || ctx.Err() != nil {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					work(i)
				}
			}
		})
	}
	wg.Wait()
}

// chunkSizeFor is how many consecutive items a worker takes at a time:
// about sqrt(n), so the number of handoffs grows slowly with n, but no
// more than n/parallelism+1, so every worker gets work.
//
// Upstream: parallelize.chunkSizeFor.
func chunkSizeFor(n, parallelism int) int {
	s := int(math.Sqrt(float64(n)))
	if r := n/parallelism + 1; s > r {
		s = r
	}
	return max(s, 1)
}
