package informer_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/storage/storagetest"
)

// BenchmarkEventLatency measures the whole watch path, from just before a
// Create is sent to the moment an informer's handler is called with the
// new pod: client -> API server filters -> admission -> etcd -> storage
// watch -> API server watch stream -> client decode -> Reflector ->
// DeltaFIFO -> Indexer -> listener -> handler. It reports the p50 and p99
// of that latency, over HTTPS to a cluster and over the in-memory
// transport. Run with:
//
//	go test -run='^$' -bench=BenchmarkEventLatency -benchtime=2000x ./informer/
func BenchmarkEventLatency(b *testing.B) {
	b.Run("https", func(b *testing.B) {
		c, err := cluster.New(cluster.Options{Etcd: storagetest.Client(b), StoragePrefix: storagetest.Prefix(b)})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(b.Context())
		done := make(chan error, 1)
		go func() { done <- c.Start(ctx) }()
		defer func() {
			cancel()
			<-done
		}()
		<-c.Ready()
		cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()})
		if err != nil {
			b.Fatal(err)
		}
		cs, err := client.NewClientset(cl)
		if err != nil {
			b.Fatal(err)
		}
		benchmarkEventLatency(b, cs)
	})
	b.Run("in-memory", func(b *testing.B) {
		benchmarkEventLatency(b, inMemoryClientset(b))
	})
}

func benchmarkEventLatency(b *testing.B, cs *client.Clientset) {
	inf := newPodInformer(b, cs, informer.SharedInformerOptions{})
	type call struct {
		name string
		at   time.Time
	}
	calls := make(chan call, 1)
	_, err := inf.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj runtime.Object, _ bool) { calls <- call{obj.(*corev1.Pod).Name, time.Now()} },
	}, informer.HandlerOptions{})
	if err != nil {
		b.Fatal(err)
	}
	run(b, inf)

	var latencies []time.Duration
	i := 0
	for b.Loop() {
		name := fmt.Sprintf("p-%d", i)
		i++
		start := time.Now()
		if _, err := cs.Pods("default").Create(b.Context(), newPod(name, nil), client.WriteOptions{}); err != nil {
			b.Fatal(err)
		}
		c := <-calls
		if c.name != name {
			b.Fatalf("handler saw %s, want %s", c.name, name)
		}
		latencies = append(latencies, c.at.Sub(start))
	}
	slices.Sort(latencies)
	ms := func(q float64) float64 {
		return float64(latencies[int(q*float64(len(latencies)-1))].Microseconds()) / 1000
	}
	b.ReportMetric(ms(0.50), "p50-ms")
	b.ReportMetric(ms(0.99), "p99-ms")
}
