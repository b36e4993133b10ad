package simulated_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

func TestSandboxLifecycle(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	cfg := cri.PodSandboxConfig{
		Metadata: cri.PodSandboxMetadata{Name: "web-0", Namespace: "shop", UID: "u1"},
		Hostname: "web-0.web", Labels: map[string]string{"app": "web"},
	}
	sb, err := h.rt.RunPodSandbox(h.ctx, cfg)
	require.NoError(t, err)
	assert.Len(t, sb, 64, "a containerd-like ID")

	st, err := h.rt.PodSandboxStatus(h.ctx, sb)
	require.NoError(t, err)
	assert.Equal(t, cri.SandboxReady, st.State)
	assert.Equal(t, "10.244.3.2", st.Network.IP, "the first address of the node's podCIDR")
	assert.Equal(t, "web-0.web", st.Hostname)
	assert.Equal(t, epoch, st.CreatedAt)
	assert.Equal(t, 1, h.ipam.Allocated())

	images, err := h.rt.ListImages(h.ctx)
	require.NoError(t, err)
	require.Len(t, images, 1, "the pause image")
	assert.Equal(t, []string{"registry.k8s.io/pause:3.10"}, images[0].RepoTags)
	assert.True(t, images[0].Pinned)

	_, err = h.rt.RunPodSandbox(h.ctx, cfg)
	assert.ErrorIs(t, err, cri.ErrAlreadyExists, "same metadata")
	cfg.Metadata.Attempt = 1
	retry, err := h.rt.RunPodSandbox(h.ctx, cfg)
	require.NoError(t, err, "next attempt")
	_, err = h.rt.RunPodSandbox(h.ctx, cri.PodSandboxConfig{})
	assert.ErrorIs(t, err, cri.ErrFailedPrecondition, "no metadata")

	list, err := h.rt.ListPodSandbox(h.ctx, cri.PodSandboxFilter{LabelSelector: map[string]string{"app": "web"}})
	require.NoError(t, err)
	require.Len(t, list, 2)
	assert.Equal(t, []string{sb, retry}, []string{list[0].ID, list[1].ID}, "oldest first")

	c := h.startIn(sb, cri.ContainerConfig{Image: "busybox", Command: shCmd("echo $HOSTNAME; sleep 3600")})
	assert.Equal(t, "web-0.web\n", h.logs(c, cri.LogOptions{}))

	require.NoError(t, h.rt.StopPodSandbox(h.ctx, sb))
	cst := h.status(c)
	assert.Equal(t, cri.ContainerExited, cst.State, "StopPodSandbox kills the containers")
	assert.Equal(t, int32(137), cst.ExitCode)
	st, err = h.rt.PodSandboxStatus(h.ctx, sb)
	require.NoError(t, err)
	assert.Equal(t, cri.SandboxNotReady, st.State)
	assert.Empty(t, st.Network.IP)
	assert.Equal(t, 1, h.ipam.Allocated(), "the IP is released")
	require.NoError(t, h.rt.StopPodSandbox(h.ctx, sb), "second stop")

	_, err = h.rt.CreateContainer(h.ctx, sb, cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "late"}, Image: "busybox"})
	assert.ErrorIs(t, err, cri.ErrFailedPrecondition, "create in a stopped sandbox")
	ready, err := h.rt.ListPodSandbox(h.ctx, cri.PodSandboxFilter{State: cri.SandboxReady})
	require.NoError(t, err)
	require.Len(t, ready, 1)
	assert.Equal(t, retry, ready[0].ID)

	require.NoError(t, h.rt.RemovePodSandbox(h.ctx, sb))
	require.NoError(t, h.rt.RemovePodSandbox(h.ctx, sb), "second remove")
	_, err = h.rt.PodSandboxStatus(h.ctx, sb)
	assert.ErrorIs(t, err, cri.ErrNotFound)
	_, err = h.rt.ContainerStatus(h.ctx, c)
	assert.ErrorIs(t, err, cri.ErrNotFound, "the sandbox's containers are removed with it")
	cfg.Metadata.Attempt = 0
	_, err = h.rt.RunPodSandbox(h.ctx, cfg)
	require.NoError(t, err, "the name is free again")

	// Removing a ready sandbox stops it first.
	require.NoError(t, h.rt.RemovePodSandbox(h.ctx, retry))
	assert.Equal(t, 1, h.ipam.Allocated())
}
