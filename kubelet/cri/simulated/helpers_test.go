package simulated_test

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet/cni"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/wait/waittest"
)

var epoch = time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC)

// harness is a started runtime on a fake clock.
type harness struct {
	t     *testing.T
	ctx   context.Context
	clock *clocktest.Fake
	ipam  *cni.HostLocal
	rt    *simulated.Runtime
	pods  int
}

// newHarness starts a runtime on a fake clock and a 10.244.3.0/24
// network; t.Cleanup stops it and waits for Start to return.
func newHarness(t *testing.T, opts simulated.Options) *harness {
	t.Helper()
	h := &harness{t: t, ctx: t.Context(), clock: clocktest.NewFake(epoch)}
	if opts.Clock == nil {
		opts.Clock = h.clock
	}
	if opts.Network == nil {
		ipam, err := cni.New(cni.Options{Subnet: netip.MustParsePrefix("10.244.3.0/24")})
		require.NoError(t, err)
		h.ipam, opts.Network = ipam, ipam
	}
	rt, err := simulated.New(opts)
	require.NoError(t, err, "New")
	h.rt = rt
	clustertest.Start(t, rt)
	return h
}

// sandbox runs a sandbox for pod name in namespace default.
func (h *harness) sandbox(name string) string {
	h.t.Helper()
	id, err := h.rt.RunPodSandbox(h.ctx, cri.PodSandboxConfig{
		Metadata: cri.PodSandboxMetadata{Name: name, Namespace: "default", UID: "uid-" + name},
		Labels:   map[string]string{"app": name},
	})
	require.NoError(h.t, err, "RunPodSandbox(%s)", name)
	return id
}

// create pulls the image and creates the container.
func (h *harness) create(sandboxID string, cfg cri.ContainerConfig) string {
	h.t.Helper()
	if cfg.Metadata.Name == "" {
		cfg.Metadata.Name = "main"
	}
	_, err := h.rt.PullImage(h.ctx, cfg.Image)
	require.NoError(h.t, err, "PullImage(%s)", cfg.Image)
	id, err := h.rt.CreateContainer(h.ctx, sandboxID, cfg)
	require.NoError(h.t, err, "CreateContainer(%s)", cfg.Metadata.Name)
	return id
}

// start creates and starts a container in a new sandbox of its own.
func (h *harness) start(cfg cri.ContainerConfig) string {
	h.t.Helper()
	h.pods++
	return h.startIn(h.sandbox(fmt.Sprintf("pod-%d", h.pods)), cfg)
}

func (h *harness) startIn(sandboxID string, cfg cri.ContainerConfig) string {
	h.t.Helper()
	id := h.create(sandboxID, cfg)
	require.NoError(h.t, h.rt.StartContainer(h.ctx, id), "StartContainer(%s)", cfg.Metadata.Name)
	return id
}

func (h *harness) status(id string) cri.ContainerStatus {
	h.t.Helper()
	st, err := h.rt.ContainerStatus(h.ctx, id)
	require.NoError(h.t, err, "ContainerStatus(%s)", id)
	return st
}

// waitFor waits until cond holds, waking on the runtime's Changed, for at
// most waittest.Timeout of real time.
func (h *harness) waitFor(what string, cond func() bool) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.ctx, waittest.Timeout)
	defer cancel()
	for {
		changed := h.rt.Changed()
		if cond() {
			return
		}
		select {
		case <-changed:
		case <-ctx.Done():
			h.t.Fatalf("waiting for %s: %v", what, ctx.Err())
		}
	}
}

// runToExit steps the clock an hour at a time until the container exits,
// and returns its status.
func (h *harness) runToExit(id string) cri.ContainerStatus {
	h.t.Helper()
	for range 1000 {
		if st := h.status(id); st.State == cri.ContainerExited {
			return st
		}
		h.clock.Step(time.Hour)
	}
	h.t.Fatalf("container %s did not exit", id)
	return cri.ContainerStatus{}
}

// logs reads the whole log, without following.
func (h *harness) logs(id string, opts cri.LogOptions) string {
	h.t.Helper()
	rc, err := h.rt.ContainerLogs(h.ctx, id, opts)
	require.NoError(h.t, err, "ContainerLogs(%s)", id)
	defer rc.Close()
	b, err := io.ReadAll(rc)
	require.NoError(h.t, err, "reading the logs of %s", id)
	return string(b)
}

func shCmd(script string) []string { return []string{"sh", "-c", script} }
