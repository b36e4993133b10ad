package watchcache_test

import (
	"context"
	"fmt"
	goruntime "runtime"
	"strings"
	"testing"
	"time"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// updateObjects is how many objects BenchmarkGuaranteedUpdate updates in
// turn: by the time an object comes round again, the cache has long seen
// its last write, as for the pods of a busy cluster.
const updateObjects = 100

// BenchmarkGuaranteedUpdate updates ~1KB objects through the Cacher, which
// starts from its cached copy, and through storage.Store, which reads etcd
// first, alternately, each on its own updateObjects objects. retries
// counts tryUpdate calls past the first (a stale cached copy costs one).
func BenchmarkGuaranteedUpdate(b *testing.B) {
	store := newStore(b)
	ctx := context.Background()
	for _, side := range []string{"c", "s"} {
		for i := range updateObjects {
			w := newWidget("bench", fmt.Sprintf("%s%03d", side, i), "red", map[string]string{"app": "bench", "tier": "backend"})
			w.Annotations = map[string]string{"note": strings.Repeat("x", 900)}
			if _, err := store.Create(ctx, widgetKey("bench", w.Name), w); err != nil {
				b.Fatal(err)
			}
		}
	}
	c := startCacher(b, watchcache.Options{Storage: store})
	var cacheTime, etcdTime time.Duration
	var cacheAlloc, etcdAlloc uint64
	var retries int
	var ms goruntime.MemStats
	measure := func(s storage.Interface, key string, total *time.Duration, alloc *uint64) {
		goruntime.ReadMemStats(&ms)
		before := ms.TotalAlloc
		start := time.Now()
		calls := 0
		_, err := s.GuaranteedUpdate(ctx, key, storage.UpdateOptions{}, func(cur runtime.Object) (runtime.Object, error) {
			calls++
			cur.(*storagetest.Widget).Spec.Counter++
			return cur, nil
		})
		*total += time.Since(start)
		goruntime.ReadMemStats(&ms)
		*alloc += ms.TotalAlloc - before
		if err != nil {
			b.Fatalf("update %s: %v", key, err)
		}
		if s == c {
			retries += calls - 1
		}
	}
	n := 0
	for b.Loop() {
		i := n % updateObjects
		measure(c, widgetKey("bench", fmt.Sprintf("c%03d", i)), &cacheTime, &cacheAlloc)
		measure(store, widgetKey("bench", fmt.Sprintf("s%03d", i)), &etcdTime, &etcdAlloc)
		n++
	}
	b.ReportMetric(float64(cacheTime.Nanoseconds())/float64(n), "cacher-ns/update")
	b.ReportMetric(float64(etcdTime.Nanoseconds())/float64(n), "etcd-ns/update")
	b.ReportMetric(float64(etcdTime)/float64(cacheTime), "etcd/cacher-x")
	b.ReportMetric(float64(cacheAlloc)/float64(n), "cacher-B/update")
	b.ReportMetric(float64(etcdAlloc)/float64(n), "etcd-B/update")
	b.ReportMetric(float64(retries), "cacher-retries")
}
