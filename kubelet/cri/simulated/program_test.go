package simulated_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// TestProgramServesItsHandler runs a programmable image: its Program
// sees the pod, the environment and the mounted files, its handler
// answers at the pod's IP on the declared port, its logger writes the
// container log, and its goroutines end before the container is seen
// exited.
func TestProgramServesItsHandler(t *testing.T) {
	var stopped atomic.Bool
	shop := func(ctx context.Context, c *simulated.ContainerContext) (http.Handler, error) {
		greeting, err := c.ReadFile("/etc/shop/greeting")
		if err != nil {
			return nil, err
		}
		c.Go(func(ctx context.Context) {
			<-ctx.Done()
			stopped.Store(true)
		})
		c.Logger.Info("shop starting", "ports", fmt.Sprint(c.Ports))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "%s from %s/%s (%s, %s) at %s, region %s, args %v",
				greeting, c.PodNamespace, c.PodName, c.ContainerName, c.Hostname, c.PodIP, c.Getenv("REGION"), c.Args)
		}), nil
	}
	h := newHarness(t, simulated.Options{Programs: map[string]simulated.Program{"example.com/shop:v1": shop}})
	sb := h.sandbox("shop")
	ip := h.podIP(sb)
	id := h.startIn(sb, cri.ContainerConfig{
		Image: "example.com/shop:v1", Args: []string{"--verbose"},
		Ports:  []cri.PortMapping{{ContainerPort: 9090}},
		Envs:   []cri.KeyValue{{Key: "REGION", Value: "eu"}},
		Mounts: []cri.Mount{{ContainerPath: "/etc/shop", Files: map[string]string{"greeting": "hello"}, Readonly: true}},
	})
	require.Equal(t, cri.ContainerRunning, h.status(id).State)

	resp, body, err := h.get(fmt.Sprintf("http://%s:9090/", ip))
	require.NoError(t, err, "GET the program at the pod's IP")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, fmt.Sprintf("hello from default/shop (main, shop) at %s, region eu, args [/shop --verbose]", ip), body)
	assert.Contains(t, h.logs(id, cri.LogOptions{Stream: cri.Stdout}), `level=INFO msg="shop starting" ports=[9090]`)
	_, _, err = h.get(fmt.Sprintf("http://%s:8080/", ip))
	assert.Error(t, err, "a declared port replaces the default one")

	require.NoError(t, h.rt.StopContainer(h.ctx, id, 30*time.Second))
	st := h.status(id)
	assert.Equal(t, cri.ContainerExited, st.State)
	assert.Equal(t, int32(0), st.ExitCode, "a server exits 0 on SIGTERM")
	assert.True(t, stopped.Load(), "the program's goroutine ended before the container exited")
	_, _, err = h.get(fmt.Sprintf("http://%s:9090/", ip))
	assert.Error(t, err, "nothing listens after the stop")
}

// TestProgramDefaultPort checks that a container declaring no port is
// served on ProgramPort.
func TestProgramDefaultPort(t *testing.T) {
	ok := func(context.Context, *simulated.ContainerContext) (http.Handler, error) {
		return http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { fmt.Fprint(w, "ok") }), nil
	}
	h := newHarness(t, simulated.Options{Programs: map[string]simulated.Program{"shop": ok}})
	sb := h.sandbox("shop")
	h.startIn(sb, cri.ContainerConfig{Image: "docker.io/library/shop:latest"})
	_, body, err := h.get(fmt.Sprintf("http://%s:%d/", h.podIP(sb), simulated.ProgramPort))
	require.NoError(t, err)
	assert.Equal(t, "ok", body, "the image is found by any name that normalizes the same")
}

// TestProgramFailsToStart checks that a Program that fails, or panics,
// makes its container exit 1 with the error in its log, as a process
// failing at start up does.
func TestProgramFailsToStart(t *testing.T) {
	tests := []struct {
		name    string
		program simulated.Program
		want    string
	}{
		{"error", func(context.Context, *simulated.ContainerContext) (http.Handler, error) {
			return nil, errors.New("no database")
		}, "Error: no database"},
		{"panic", func(context.Context, *simulated.ContainerContext) (http.Handler, error) {
			panic("boom")
		}, "Error: panic: boom"},
		{"no handler", func(context.Context, *simulated.ContainerContext) (http.Handler, error) {
			return nil, nil
		}, "Error: the program returned no handler"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, simulated.Options{Programs: map[string]simulated.Program{"example.com/bad:v1": tc.program}})
			id := h.start(cri.ContainerConfig{Image: "example.com/bad:v1"})
			h.waitFor("the container to exit", func() bool { return h.status(id).State == cri.ContainerExited })
			st := h.status(id)
			assert.Equal(t, int32(1), st.ExitCode, "exit code of %s", tc.name)
			assert.Contains(t, h.logs(id, cri.LogOptions{Stream: cri.Stderr}), tc.want)
		})
	}
}

// TestProgramWithoutCluster checks what a Program learns when the
// runtime has no cluster network: no in-cluster client.
func TestProgramWithoutCluster(t *testing.T) {
	errCh := make(chan error, 1)
	prog := func(_ context.Context, c *simulated.ContainerContext) (http.Handler, error) {
		_, err := c.InClusterConfig()
		errCh <- err
		return http.NotFoundHandler(), nil
	}
	h := newHarness(t, simulated.Options{Programs: map[string]simulated.Program{"example.com/op:v1": prog}})
	h.start(cri.ContainerConfig{Image: "example.com/op:v1"})
	assert.ErrorIs(t, <-errCh, simulated.ErrNotInCluster)
}

func TestProgramOptionsValidated(t *testing.T) {
	_, err := simulated.New(simulated.Options{Programs: map[string]simulated.Program{"Bad Name": nil}})
	assert.Error(t, err, "an invalid image name")
	_, err = simulated.New(simulated.Options{Programs: map[string]simulated.Program{"shop": nil}})
	assert.Error(t, err, "a nil program")
}
