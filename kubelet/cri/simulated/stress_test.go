package simulated_test

import (
	"fmt"
	"io"
	"net/netip"
	"runtime"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// TestConcurrentPods runs many pods at once, on a clock a goroutine keeps
// stepping, with readers following logs, and tears everything down. Run
// with -race.
func TestConcurrentPods(t *testing.T) {
	if testing.Short() {
		t.Skip("stress test")
	}
	h := newHarness(t, simulated.Options{})
	for _, image := range []string{"busybox", "nginx", "redis"} {
		_, err := h.rt.PullImage(h.ctx, image)
		require.NoError(t, err)
	}
	scripts := []cri.ContainerConfig{
		{Image: "busybox", Command: shCmd("for i in $(seq 5); do echo $i; sleep 0.3; done; exit 2")},
		{Image: "busybox", Command: shCmd("trap 'exit 0' TERM; while true; do date; sleep 1; done")},
		{Image: "busybox", Command: []string{"sleep", "3600"}},
		{Image: "nginx"},
		{Image: "redis"},
	}
	const pods = 40

	stop := make(chan struct{})
	var stepper sync.WaitGroup
	stepper.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				h.clock.Step(100 * time.Millisecond)
				// Let the runtime catch up before the next step (any call
				// runs what is due), so the clock cannot run away from
				// the containers.
				_, _ = h.rt.ListPodSandbox(h.ctx, cri.PodSandboxFilter{ID: "pace"})
				runtime.Gosched()
			}
		}
	})

	var wg sync.WaitGroup
	errs := make(chan error, pods*10)
	for p := range pods {
		wg.Go(func() {
			report := func(err error) {
				if err != nil {
					errs <- fmt.Errorf("pod %d: %w", p, err)
				}
			}
			sb, err := h.rt.RunPodSandbox(h.ctx, cri.PodSandboxConfig{Metadata: cri.PodSandboxMetadata{Name: fmt.Sprintf("p%d", p), Namespace: "stress"}})
			if err != nil {
				report(err)
				return
			}
			var ids []string
			for i, cfg := range scripts[:1+p%len(scripts)] {
				cfg.Metadata.Name = fmt.Sprintf("c%d", i)
				id, err := h.rt.CreateContainer(h.ctx, sb, cfg)
				if err != nil {
					report(err)
					continue
				}
				report(h.rt.StartContainer(h.ctx, id))
				ids = append(ids, id)
			}
			// Follow the first container's log to its end.
			if rc, err := h.rt.ContainerLogs(h.ctx, ids[0], cri.LogOptions{Follow: true}); err == nil {
				if p%2 == 0 {
					report(h.rt.StopContainer(h.ctx, ids[0], 2*time.Second))
				}
				_, err = io.Copy(io.Discard, rc)
				report(err)
				rc.Close()
			}
			if len(ids) > 3 {
				st, err := h.rt.PodSandboxStatus(h.ctx, sb)
				report(err)
				if _, ok := h.rt.HostAddr(netip.AddrPortFrom(netip.MustParseAddr(st.Network.IP), 80)); !ok {
					report(fmt.Errorf("nginx of sandbox %s does not listen", sb))
				}
			}
			for _, id := range ids {
				report(h.rt.StopContainer(h.ctx, id, time.Second))
			}
			_, err = h.rt.ListContainers(h.ctx, cri.ContainerFilter{PodSandboxID: sb})
			report(err)
			report(h.rt.RemovePodSandbox(h.ctx, sb))
		})
	}
	wg.Wait()
	close(stop)
	stepper.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	list, err := h.rt.ListPodSandbox(h.ctx, cri.PodSandboxFilter{})
	require.NoError(t, err)
	assert.Empty(t, list, "every sandbox removed")
	assert.Zero(t, h.ipam.Allocated(), "every IP released")
}
