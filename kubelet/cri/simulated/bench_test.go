package simulated_test

import (
	"context"
	"fmt"
	"net/netip"
	"runtime"
	"testing"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/kubelet/cni"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// BenchmarkIdlePod measures an idle pod: a sandbox (its pause container
// and IP) and one container sleeping for an hour. bytes/op counts every
// allocation of the calls; retained-B/pod is what stays on the heap.
//
//	go test -run='^$' -bench=IdlePod -benchmem ./kubelet/cri/simulated/
func BenchmarkIdlePod(b *testing.B) {
	clk := clocktest.NewFake(epoch)
	ipam, err := cni.New(cni.Options{Subnet: netip.MustParsePrefix("10.0.0.0/8")})
	if err != nil {
		b.Fatal(err)
	}
	rt, err := simulated.New(simulated.Options{Clock: clk, Network: ipam})
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rt.Start(ctx) }()
	defer func() {
		cancel()
		<-done
	}()
	if _, err := rt.PullImage(ctx, "busybox"); err != nil {
		b.Fatal(err)
	}
	goroutines := runtime.NumGoroutine()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	b.ReportAllocs()
	b.ResetTimer()
	for i := range b.N {
		sb, err := rt.RunPodSandbox(ctx, cri.PodSandboxConfig{Metadata: cri.PodSandboxMetadata{
			Name: fmt.Sprintf("pod-%d", i), Namespace: "default", UID: fmt.Sprintf("uid-%d", i),
		}})
		if err != nil {
			b.Fatal(err)
		}
		id, err := rt.CreateContainer(ctx, sb, cri.ContainerConfig{
			Metadata: cri.ContainerMetadata{Name: "main"}, Image: "busybox",
			Command: []string{"sh", "-c", "echo started; sleep 3600"},
			Envs:    []cri.KeyValue{{Key: "POD_NAME", Value: fmt.Sprintf("pod-%d", i)}},
		})
		if err != nil {
			b.Fatal(err)
		}
		if err := rt.StartContainer(ctx, id); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/float64(b.N), "retained-B/pod")
	b.ReportMetric(float64(runtime.NumGoroutine()-goroutines)/float64(b.N), "goroutines/pod")
}
