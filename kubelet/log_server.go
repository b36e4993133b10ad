package kubelet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/kubelet/cri"
)

// logServerShutdownTimeout bounds the wait for log streams when the
// kubelet stops. Their contexts end with the kubelet's, so they return at
// once unless a client stopped reading; such connections are cut.
const logServerShutdownTimeout = 5 * time.Second

// serveLogs serves the kubelet's HTTP API on ln until ctx is done:
//
//	GET /containerLogs/{namespace}/{pod}/{container}?follow=&tailLines=&timestamps=&sinceSeconds=&sinceTime=&limitBytes=&previous=
//
// which the API server's pods/log relays; GET /stats/summary, the usage
// metrics.k8s.io reports (stats_summary.go); and the streaming endpoints of
// exec_server.go (exec, attach, portForward). Shutdown: the listener closes,
// streams end with ctx, and serveLogs returns once every connection is
// closed.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/server (Server, getContainerLogs),
// HTTPS on port 10250; minicp's is plain HTTP on a port from the kernel,
// which the node reports as daemonEndpoints.kubeletEndpoint.Port.
func (k *Kubelet) serveLogs(ctx context.Context, ln net.Listener) {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /containerLogs/{namespace}/{pod}/{container}", k.serveContainerLogs)
	mux.HandleFunc("GET /stats/summary", k.serveStatsSummary)
	// The streaming endpoints take GET (WebSocket) and POST (SPDY). Their
	// connections are hijacked, which Shutdown does not wait for: streams
	// does.
	var streams hijackedHandlers
	defer streams.closeAndWait()
	mux.HandleFunc("/exec/{namespace}/{pod}/{container}", streams.wrap(k.serveExec))
	mux.HandleFunc("/attach/{namespace}/{pod}/{container}", streams.wrap(k.serveAttach))
	mux.HandleFunc("/portForward/{namespace}/{pod}", streams.wrap(k.servePortForward))
	srv := &http.Server{
		Handler: mux,
		// Slow clients may not hold a connection without sending headers.
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          slog.NewLogLogger(k.log.Handler(), slog.LevelWarn),
	}
	// errCh has room for Serve's one error, so its goroutine never
	// blocks on it.
	errCh := make(chan error, 1)
	var wg sync.WaitGroup
	defer wg.Wait()
	wg.Go(func() { errCh <- srv.Serve(ln) })
	select {
	case err := <-errCh:
		k.log.Error("log server failed", "err", err)
		return
	case <-ctx.Done():
	}
	shutdownCtx, cancel := context.WithTimeout(context.WithoutCancel(ctx), logServerShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(shutdownCtx); err != nil {
		_ = srv.Close()
	}
	<-errCh
}

// serveContainerLogs streams one container's log. The pod must be bound
// to this node (404 otherwise) and the container must have run (400 with
// upstream's words otherwise: "container x in pod y is waiting to start").
func (k *Kubelet) serveContainerLogs(w http.ResponseWriter, r *http.Request) {
	ns, podName, container := r.PathValue("namespace"), r.PathValue("pod"), r.PathValue("container")
	q := r.URL.Query()
	opts, previous, err := logOptions(q, k.clock.Now())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	pod, ok := k.source.get(ns, podName)
	if !ok {
		http.Error(w, fmt.Sprintf("pod %q does not exist", podName), http.StatusNotFound)
		return
	}
	if !hasContainer(pod, container) {
		http.Error(w, fmt.Sprintf("container %q not found in pod %q", container, podName), http.StatusNotFound)
		return
	}
	if latest, ok := k.workers.latest(pod.UID); ok {
		pod = latest
	}
	id, err := logContainerID(pod, container, previous)
	if err != nil {
		// The informer's copy may not have the status this kubelet wrote
		// a moment ago (a pod that just finished): ask the API server
		// before saying the container has not run.
		if fresh, gerr := k.cs.Pods(ns).Get(r.Context(), podName, client.GetOptions{}); gerr == nil && fresh.UID == pod.UID {
			id, err = logContainerID(fresh, container, previous)
		}
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	rc, err := k.runtime.ContainerLogs(r.Context(), id, opts)
	if errors.Is(err, cri.ErrNotFound) {
		http.Error(w, fmt.Sprintf("container %q in pod %q: its log is gone", container, podName), http.StatusNotFound)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	defer rc.Close()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.WriteHeader(http.StatusOK)
	copyFlushing(w, rc)
}

// copyFlushing copies the log to w, flushing after each chunk so that a
// followed log shows lines as they are written. It ends with the log, or
// when the client goes away.
func copyFlushing(w http.ResponseWriter, rc io.Reader) {
	rctl := http.NewResponseController(w)
	// 32 KiB is io.Copy's buffer: a whole log in a few writes, a followed
	// one a line or so at a time.
	buf := make([]byte, 32<<10)
	for {
		n, err := rc.Read(buf)
		if n > 0 {
			if _, werr := w.Write(buf[:n]); werr != nil {
				return
			}
			_ = rctl.Flush()
		}
		if err != nil {
			return
		}
	}
}

func hasContainer(pod *corev1.Pod, name string) bool {
	for _, cs := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range cs {
			if c.Name == name {
				return true
			}
		}
	}
	return false
}

// logContainerID finds the run of a container whose log is asked for in
// the pod's status: the current one, or with previous the one before.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (Kubelet.validateContainerLogStatus).
func logContainerID(pod *corev1.Pod, name string, previous bool) (string, error) {
	var cs *corev1.ContainerStatus
	for _, list := range [][]corev1.ContainerStatus{pod.Status.InitContainerStatuses, pod.Status.ContainerStatuses} {
		for i := range list {
			if list[i].Name == name {
				cs = &list[i]
			}
		}
	}
	if cs == nil {
		return "", fmt.Errorf("container %q in pod %q is waiting to start - no logs yet", name, pod.Name)
	}
	last, state := cs.LastTerminationState.Terminated, cs.State
	var id string
	switch {
	case previous:
		if last == nil || last.ContainerID == "" {
			return "", fmt.Errorf("previous terminated container %q in pod %q not found", name, pod.Name)
		}
		id = last.ContainerID
	case state.Running != nil:
		id = cs.ContainerID
	case state.Terminated != nil:
		id = state.Terminated.ContainerID
		if id == "" && last != nil {
			id = last.ContainerID
		}
		if id == "" {
			return "", fmt.Errorf("container %q in pod %q is terminated", name, pod.Name)
		}
	case last != nil && last.ContainerID != "":
		id = last.ContainerID
	case state.Waiting != nil:
		switch reason := state.Waiting.Reason; reason {
		case "ErrImagePull":
			return "", fmt.Errorf("container %q in pod %q is waiting to start: image can't be pulled", name, pod.Name)
		case "ImagePullBackOff":
			return "", fmt.Errorf("container %q in pod %q is waiting to start: trying and failing to pull image", name, pod.Name)
		default:
			return "", fmt.Errorf("container %q in pod %q is waiting to start: %v", name, pod.Name, reason)
		}
	default:
		return "", fmt.Errorf("container %q in pod %q is waiting to start - no logs yet", name, pod.Name)
	}
	_, raw, _ := strings.Cut(id, "://")
	return raw, nil
}

// logOptions reads the PodLogOptions of a log request.
func logOptions(q map[string][]string, now time.Time) (cri.LogOptions, bool, error) {
	get := func(k string) string {
		if v := q[k]; len(v) > 0 {
			return v[0]
		}
		return ""
	}
	var opts cri.LogOptions
	flags := map[string]*bool{"follow": &opts.Follow, "timestamps": &opts.Timestamps}
	var previous bool
	flags["previous"] = &previous
	for key, dst := range flags {
		if v := get(key); v != "" {
			b, err := strconv.ParseBool(v)
			if err != nil {
				return opts, false, fmt.Errorf("%s: invalid boolean %q", key, v)
			}
			*dst = b
		}
	}
	for key, set := range map[string]func(int64) error{
		"tailLines": func(n int64) error {
			if n < 0 {
				return errors.New("must be greater than or equal to 0")
			}
			opts.TailLines = &n
			return nil
		},
		"sinceSeconds": func(n int64) error {
			if n < 1 {
				return errors.New("must be greater than 0")
			}
			opts.SinceTime = now.Add(-time.Duration(n) * time.Second)
			return nil
		},
		"limitBytes": func(n int64) error {
			if n < 1 {
				return errors.New("must be greater than 0")
			}
			opts.LimitBytes = n
			return nil
		},
	} {
		v := get(key)
		if v == "" {
			continue
		}
		n, err := strconv.ParseInt(v, 10, 64)
		if err == nil {
			err = set(n)
		}
		if err != nil {
			return opts, false, fmt.Errorf("%s=%s: %w", key, v, err)
		}
	}
	if v := get("sinceTime"); v != "" {
		t, err := time.Parse(time.RFC3339, v)
		if err != nil {
			return opts, false, fmt.Errorf("sinceTime: %w", err)
		}
		opts.SinceTime = t
	}
	switch get("stream") {
	case "", "All":
	case "Stdout":
		opts.Stream = cri.Stdout
	case "Stderr":
		opts.Stream = cri.Stderr
	default:
		return opts, false, fmt.Errorf("stream: unknown stream %q", get("stream"))
	}
	return opts, previous, nil
}
