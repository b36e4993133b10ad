package watchcache_test

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// The benchmarks compare the Cacher with what it replaces, in one run:
//
//	go test -run='^$' -bench=. -benchtime=1x ./watchcache/
//
// Each reports both sides and their ratio as metrics.

// The fan-out: 1,000 watchers of one resource, fed 10,000 events by 8
// concurrent writers (etcd transactions are round trips: one writer would
// measure latency, not fan-out).
const (
	fanoutWatchers = 1000
	fanoutEvents   = 10000
	fanoutWriters  = 8
)

// BenchmarkWatchFanout delivers fanoutEvents events to fanoutWatchers
// watchers, through one Cacher and through one etcd watch per watcher
// (storage.Store.Watch). events/s counts deliveries (watchers x events)
// per second of wall time from the first write to the last delivery;
// B/event is memory allocated per delivery; rewatches counts Cacher
// watchers closed for falling behind, which watch again from their last
// revision as clients do.
func BenchmarkWatchFanout(b *testing.B) {
	var cacher, etcd fanoutResult
	for b.Loop() {
		store := newStore(b)
		c := startCacher(b, watchcache.Options{Storage: store})
		cacher = runFanout(b, store, c, "0")
		etcdStore := newStore(b)
		etcd = runFanout(b, etcdStore, etcdStore, "")
	}
	b.ReportMetric(cacher.rate(), "cacher-events/s")
	b.ReportMetric(etcd.rate(), "etcd-events/s")
	b.ReportMetric(cacher.rate()/etcd.rate(), "cacher/etcd-x")
	b.ReportMetric(cacher.bytesPerEvent(), "cacher-B/event")
	b.ReportMetric(etcd.bytesPerEvent(), "etcd-B/event")
	b.ReportMetric(float64(cacher.rewatches), "cacher-rewatches")
	// The Cacher keeps up with the writes: its figure is bounded by how
	// fast etcd takes them, which these show.
	b.ReportMetric(cacher.feed.Seconds(), "cacher-feed-s")
	b.ReportMetric(cacher.elapsed.Seconds(), "cacher-s")
	b.ReportMetric(etcd.elapsed.Seconds(), "etcd-s")
}

type fanoutResult struct {
	// elapsed runs from the first write to the last delivery, feed to the
	// last write's return.
	elapsed, feed time.Duration
	delivered     int64
	allocated     uint64
	rewatches     int64
}

func (r fanoutResult) rate() float64          { return float64(r.delivered) / r.elapsed.Seconds() }
func (r fanoutResult) bytesPerEvent() float64 { return float64(r.allocated) / float64(r.delivered) }

// runFanout starts the watchers on source (from the state listed at
// listRV), writes the events through store and waits until every watcher
// has them all.
func runFanout(b *testing.B, store *storage.Store, source storage.Interface, listRV string) fanoutResult {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	res, err := source.GetList(ctx, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: listRV})
	if err != nil {
		b.Fatal(err)
	}
	var result fanoutResult
	var delivered, rewatches atomic.Int64
	var readers sync.WaitGroup
	ready := make(chan struct{}, fanoutWatchers)
	for range fanoutWatchers {
		readers.Go(func() {
			n, rw, err := readAll(ctx, source, res.ResourceVersion, fanoutEvents, ready)
			delivered.Add(int64(n))
			rewatches.Add(int64(rw))
			if err != nil {
				b.Error(err)
			}
		})
	}
	for range fanoutWatchers {
		<-ready
	}
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	var writers sync.WaitGroup
	for wr := range fanoutWriters {
		writers.Go(func() {
			for i := range fanoutEvents / fanoutWriters {
				w := newWidget("bench", fmt.Sprintf("w%d-%d", wr, i), "red", nil)
				if _, err := store.Create(ctx, widgetKey("bench", w.Name), w); err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	writers.Wait()
	result.feed = time.Since(start)
	readers.Wait()
	result.elapsed = time.Since(start)
	runtime.ReadMemStats(&after)
	result.allocated = after.TotalAlloc - before.TotalAlloc
	result.delivered = delivered.Load()
	result.rewatches = rewatches.Load()
	return result
}

// readAll watches source from rv until it has n events, watching again
// from the last revision it saw when a watch ends; it signals ready once
// its first watch is registered.
func readAll(ctx context.Context, source storage.Interface, rv int64, n int, ready chan<- struct{}) (got, rewatches int, err error) {
	first := true
	for got < n {
		w, err := source.Watch(ctx, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(rv)})
		if err != nil {
			return got, rewatches, err
		}
		if first {
			ready <- struct{}{}
			first = false
		} else {
			rewatches++
		}
		for got < n {
			ev, ok := <-w.ResultChan()
			if !ok {
				break
			}
			if ev.Type != watch.Added {
				w.Stop()
				return got, rewatches, fmt.Errorf("unexpected %s event: %+v", ev.Type, ev.Object)
			}
			got++
			rv = metaRV(ev)
		}
		w.Stop()
	}
	return got, rewatches, nil
}

// metaRV reads an event's revision without the testing.TB that rvOf needs.
func metaRV(ev watch.Event) int64 {
	rv, _ := strconv.ParseInt(ev.Object.(*storagetest.Widget).ResourceVersion, 10, 64)
	return rv
}

// listObjects is the size of the list benchmark: 5,000 objects of about
// 1KB each, the size of a small pod.
const listObjects = 5000

// BenchmarkList lists listObjects objects from the Cacher
// (resourceVersion "0") and from etcd (resourceVersion "", a consistent
// read through storage.Store), alternately. Note what each returns: etcd
// decodes new objects the caller owns, the Cacher returns shared ones.
func BenchmarkList(b *testing.B) {
	store := newStore(b)
	ctx := context.Background()
	for i := range listObjects {
		w := newWidget("bench", fmt.Sprintf("w%05d", i), "red", map[string]string{"app": "bench", "tier": "backend"})
		// 900 bytes of annotation bring the JSON to about 1KB.
		w.Annotations = map[string]string{"note": strings.Repeat("x", 900)}
		if _, err := store.Create(ctx, widgetKey("bench", w.Name), w); err != nil {
			b.Fatal(err)
		}
	}
	c := startCacher(b, watchcache.Options{Storage: store})
	var cacheTime, etcdTime time.Duration
	var cacheAlloc, etcdAlloc uint64
	var ms runtime.MemStats
	measure := func(s storage.Interface, rv string, total *time.Duration, alloc *uint64) {
		runtime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		start := time.Now()
		res, err := s.GetList(ctx, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: rv})
		*total += time.Since(start)
		runtime.ReadMemStats(&ms)
		*alloc += ms.TotalAlloc - before
		if err != nil || len(res.Items) != listObjects {
			b.Fatalf("list from rv %q: %d items, %v", rv, len(res.Items), err)
		}
	}
	n := 0
	for b.Loop() {
		measure(c, "0", &cacheTime, &cacheAlloc)
		measure(store, "", &etcdTime, &etcdAlloc)
		n++
	}
	b.ReportMetric(float64(cacheTime.Nanoseconds())/float64(n), "cacher-ns/list")
	b.ReportMetric(float64(etcdTime.Nanoseconds())/float64(n), "etcd-ns/list")
	b.ReportMetric(float64(etcdTime)/float64(cacheTime), "etcd/cacher-x")
	b.ReportMetric(float64(cacheAlloc)/float64(n), "cacher-B/list")
	b.ReportMetric(float64(etcdAlloc)/float64(n), "etcd-B/list")
}

// idleWatchers is how many watchers the memory benchmark opens: enough
// that the per-watcher figure is not noise.
const idleWatchers = 1000

// BenchmarkIdleWatcherMemory measures the memory an idle watcher costs
// (heap and goroutine stacks, after a GC): through a Cacher of an idle
// resource (10-event channels), of a busy one (its window grown to the
// upper bound: 100-event channels), and as a direct etcd watch.
func BenchmarkIdleWatcherMemory(b *testing.B) {
	var idle, busy, etcd float64
	for b.Loop() {
		store := newStore(b)
		idle = watcherMemory(b, startCacher(b, watchcache.Options{Storage: store}))
		busy = watcherMemory(b, startCacher(b, watchcache.Options{Storage: store, Capacity: 100 * 1024}))
		etcd = watcherMemory(b, store)
	}
	b.ReportMetric(idle, "cacher-B/watcher")
	b.ReportMetric(busy, "cacher-busy-B/watcher")
	b.ReportMetric(etcd, "etcd-B/watcher")
}

// watcherMemory opens idleWatchers watches on s and returns the memory
// they take each.
func watcherMemory(b *testing.B, s storage.Interface) float64 {
	ctx := context.Background()
	res, err := s.GetList(ctx, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: "0"})
	if err != nil {
		b.Fatal(err)
	}
	inUse := func() uint64 {
		var ms runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&ms)
		return ms.HeapAlloc + ms.StackInuse
	}
	before := inUse()
	watches := make([]watch.Interface, 0, idleWatchers)
	for range idleWatchers {
		w, err := s.Watch(ctx, widgetPrefix, storage.ListOptions{Recursive: true, ResourceVersion: rvString(res.ResourceVersion), ProgressNotify: true})
		if err != nil {
			b.Fatal(err)
		}
		watches = append(watches, w)
	}
	after := inUse()
	for _, w := range watches {
		w.Stop()
	}
	return (float64(after) - float64(before)) / idleWatchers
}
