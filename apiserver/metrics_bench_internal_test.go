package apiserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/storage/storagetest"
)

// BenchmarkMetricsFilter measures what the metrics filter costs a GET
// served from the watch cache (resourceVersion=0, the cheapest GET, where
// the filter's share is largest): the same request through the whole
// handler chain with and without the filter, alternately in one loop so
// both see the same machine, reported as ns/op of each and their ratio.
// Run with:
//
//	go test -run='^$' -bench=BenchmarkMetricsFilter -benchmem ./apiserver/
func BenchmarkMetricsFilter(b *testing.B) {
	const token = "bench-admin"
	s, err := New(Options{
		Etcd: storagetest.Client(b), StoragePrefix: storagetest.Prefix(b),
		Authenticator: authn.NewTokenFile([]authn.TokenUser{{Token: token,
			User: request.User{Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}}}),
	})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.WithoutCancel(b.Context()))
	done := make(chan error, 1)
	go func() { done <- s.Start(ctx) }()
	b.Cleanup(func() {
		cancel()
		<-done
	})
	if err := s.WaitReady(b.Context()); err != nil {
		b.Fatal(err)
	}
	if err := s.EnsureSystemNamespaces(b.Context()); err != nil {
		b.Fatal(err)
	}
	serve := func(h http.Handler, method, path, body string) int {
		req := httptest.NewRequestWithContext(b.Context(), method, path, strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+token)
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec.Code
	}
	pod := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"target"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`
	if code := serve(s.handler, "POST", "/api/v1/namespaces/default/pods", pod); code != http.StatusCreated {
		b.Fatalf("create: %d", code)
	}
	with := s.handler
	without := handlerChain(s.routes(), slices.DeleteFunc(slices.Clone(s.filters), func(f filter) bool { return f.name == "metrics" }))
	const path = "/api/v1/namespaces/default/pods/target?resourceVersion=0"

	var withTime, withoutTime time.Duration
	for b.Loop() {
		start := time.Now()
		if code := serve(with, "GET", path, ""); code != http.StatusOK {
			b.Fatalf("GET with the filter: %d", code)
		}
		mid := time.Now()
		if code := serve(without, "GET", path, ""); code != http.StatusOK {
			b.Fatalf("GET without the filter: %d", code)
		}
		withTime += mid.Sub(start)
		withoutTime += time.Since(mid)
	}
	b.ReportMetric(float64(withTime.Nanoseconds())/float64(b.N), "ns/get-with")
	b.ReportMetric(float64(withoutTime.Nanoseconds())/float64(b.N), "ns/get-without")
	b.ReportMetric(float64(withTime)/float64(withoutTime), "with/without")
}
