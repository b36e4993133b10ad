package kubelet

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sync"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/streaming"
)

// serveExec serves
//
//	GET|POST /exec/{namespace}/{pod}/{container}?command=...&input=&output=&error=&tty=
//
// which the API server's pods/exec relays: it runs the command in the
// running container over the streams the client upgraded to (see package
// streaming), and reports its exit code on the error channel.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/server (Server.getExec) and the
// CRI runtime's streaming server, which minicp's kubelet is at once.
func (k *Kubelet) serveExec(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	opts, err := streaming.OptionsFromQuery(q)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	cmd := q["command"]
	if len(cmd) == 0 {
		http.Error(w, "you must specify at least one command for the container", http.StatusBadRequest)
		return
	}
	id, code, err := k.runningContainer(r.Context(), r.PathValue("namespace"), r.PathValue("pod"), r.PathValue("container"))
	if err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	streaming.ServeRemoteCommand(w, r, opts, func(ctx context.Context, s streaming.Streams) error {
		exitCode, err := k.runtime.Exec(ctx, id, cmd, cri.ExecStreams{Stdin: s.Stdin, Stdout: s.Stdout, Stderr: s.Stderr, TTY: opts.TTY})
		switch {
		case err != nil:
			return err
		case exitCode != 0:
			return &streaming.ExitError{Code: int(exitCode), Command: cmd}
		}
		return nil
	})
}

// serveAttach serves
//
//	GET|POST /attach/{namespace}/{pod}/{container}?input=&output=&error=&tty=
//
// which the API server's pods/attach relays: the client sees what the
// container's main process writes from now on, until it exits, and
// what it types goes to the process's stdin if the container has one
// (spec stdin: true; otherwise it is dropped).
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/server (Server.getAttach).
func (k *Kubelet) serveAttach(w http.ResponseWriter, r *http.Request) {
	opts, err := streaming.OptionsFromQuery(r.URL.Query())
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	ns, podName, container := r.PathValue("namespace"), r.PathValue("pod"), r.PathValue("container")
	id, code, err := k.runningContainer(r.Context(), ns, podName, container)
	if err != nil {
		http.Error(w, err.Error(), code)
		return
	}
	hasStdin := false
	if pod, ok := k.source.get(ns, podName); ok {
		for _, c := range pod.Spec.Containers {
			hasStdin = hasStdin || c.Name == container && c.Stdin
		}
	}
	streaming.ServeRemoteCommand(w, r, opts, func(ctx context.Context, s streaming.Streams) error {
		return k.attach(ctx, id, opts, s, hasStdin)
	})
}

// attach follows the container's output streams from now on (its log,
// which is what the process writes) until the container exits or ctx
// ends, and copies the client's stdin to the process's if hasStdin.
func (k *Kubelet) attach(ctx context.Context, id string, opts streaming.Options, s streaming.Streams, hasStdin bool) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	none := int64(0)
	follow := func(w io.Writer, stream cri.LogStream) error {
		rc, err := k.runtime.ContainerLogs(ctx, id, cri.LogOptions{Follow: true, TailLines: &none, Stream: stream})
		if err != nil {
			return err
		}
		defer rc.Close()
		_, err = io.Copy(w, rc)
		if errors.Is(err, context.Canceled) {
			err = nil
		}
		return err
	}
	var (
		wg        sync.WaitGroup
		followers int
		firstErr  error
	)
	// errCh has room for each follower's error.
	errCh := make(chan error, 2)
	start := func(w io.Writer, stream cri.LogStream) {
		followers++
		wg.Go(func() { errCh <- follow(w, stream) })
	}
	switch {
	case opts.TTY && s.Stdout != nil:
		// One terminal: both streams, as written.
		start(s.Stdout, "")
	default:
		if s.Stdout != nil {
			start(s.Stdout, cri.Stdout)
		}
		if s.Stderr != nil {
			start(s.Stderr, cri.Stderr)
		}
	}
	if s.Stdin != nil {
		wg.Go(func() {
			if hasStdin {
				_ = k.runtime.AttachStdin(ctx, id, s.Stdin)
			}
			// What the process does not take is dropped: a client's
			// stdin left unread would stall its connection.
			_, _ = io.Copy(io.Discard, s.Stdin)
		})
	}
	// The followers end with the container or ctx; then stdin is closed
	// to end its copy.
	for range followers {
		if err := <-errCh; err != nil && firstErr == nil {
			firstErr = err
		}
	}
	if s.Stdin != nil {
		_ = s.Stdin.Close()
	}
	wg.Wait()
	return firstErr
}

// servePortForward serves
//
//	GET|POST /portForward/{namespace}/{pod}
//
// which the API server's pods/portforward relays: each connection the
// client opens goes to a port of the pod's network.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/server (Server.getPortForward).
func (k *Kubelet) servePortForward(w http.ResponseWriter, r *http.Request) {
	ns, podName := r.PathValue("namespace"), r.PathValue("pod")
	pod, ok := k.source.get(ns, podName)
	if !ok {
		http.Error(w, "pod does not exist", http.StatusNotFound)
		return
	}
	rt, err := k.readPodRuntime(r.Context(), pod.UID)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	sb := rt.sandboxReady()
	if sb == nil {
		http.Error(w, fmt.Sprintf("pod %s has no running sandbox", podName), http.StatusBadRequest)
		return
	}
	sandboxID := sb.ID
	streaming.ServePortForward(w, r, podName, func(ctx context.Context, port uint16) (net.Conn, error) {
		return k.runtime.PortForward(ctx, sandboxID, port)
	})
}

// runningContainer returns the ID of the container's running run, or
// the status code and message to answer with: 404 for a pod not on this
// node or a container not in it, 400 for one that does not run.
func (k *Kubelet) runningContainer(ctx context.Context, ns, podName, container string) (string, int, error) {
	pod, ok := k.source.get(ns, podName)
	if !ok {
		return "", http.StatusNotFound, errors.New("pod does not exist")
	}
	if !hasContainer(pod, container) {
		return "", http.StatusNotFound, fmt.Errorf("container not found (%q)", container)
	}
	rt, err := k.readPodRuntime(ctx, pod.UID)
	if err != nil {
		return "", http.StatusInternalServerError, err
	}
	if c := rt.latest(container); c != nil && c.State == cri.ContainerRunning {
		return c.ID, 0, nil
	}
	return "", http.StatusBadRequest, fmt.Errorf("container %s is not running in pod %s", container, podName)
}

// hijackedHandlers counts the handlers running on hijacked connections,
// so that the server can wait for them: they end with the server's
// context.
type hijackedHandlers struct {
	// mu guards closed, and orders every wg.Add before closeAndWait's
	// wg.Wait.
	mu     sync.Mutex
	closed bool
	wg     sync.WaitGroup
}

// wrap counts h's calls; once closed it answers 503.
func (g *hijackedHandlers) wrap(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		if g.closed {
			g.mu.Unlock()
			http.Error(w, "the kubelet is stopping", http.StatusServiceUnavailable)
			return
		}
		g.wg.Add(1)
		g.mu.Unlock()
		defer g.wg.Done()
		h(w, r)
	}
}

// closeAndWait refuses new calls and waits for those running.
func (g *hijackedHandlers) closeAndWait() {
	g.mu.Lock()
	g.closed = true
	g.mu.Unlock()
	g.wg.Wait()
}
