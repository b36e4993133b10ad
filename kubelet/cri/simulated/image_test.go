package simulated_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

func TestPullImage(t *testing.T) {
	h := newHarness(t, simulated.Options{})
	tests := []struct {
		image   string
		wantTag string
		wantErr bool
	}{
		{image: "nginx", wantTag: "docker.io/library/nginx:latest"},
		{image: "nginx:1.27", wantTag: "docker.io/library/nginx:1.27"},
		{image: "minicp/http-echo", wantTag: "docker.io/minicp/http-echo:latest"},
		{image: "registry.k8s.io/echoserver:1.10", wantTag: "registry.k8s.io/echoserver:1.10"},
		{image: "localhost:5000/app", wantTag: "localhost:5000/app:latest"},
		{image: "nginx:doesnotexist", wantErr: true},
		{image: "example.com/doesnotexist/app:v1", wantErr: true},
		{image: "Nginx", wantErr: true},
		{image: "", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.image, func(t *testing.T) {
			ref, err := h.rt.PullImage(h.ctx, tc.image)
			if tc.wantErr {
				require.ErrorIs(t, err, cri.ErrImagePull, "PullImage(%q)", tc.image)
				st, err := h.rt.ImageStatus(h.ctx, "busybox")
				assert.NoError(t, err)
				assert.Nil(t, st)
				return
			}
			require.NoError(t, err, "PullImage(%q)", tc.image)
			st, err := h.rt.ImageStatus(h.ctx, tc.image)
			require.NoError(t, err)
			require.NotNil(t, st, "ImageStatus(%q) after the pull", tc.image)
			assert.Equal(t, ref, st.ID)
			assert.Equal(t, []string{tc.wantTag}, st.RepoTags)
			byID, err := h.rt.ImageStatus(h.ctx, ref)
			require.NoError(t, err)
			assert.Equal(t, st, byID, "by ID")
		})
	}
	_, err := h.rt.PullImage(h.ctx, "nginx:doesnotexist")
	assert.ErrorContains(t, err, `failed to pull and unpack image "docker.io/library/nginx:doesnotexist"`)

	images, err := h.rt.ListImages(h.ctx)
	require.NoError(t, err)
	assert.Len(t, images, 5)
	require.NoError(t, h.rt.RemoveImage(h.ctx, "nginx"))
	require.NoError(t, h.rt.RemoveImage(h.ctx, "nginx"), "second remove")
	st, err := h.rt.ImageStatus(h.ctx, "nginx")
	require.NoError(t, err)
	assert.Nil(t, st)
}

func TestPullDelayAndFailureHooks(t *testing.T) {
	h := newHarness(t, simulated.Options{
		PullDelay: func(image string) time.Duration {
			if image == "docker.io/library/postgres:16" {
				return 20 * time.Second
			}
			return 0
		},
		PullError: func(image string) error {
			if image == "docker.io/library/private:1" {
				return context.DeadlineExceeded // any error
			}
			return nil
		},
	})
	_, err := h.rt.PullImage(h.ctx, "private:1")
	assert.ErrorIs(t, err, cri.ErrImagePull)
	_, err = h.rt.PullImage(h.ctx, "nginx:doesnotexist")
	assert.NoError(t, err, "the hook replaces the default")

	done := make(chan error, 1)
	go func() {
		_, err := h.rt.PullImage(h.ctx, "postgres:16")
		done <- err
	}()
	require.NoError(t, h.clock.BlockUntilWaiters(h.ctx, 1), "the pull waits on the clock")
	h.clock.Step(19 * time.Second)
	select {
	case err := <-done:
		t.Fatalf("PullImage returned %v after 19s of 20", err)
	default:
	}
	h.clock.Step(time.Second)
	require.NoError(t, <-done)

	ctx, cancel := context.WithCancel(h.ctx)
	cancel()
	_, err = h.rt.PullImage(ctx, "postgres:16")
	assert.ErrorIs(t, err, context.Canceled)
}
