package scheduler_test

import (
	"context"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/scheduler"
)

// The benchmark's cluster: 1,000 pods on 100 equal nodes, ten a node.
const (
	benchNodes = 100
	benchPods  = 1000
	// benchCreators create pods in parallel: enough to keep the API
	// server busy, as a ReplicaSet controller scaling up would.
	benchCreators = 8
)

// BenchmarkSchedulingThroughput measures how many pods a second the
// scheduler binds through the in-memory API (every request runs the API
// server's whole handler chain and an etcd transaction), with no kubelets:
// from the start of the run until the pod watch has seen every pod bound.
//
//   - backlog: the pods exist before the scheduler starts, so the run is
//     informer sync plus pure scheduling and binding;
//   - streaming: the scheduler is running, and the pods are created
//     benchCreators at a time, so creating them is part of the run, as
//     when a workload scales up.
//
// Each iteration gets a fresh API server; its setup is not timed.
//
//	go test -run='^$' -bench=SchedulingThroughput -benchtime=5x ./scheduler/
func BenchmarkSchedulingThroughput(b *testing.B) {
	b.Run("backlog", func(b *testing.B) { benchmarkThroughput(b, false) })
	b.Run("streaming", func(b *testing.B) { benchmarkThroughput(b, true) })
}

func benchmarkThroughput(b *testing.B, streaming bool) {
	var elapsed time.Duration
	// A retried binding (a 429 from the API server) or a dropped watch
	// would make the figure say less than it seems: count them.
	var warnings warnCounter
	for i := range b.N {
		b.StopTimer()
		// Each iteration's server lives until the benchmark ends; idle,
		// it costs the timed part nothing but memory.
		api := apiservertest.New(b)
		cs := newClientset(b, api)
		for n := range benchNodes {
			createNode(b, cs, makeNode(fmt.Sprintf("node-%03d", n), rl{"cpu": "32", "memory": "128Gi", "pods": "110"}).Obj())
		}
		if !streaming {
			createBenchPods(b, cs)
		}
		allBound, stopWatching := watchAllBound(b, cs)
		s, err := scheduler.New(scheduler.Options{Clientset: cs, Rand: rand.New(rand.NewPCG(uint64(i), 1)),
			Logger: slog.New(&warnings)})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(b.Context())
		errCh := make(chan error, 1)
		if streaming {
			go func() { errCh <- s.Start(ctx) }()
			<-s.Ready()
		}

		b.StartTimer()
		start := time.Now()
		if streaming {
			createBenchPods(b, cs)
		} else {
			go func() { errCh <- s.Start(ctx) }()
		}
		select {
		case <-allBound:
		case <-time.After(clustertest.WaitTimeout):
			b.Fatalf("pods not all bound within %v", clustertest.WaitTimeout)
		}
		elapsed += time.Since(start)
		b.StopTimer()

		stopWatching()
		cancel()
		if err := <-errCh; err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N*benchPods)/elapsed.Seconds(), "pods/s")
	b.ReportMetric(float64(warnings.n.Load())/float64(b.N), "warnings/op")
}

// warnCounter is a slog.Handler that counts the records at Warn and above.
type warnCounter struct{ n atomic.Int64 }

func (w *warnCounter) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (w *warnCounter) Handle(context.Context, slog.Record) error {
	w.n.Add(1)
	return nil
}
func (w *warnCounter) WithAttrs([]slog.Attr) slog.Handler { return w }
func (w *warnCounter) WithGroup(string) slog.Handler      { return w }

// createBenchPods creates benchPods pods, benchCreators at a time.
func createBenchPods(b *testing.B, cs *client.Clientset) {
	var wg sync.WaitGroup
	errs := make(chan error, benchCreators)
	for c := range benchCreators {
		wg.Go(func() {
			for i := c; i < benchPods; i += benchCreators {
				pod := makePod(fmt.Sprintf("pod-%04d", i), rl{"cpu": "100m", "memory": "256Mi"}).Obj()
				if _, err := cs.Pods("default").Create(b.Context(), pod, client.WriteOptions{}); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		b.Fatal(err)
	}
}

// watchAllBound returns a channel closed once benchPods distinct pods have
// been seen bound. It watches through an informer: on a loaded machine
// the API server may close a watcher that falls behind, and the informer
// watches again where it left off. stop stops it and waits.
func watchAllBound(b *testing.B, cs *client.Clientset) (allBound <-chan struct{}, stop func()) {
	factory, err := informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{Client: cs.Client()})
	if err != nil {
		b.Fatal(err)
	}
	pods, err := factory.InformerFor(corev1.SchemeGroupVersion.WithResource("pods"))
	if err != nil {
		b.Fatal(err)
	}
	done := make(chan struct{})
	var mu sync.Mutex
	boundPods := map[string]bool{}
	see := func(obj runtime.Object) {
		p := obj.(*corev1.Pod)
		if p.Spec.NodeName == "" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		boundPods[p.Name] = true
		if len(boundPods) == benchPods {
			close(done)
		}
	}
	if _, err := pods.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc:    func(obj runtime.Object, _ bool) { see(obj) },
		UpdateFunc: func(old, obj runtime.Object) { see(obj) },
	}, informer.HandlerOptions{}); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(b.Context())
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		_ = factory.Start(ctx)
	}()
	if err := factory.WaitForCacheSync(ctx); err != nil {
		b.Fatal(err)
	}
	return done, func() {
		cancel()
		<-stopped
	}
}
