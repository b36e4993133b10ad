package clustertest_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// BenchmarkPodToRunning measures the whole pod flow on a cluster with the
// scheduler and simulated kubelets and no simulated delays: from the
// create request to the watch event that shows the pod Running.
//
//	go test -run='^$' -bench=PodToRunning -benchtime=200x ./cluster/clustertest/
func BenchmarkPodToRunning(b *testing.B) {
	// One pod at a time, each waited for: the latency of a single pod on
	// an otherwise idle cluster. A node holds 110 pods, so the cluster
	// grows with b.N.
	c := clustertest.New(b, clustertest.WithNodes(1+b.N/100), clustertest.WithControllers())
	var latencies []time.Duration
	for i := range b.N {
		latencies = append(latencies, runPods(b, c, fmt.Sprintf("p%d-", i), 1, 1)...)
	}
	slices.Sort(latencies)
	b.ReportMetric(ms(latencies[len(latencies)/2]), "p50-ms")
	b.ReportMetric(ms(latencies[len(latencies)*99/100]), "p99-ms")
}

// The throughput benchmark's cluster and load: 1,000 pods on 100 nodes,
// ten a node, created by 16 clients at once. 16 keeps the scheduler's
// queue and the kubelets' workers fed without flooding the API server:
// one goroutine per pod would put 1,000 requests in flight, past the API
// server's limit of 400, and measure Retry-After waits instead.
const (
	throughputPods    = 1000
	throughputNodes   = 100
	throughputWriters = 16
	// nodePodCapacity is a simulated node's pods capacity
	// (kubelet.DefaultCapacity): how many pods each iteration may add.
	nodePodCapacity = 110
)

// BenchmarkPodThroughput measures the whole pod flow under load: 1,000
// pods created over HTTPS by 16 clients on a cluster of 100 nodes, the
// scheduler in the loop, from the first create until the watch has seen
// every pod Running. Every request (create, binding, the kubelet's status,
// each Event) runs the API server's handler chain and an etcd
// transaction; the clock is real but nothing waits on it, as no pod asks
// for a delay. pods/s is the throughput; p50-ms and p99-ms are each pod's
// time from its create to Running, queueing included; cpu-ms/pod is the
// CPU the process (the cluster and etcd) spent per pod, which other load
// on the machine changes much less than pods/s. The cluster's setup is
// not timed; iterations share it, each adding its own 1,000 pods.
//
//	go test -run='^$' -bench=PodThroughput -benchtime=1x ./cluster/clustertest/
func BenchmarkPodThroughput(b *testing.B) {
	// The pods of every iteration and the warm-up pod must fit.
	if maxN := (throughputNodes*nodePodCapacity - 1) / throughputPods; b.N > maxN {
		b.Fatalf("%d iterations of %d pods do not fit %d nodes; use -benchtime=Nx with N <= %d",
			b.N, throughputPods, throughputNodes, maxN)
	}
	c := clustertest.New(b, clustertest.WithNodes(throughputNodes), clustertest.WithControllers())
	// One pod first, not timed: the scheduler's informer may not have any
	// node yet when the cluster is Ready, and a pod tried that early waits
	// out a second of backoff. The warm-up also opens the connection.
	runPods(b, c, "warmup-", 1, 1)
	cpuBefore, cpuOK := processCPU()
	b.ResetTimer()
	var latencies []time.Duration
	for i := range b.N {
		latencies = append(latencies, runPods(b, c, fmt.Sprintf("t%d-", i), throughputPods, throughputWriters)...)
	}
	b.StopTimer()
	slices.Sort(latencies)
	b.ReportMetric(float64(len(latencies))/b.Elapsed().Seconds(), "pods/s")
	if cpuAfter, ok := processCPU(); ok && cpuOK {
		// What a pod costs the whole cluster, etcd included: even with
		// GOMAXPROCS cores to itself, the process cannot run more than
		// GOMAXPROCS*1000/cpu-ms-per-pod pods a second.
		b.ReportMetric(ms(cpuAfter-cpuBefore)/float64(len(latencies)), "cpu-ms/pod")
	}
	b.ReportMetric(ms(latencies[len(latencies)/2]), "p50-ms")
	b.ReportMetric(ms(latencies[len(latencies)*99/100]), "p99-ms")
	// ns/op is the time of 1,000 pods, which says nothing pods/s does not.
	b.ReportMetric(0, "ns/op")
}

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

// benchImage is the benchmarks' container: the pause image, as upstream's
// density tests run, which serves until stopped. Its tag makes the pull
// policy IfNotPresent, so a node pulls it once (Pulling, Pulled) and later
// pods only record Pulled; an untagged image would pull for every pod.
const benchImage = "registry.k8s.io/pause:3.10"

// runPodsTimeout bounds one runPods: seconds on an idle machine, minutes
// on a loaded one under -race; past it the benchmark fails instead of
// hanging.
const runPodsTimeout = 5 * time.Minute

// runPods creates n pods named prefix0... from `writers` goroutines and
// returns each one's time from create to Running. A writer's error ends
// the run at once (the remaining pods would never come); a watch the
// server closes (a slow reader under load) is resumed after a list.
func runPods(b *testing.B, c *clustertest.Cluster, prefix string, n, writers int) []time.Duration {
	ctx, cancel := context.WithTimeout(b.Context(), runPodsTimeout)
	defer cancel()
	pods := c.Clientset().Pods("default")
	run := strings.TrimSuffix(prefix, "-") // a label value ends alphanumeric
	opts := client.ListOptions{LabelSelector: "run=" + run}
	if n == 1 {
		opts.FieldSelector = "metadata.name=" + prefix + "0"
	}
	// Watch before the first create, so no change is missed. The label
	// is this run's, so no pod matches yet, and resourceVersion 0 starts
	// at the watch cache's state at once; a List's resourceVersion would
	// make the watch wait for the pods' cache to catch up with every
	// other resource's writes.
	opts.ResourceVersion = "0"
	w, err := pods.Watch(ctx, opts)
	if err != nil {
		b.Fatal(err)
	}
	defer func() { w.Stop() }()

	// mu guards created, which writers fill before each create.
	var mu sync.Mutex
	created := map[string]time.Time{}
	var wg sync.WaitGroup
	defer func() {
		cancel() // a failed run stops the writers
		wg.Wait()
	}()
	for g := range writers {
		wg.Go(func() {
			for i := g; i < n; i += writers {
				name := fmt.Sprintf("%s%d", prefix, i)
				mu.Lock()
				created[name] = time.Now()
				mu.Unlock()
				_, err := pods.Create(ctx, &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"run": run}},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: benchImage}}},
				}, client.WriteOptions{})
				if err != nil {
					if ctx.Err() == nil {
						b.Errorf("create %s: %v", name, err)
					}
					cancel()
					return
				}
			}
		})
	}

	latencies := make([]time.Duration, 0, n)
	running := map[string]bool{}
	seen := func(p *corev1.Pod) {
		if p.Status.Phase != corev1.PodRunning || running[p.Name] {
			return
		}
		running[p.Name] = true
		mu.Lock()
		latencies = append(latencies, time.Since(created[p.Name]))
		mu.Unlock()
	}
	for len(running) < n {
		select {
		case ev, ok := <-w.ResultChan():
			if ok {
				if p, isPod := ev.Object.(*corev1.Pod); isPod {
					seen(p)
				}
				continue
			}
			if ctx.Err() != nil {
				b.Fatalf("%d of %d pods Running: %v", len(running), n, context.Cause(ctx))
			}
			// The server closed the watch: catch up with a list and watch
			// on from it.
			list, err := pods.List(ctx, client.ListOptions{LabelSelector: opts.LabelSelector, FieldSelector: opts.FieldSelector})
			if err != nil {
				b.Fatalf("relist: %v", err)
			}
			for i := range list.Items {
				seen(&list.Items[i])
			}
			opts.ResourceVersion = list.ResourceVersion
			if w, err = pods.Watch(ctx, opts); err != nil {
				b.Fatalf("rewatch: %v", err)
			}
		case <-ctx.Done():
			b.Fatalf("%d of %d pods Running within %v", len(running), n, runPodsTimeout)
		}
	}
	return latencies
}
