package apiserver_test

import (
	"fmt"
	"net/http"
	"testing"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/minicp/minicp/storage/storagetest"
)

// BenchmarkAPIServer measures what the API server costs over etcd: each
// API sub-benchmark has a raw etcd counterpart doing the same storage
// operation with the same bytes, so the figures read as ratios from one
// run. Run with:
//
//	go test -run='^$' -bench=BenchmarkAPIServer -benchmem ./apiserver/
func BenchmarkAPIServer(b *testing.B) {
	s := newTestServer(b)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"list"}}`)
	client := storagetest.Client(b)
	prefix := storagetest.Prefix(b)
	body := podJSON("bench", map[string]string{"app": "bench"})

	// Names count across runs: the testing package may run a
	// sub-benchmark's function more than once on the same server.
	seq := 0
	b.Run("create", func(b *testing.B) {
		for b.Loop() {
			seq++
			s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", podJSON(fmt.Sprintf("c-%d", seq), nil))
		}
	})
	b.Run("etcd-put", func(b *testing.B) {
		for b.Loop() {
			seq++
			if _, err := client.Put(b.Context(), fmt.Sprintf("%s/pods/default/c-%d", prefix, seq), body); err != nil {
				b.Fatal(err)
			}
		}
	})

	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", podJSON("target", nil))
	if _, err := client.Put(b.Context(), prefix+"/pods/default/target", body); err != nil {
		b.Fatal(err)
	}
	b.Run("get", func(b *testing.B) {
		for b.Loop() {
			s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/target", "")
		}
	})
	b.Run("etcd-get", func(b *testing.B) {
		for b.Loop() {
			if _, err := client.Get(b.Context(), prefix+"/pods/default/target"); err != nil {
				b.Fatal(err)
			}
		}
	})

	for i := range 1000 {
		s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/list/pods", podJSON(fmt.Sprintf("l-%04d", i), nil))
		if _, err := client.Put(b.Context(), fmt.Sprintf("%s/pods/list/l-%04d", prefix, i), body); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("list-1000", func(b *testing.B) {
		for b.Loop() {
			s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/list/pods", "")
		}
	})
	b.Run("etcd-range-1000", func(b *testing.B) {
		for b.Loop() {
			resp, err := client.Get(b.Context(), prefix+"/pods/list/", clientv3.WithPrefix())
			if err != nil || len(resp.Kvs) != 1000 {
				b.Fatal(err, len(resp.Kvs))
			}
		}
	})
}
