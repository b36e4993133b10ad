package storage_test

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

// The benchmarks write and read the same ~1KB object raw through clientv3
// and through a Store, so Store/Etcd is the store's overhead (JSON encode,
// decode, transaction compare) per call.

// benchWidget is a widget whose JSON is about 1KB, the size of a small pod.
func benchWidget(name string) *storagetest.Widget {
	w := widget("bench", name)
	w.Labels = map[string]string{"app": "bench", "tier": "backend"}
	// 900 bytes of annotation bring the JSON to about 1KB.
	w.Annotations = map[string]string{"note": strings.Repeat("x", 900)}
	return w
}

func BenchmarkEtcdPut(b *testing.B) {
	client := storagetest.Client(b)
	prefix := storagetest.Prefix(b)
	value, err := json.Marshal(benchWidget("w"))
	if err != nil {
		b.Fatal(err)
	}
	i := 0
	for b.Loop() {
		if _, err := client.Put(b.Context(), prefix+"/widgets/bench/w"+strconv.Itoa(i), string(value)); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkStoreCreate(b *testing.B) {
	s := benchStore(b)
	w := benchWidget("w")
	i := 0
	for b.Loop() {
		w.Name = "w" + strconv.Itoa(i)
		if _, err := s.Create(b.Context(), "/widgets/bench/"+w.Name, w); err != nil {
			b.Fatal(err)
		}
		i++
	}
}

func BenchmarkEtcdGet(b *testing.B) {
	client := storagetest.Client(b)
	key := storagetest.Prefix(b) + "/widgets/bench/w"
	value, _ := json.Marshal(benchWidget("w"))
	if _, err := client.Put(b.Context(), key, string(value)); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := client.Get(b.Context(), key); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStoreGet(b *testing.B) {
	s := benchStore(b)
	w := benchWidget("w")
	if _, err := s.Create(b.Context(), "/widgets/bench/w", w); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := s.Get(b.Context(), "/widgets/bench/w", storage.GetOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkStoreGuaranteedUpdate(b *testing.B) {
	s := benchStore(b)
	w := benchWidget("w")
	if _, err := s.Create(b.Context(), "/widgets/bench/w", w); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		_, err := s.GuaranteedUpdate(b.Context(), "/widgets/bench/w", storage.UpdateOptions{}, func(cur runtime.Object) (runtime.Object, error) {
			cur.(*storagetest.Widget).Spec.Counter++
			return cur, nil
		})
		if err != nil {
			b.Fatal(err)
		}
	}
}

func benchStore(b *testing.B) *storage.Store {
	b.Helper()
	s, err := storage.NewStore(storagetest.Client(b), storage.StoreOptions{
		Prefix:  storagetest.Prefix(b),
		NewFunc: storagetest.NewWidget,
	})
	if err != nil {
		b.Fatal(err)
	}
	return s
}
