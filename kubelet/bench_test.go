package kubelet_test

import (
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"sync"
	"testing"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet"
)

// BenchmarkIdleNode measures what an idle simulated node costs the
// process: nodes kubelets are registered, heartbeating on a fake clock and
// watching their pods, with no pod. bytes/node is the growth of the heap
// and of goroutine stacks per node once they are all idle, after a GC;
// it counts the API server's side too (the node's watch, its Node and
// Lease in the watch caches), as a process running the cluster pays it.
//
//	go test -run='^$' -bench=IdleNode -benchtime=3x ./kubelet/
func BenchmarkIdleNode(b *testing.B) {
	for _, nodes := range []int{10, 100} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			api := apiservertest.New(b)
			cs := clustertest.InMemoryClientset(b, api)
			clk := clocktest.NewFake(epoch)
			for i := 0; i < b.N; i++ {
				before, goroutines := memInUse()
				ctx, cancel := context.WithCancel(context.Background())
				var wg sync.WaitGroup
				kubelets := make([]*kubelet.Kubelet, nodes)
				for n := range kubelets {
					kl, err := kubelet.New(kubelet.Options{
						NodeName: fmt.Sprintf("node-%d-%d", i, n), Clientset: cs, Clock: clk,
						PodCIDR: netip.PrefixFrom(netip.AddrFrom4([4]byte{10, byte(n / 256), byte(n % 256), 0}), 24),
					})
					if err != nil {
						b.Fatal(err)
					}
					kubelets[n] = kl
					wg.Go(func() { _ = kl.Start(ctx) })
				}
				for _, kl := range kubelets {
					<-kl.Ready()
					if err := kl.WaitIdle(b.Context()); err != nil {
						b.Fatal(err)
					}
				}
				after, goroutinesAfter := memInUse()
				// Signed: the heap may also shrink by what the last
				// iteration left for the GC.
				b.ReportMetric(float64(int64(after)-int64(before))/float64(nodes), "bytes/node")
				b.ReportMetric(float64(goroutinesAfter-goroutines)/float64(nodes), "goroutines/node")
				cancel()
				wg.Wait()
			}
		})
	}
}

// memInUse returns the heap in use plus goroutine stacks after a GC, and
// the number of goroutines.
func memInUse() (uint64, int) {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc + ms.StackInuse, runtime.NumGoroutine()
}

// BenchmarkPodsToRunning measures how fast kubelets start pods: pods pods,
// created with their node set (no scheduler), spread over nodes kubelets,
// from the first create until the API server has every pod Running.
// pods/s is the throughput; the clock is fake, so no simulated delay
// counts.
//
//	go test -run='^$' -bench=PodsToRunning -benchtime=1x ./kubelet/
func BenchmarkPodsToRunning(b *testing.B) {
	const pods, nodes = 1000, 100
	b.StopTimer()
	for i := 0; i < b.N; i++ {
		api := apiservertest.New(b)
		cs := clustertest.InMemoryClientset(b, api)
		clk := clocktest.NewFake(epoch)
		ctx, cancel := context.WithCancel(context.Background())
		var wg sync.WaitGroup
		for n := range nodes {
			kl, err := kubelet.New(kubelet.Options{
				NodeName: fmt.Sprintf("node-%d", n), Clientset: cs, Clock: clk,
				PodCIDR: netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 1, byte(n), 0}), 24),
			})
			if err != nil {
				b.Fatal(err)
			}
			wg.Go(func() { _ = kl.Start(ctx) })
			<-kl.Ready()
		}
		b.StartTimer()
		var creates sync.WaitGroup
		for worker := range 8 {
			creates.Go(func() {
				for p := worker; p < pods; p += 8 {
					pod := &corev1.Pod{
						ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pod-%d", p)},
						Spec: corev1.PodSpec{
							NodeName:   fmt.Sprintf("node-%d", p%nodes),
							Containers: []corev1.Container{{Name: "c", Image: "busybox:1.36", Command: []string{"sleep", "3600"}}},
						},
					}
					if _, err := cs.Pods("default").Create(ctx, pod, client.WriteOptions{}); err != nil {
						b.Error(err)
						return
					}
				}
			})
		}
		waitAllRunning(b, ctx, cs, pods)
		b.StopTimer()
		creates.Wait()
		cancel()
		wg.Wait()
	}
	b.ReportMetric(float64(pods*b.N)/b.Elapsed().Seconds(), "pods/s")
}

// waitAllRunning watches pods until n of them are Running. A watch the
// server closes (a slow reader under load) is resumed after a list.
func waitAllRunning(b *testing.B, ctx context.Context, cs *client.Clientset, n int) {
	running := map[string]bool{}
	for {
		list, err := cs.Pods("default").List(ctx, client.ListOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, p := range list.Items {
			if p.Status.Phase == corev1.PodRunning {
				running[p.Name] = true
			}
		}
		if len(running) >= n {
			return
		}
		w, err := cs.Pods("default").Watch(ctx, client.ListOptions{ResourceVersion: list.ResourceVersion})
		if err != nil {
			b.Fatal(err)
		}
		for ev := range w.ResultChan() {
			if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == corev1.PodRunning {
				running[p.Name] = true
			}
			if len(running) >= n {
				w.Stop()
				return
			}
		}
		w.Stop()
	}
}
