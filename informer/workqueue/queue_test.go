package workqueue_test

import (
	"sync"
	"testing"
	"testing/synctest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/informer/workqueue"
)

// op is one step of a queue script.
type op struct {
	do   string // add, get, done, shutdown, len, get-shutdown
	item string // for add, done; the item expected for get
	n    int    // for len
}

func TestQueueInvariants(t *testing.T) {
	tests := []struct {
		name  string
		steps []op
	}{
		{name: "keys are deduplicated", steps: []op{
			{do: "add", item: "a"}, {do: "add", item: "a"}, {do: "add", item: "b"}, {do: "add", item: "a"},
			{do: "len", n: 2}, {do: "get", item: "a"}, {do: "get", item: "b"}, {do: "len", n: 0},
		}},
		{name: "first in, first out", steps: []op{
			{do: "add", item: "c"}, {do: "add", item: "a"}, {do: "add", item: "b"},
			{do: "get", item: "c"}, {do: "get", item: "a"}, {do: "get", item: "b"},
		}},
		{name: "a key re-added while processing is held until Done", steps: []op{
			{do: "add", item: "a"}, {do: "get", item: "a"},
			{do: "add", item: "a"}, {do: "len", n: 0},
			{do: "add", item: "b"}, {do: "get", item: "b"},
			{do: "done", item: "a"}, {do: "len", n: 1}, {do: "get", item: "a"},
		}},
		{name: "a key re-added many times while processing runs once more", steps: []op{
			{do: "add", item: "a"}, {do: "get", item: "a"},
			{do: "add", item: "a"}, {do: "add", item: "a"}, {do: "add", item: "a"},
			{do: "done", item: "a"}, {do: "len", n: 1}, {do: "get", item: "a"}, {do: "done", item: "a"}, {do: "len", n: 0},
		}},
		{name: "done without a re-add forgets the key", steps: []op{
			{do: "add", item: "a"}, {do: "get", item: "a"}, {do: "done", item: "a"}, {do: "len", n: 0},
			{do: "add", item: "a"}, {do: "len", n: 1},
		}},
		{name: "shutdown hands out what is left, then reports shutdown", steps: []op{
			{do: "add", item: "a"}, {do: "add", item: "b"}, {do: "shutdown"},
			{do: "add", item: "c"}, {do: "len", n: 2},
			{do: "get", item: "a"}, {do: "get", item: "b"}, {do: "get-shutdown"}, {do: "get-shutdown"},
		}},
		{name: "a re-add during processing survives shutdown", steps: []op{
			{do: "add", item: "a"}, {do: "get", item: "a"}, {do: "add", item: "a"}, {do: "shutdown"},
			{do: "done", item: "a"}, {do: "get", item: "a"}, {do: "done", item: "a"}, {do: "get-shutdown"},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			q := workqueue.New[string](workqueue.QueueOptions{})
			for i, s := range tc.steps {
				switch s.do {
				case "add":
					q.Add(s.item)
				case "done":
					q.Done(s.item)
				case "shutdown":
					q.ShutDown()
				case "len":
					assert.Equal(t, s.n, q.Len(), "step %d: Len", i)
				case "get":
					item, shutdown := q.Get()
					require.False(t, shutdown, "step %d: Get", i)
					assert.Equal(t, s.item, item, "step %d: Get", i)
				case "get-shutdown":
					_, shutdown := q.Get()
					assert.True(t, shutdown, "step %d: Get after shutdown", i)
				default:
					t.Fatalf("unknown step %q", s.do)
				}
			}
		})
	}
}

// TestGetBlocksUntilAdd checks that Get waits for an item, and that
// ShutDown wakes every waiting Get.
func TestGetBlocksUntilAdd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := workqueue.New[int](workqueue.QueueOptions{})
		got := make(chan int, 1)
		go func() {
			item, _ := q.Get()
			got <- item
		}()
		synctest.Wait()
		assert.Empty(t, got, "Get returned with nothing queued")
		q.Add(7)
		assert.Equal(t, 7, <-got)

		var wg sync.WaitGroup
		for range 3 {
			wg.Go(func() {
				_, shutdown := q.Get()
				assert.True(t, shutdown)
			})
		}
		synctest.Wait()
		q.ShutDown()
		wg.Wait()
	})
}

// TestShutDownWithDrainWaitsForDone checks that ShutDownWithDrain returns
// only once every item being processed is Done.
func TestShutDownWithDrainWaitsForDone(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		q := workqueue.New[string](workqueue.QueueOptions{})
		q.Add("a")
		q.Add("b")
		a, _ := q.Get()
		b, _ := q.Get()
		drained := make(chan struct{})
		go func() {
			q.ShutDownWithDrain()
			close(drained)
		}()
		synctest.Wait()
		assert.True(t, q.ShuttingDown())
		q.Done(a)
		synctest.Wait()
		select {
		case <-drained:
			t.Fatal("drained while b was still processing")
		default:
		}
		q.Done(b)
		<-drained
	})
}
