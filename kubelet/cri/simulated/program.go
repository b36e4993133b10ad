package simulated

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// Program is what a container of a programmable image runs: Go code,
// registered under an image name with Options.Programs, that serves
// HTTP at the pod's IP on the container's ports, as a real image's
// server would. It is called once per container start, without any lock
// of the runtime, and returns the handler to serve; an error (or a
// panic) makes the container exit with code 1, the error in its log,
// as a process that fails at start up does, and the kubelet restarts it
// by the pod's restartPolicy.
//
// ctx is done when the container stops (SIGTERM, a kill, the runtime
// stopping); the handler is no longer called after that. Work that
// outlives the call, such as a controller's manager, runs through
// ContainerContext.Go so that the runtime owns its goroutines.
type Program func(ctx context.Context, c *ContainerContext) (http.Handler, error)

// ProgramPort is where a programmable image's server listens when its
// container declares no TCP port: the port most Go services use.
const ProgramPort = 8080

// ServiceAccountDir is where a pod's service account credentials are
// mounted in its containers (token, ca.crt, namespace).
const ServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount"

// ErrNotInCluster is what ContainerContext.InClusterConfig returns in a
// container that has no service account token mounted (the cluster runs
// without the ServiceAccount admission plugin, or the pod opts out with
// automountServiceAccountToken: false) or no cluster network to reach
// the API server through.
var ErrNotInCluster = errors.New("not running in a pod with a service account token and a cluster network")

// ContainerContext is what a Program knows of the container it runs in,
// as a process learns it from its environment: the pod's identity, the
// environment variables, the files (mounted ConfigMaps, Secrets and the
// service account token), the container's log, and the cluster network.
// Its methods are safe for concurrent use.
type ContainerContext struct {
	// PodName, PodNamespace and PodUID identify the pod.
	PodName, PodNamespace, PodUID string
	// ContainerName is the container's name in the pod.
	ContainerName string
	// Hostname is the pod's hostname.
	Hostname string
	// PodIP is the pod's IP as the API shows it (10.244.x.y); invalid
	// when the sandbox has none.
	PodIP netip.Addr
	// Ports are the TCP ports the handler is served on, at PodIP.
	Ports []int32
	// Args is the command line: the image's entrypoint (/<image's last
	// path element>) followed by the pod's args.
	Args []string
	// Env is the environment, "KEY=value" in the order a container has it.
	Env []string
	// Logger writes to the container's stdout, so `kubectl logs` shows
	// its records, stamped with the runtime's clock.
	Logger *slog.Logger

	r   *Runtime
	c   *container
	net ClusterNetwork
	run *programRun
}

// Getenv returns the value of the environment variable key, or "".
func (cc *ContainerContext) Getenv(key string) string {
	for _, kv := range cc.Env {
		if k, v, ok := strings.Cut(kv, "="); ok && k == key {
			return v
		}
	}
	return ""
}

// ReadFile returns the content of a file of the container: a mounted
// ConfigMap or Secret key, the service account token, /etc/hostname.
func (cc *ContainerContext) ReadFile(name string) ([]byte, error) {
	cc.r.lock()
	defer cc.r.unlock()
	if cc.c.fs == nil {
		return nil, fmt.Errorf("open %s: no such file or directory", name)
	}
	data, ok := cc.c.fs.Read(path.Clean(name))
	if !ok {
		return nil, fmt.Errorf("open %s: no such file or directory", name)
	}
	return []byte(data), nil
}

// DialContext connects as the pod would: to a ClusterIP, a pod IP, or a
// name resolved through cluster DNS with the pod's search path
// ("web", "web.default.svc"). Without a cluster network
// (Options.ClusterNetwork) it fails with ErrNotInCluster.
func (cc *ContainerContext) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	if cc.net == nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: ErrNotInCluster}
	}
	host, port, err := net.SplitHostPort(address)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}
	if _, err := netip.ParseAddr(host); err != nil {
		_, addrs, err := cc.net.LookupHost(ctx, cc.PodNamespace, host)
		if err != nil {
			return nil, &net.OpError{Op: "dial", Net: network, Err: err}
		}
		if len(addrs) == 0 {
			return nil, &net.OpError{Op: "dial", Net: network, Err: fmt.Errorf("lookup %s: no such host", host)}
		}
		address = net.JoinHostPort(addrs[0].String(), port)
	}
	return cc.net.DialContext(ctx, network, address)
}

// InClusterConfig returns the client configuration a pod's program
// uses to reach the API server, as client-go's rest.InClusterConfig
// builds it: the kubernetes Service (https://kubernetes.default.svc, or
// KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT when set) through
// the cluster network, hence through kube-proxy; the CA of the mounted
// ca.crt; the mounted token as the bearer token, so the API server sees
// the pod's ServiceAccount. It returns ErrNotInCluster when the
// container has no token mounted or no cluster network.
//
// The token is read once: it is valid for an hour, longer than a
// simulated run lasts.
func (cc *ContainerContext) InClusterConfig() (client.Config, error) {
	if cc.net == nil {
		return client.Config{}, ErrNotInCluster
	}
	token, err := cc.ReadFile(ServiceAccountDir + "/token")
	if err != nil {
		return client.Config{}, fmt.Errorf("%w: %w", ErrNotInCluster, err)
	}
	caPEM, err := cc.ReadFile(ServiceAccountDir + "/ca.crt")
	if err != nil {
		return client.Config{}, fmt.Errorf("%w: %w", ErrNotInCluster, err)
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(caPEM) {
		return client.Config{}, fmt.Errorf("in-cluster config: %s/ca.crt holds no certificate", ServiceAccountDir)
	}
	host, port := cc.Getenv("KUBERNETES_SERVICE_HOST"), cc.Getenv("KUBERNETES_SERVICE_PORT")
	if host == "" {
		host, port = "kubernetes.default.svc", "443"
	}
	tr := &http.Transport{
		DialContext:     cc.DialContext,
		TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12},
		// Connections go through kube-proxy, whose listener may change:
		// an idle one is not worth keeping long.
		IdleConnTimeout:     30 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
		ForceAttemptHTTP2:   true,
	}
	return client.Config{
		Host:        "https://" + net.JoinHostPort(host, port),
		BearerToken: strings.TrimSpace(string(token)),
		Transport:   tr,
		UserAgent:   cc.PodName + "/" + cc.ContainerName,
		Namespace:   cc.PodNamespace,
	}, nil
}

// Go runs f in a goroutine the runtime owns, until the container stops:
// f's ctx is done then, and the container is not seen exited before f
// has returned. After the container stopped, Go runs nothing.
func (cc *ContainerContext) Go(f func(ctx context.Context)) {
	cc.run.goFunc(f)
}

// programRun is one run of a Program: its context and its goroutines.
type programRun struct {
	ctx    context.Context
	cancel context.CancelFunc

	// mu guards stopped, and orders wg.Add before stop's wg.Wait.
	mu      sync.Mutex
	stopped bool
	wg      sync.WaitGroup
}

func newProgramRun() *programRun {
	ctx, cancel := context.WithCancel(context.Background())
	return &programRun{ctx: ctx, cancel: cancel}
}

func (p *programRun) goFunc(f func(ctx context.Context)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return
	}
	p.wg.Go(func() { f(p.ctx) })
}

// stop cancels the program's context and waits for its goroutines.
func (p *programRun) stop() {
	p.cancel()
	p.mu.Lock()
	p.stopped = true
	p.mu.Unlock()
	p.wg.Wait()
}

// programProfile is the profile of a programmable image: one server
// program, /<the repository's last element>, on ProgramPort unless the
// container declares ports, with a shell beside it so that `kubectl
// exec` works.
func programProfile(ref string) *imageProfile {
	name := path.Base(repoOf(ref))
	return &imageProfile{
		shell: true, entrypoint: []string{"/" + name}, servers: map[string]serverKind{name: serverProgram},
		ports: []int32{ProgramPort}, size: 20 * mb,
	}
}

// startProgram runs c's Program and serves its handler. It runs without
// mu, as an effect of serveLocked.
func (r *Runtime) startProgram(c *container, argv []string) {
	r.mu.Lock()
	if r.stopped || c.state != cri.ContainerRunning || c.dying || c.program == nil {
		r.mu.Unlock()
		return
	}
	cc := r.containerContextLocked(c, argv)
	// The token keeps Start's wg.Wait from returning while the program
	// starts, as in listen.
	r.wg.Add(1)
	r.mu.Unlock()
	defer r.wg.Done()

	h, err := callProgram(c.program, cc)
	if err != nil {
		cc.run.stop()
		r.lock()
		if c.state == cri.ContainerRunning && !c.dying {
			now := r.clock.Now()
			c.Write(shell.Stderr, now, fmt.Sprintf("Error: %v\n", err))
			r.exitLocked(c, exitWithCode(1, now))
		}
		r.unlock()
		return
	}
	r.listen(c, h, cc.run)
}

// callProgram calls p, turning a panic into an error: a crash of the
// program is its container's, not the kubelet's.
func callProgram(p Program, cc *ContainerContext) (h http.Handler, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = fmt.Errorf("panic: %v", v)
		}
	}()
	h, err = p(cc.run.ctx, cc)
	if err == nil && h == nil {
		err = errors.New("the program returned no handler")
	}
	return h, err
}

func (r *Runtime) containerContextLocked(c *container, argv []string) *ContainerContext {
	m := c.sb.config.Metadata
	cc := &ContainerContext{
		PodName: m.Name, PodNamespace: m.Namespace, PodUID: m.UID, ContainerName: c.config.Metadata.Name,
		Hostname: c.sb.hostname, PodIP: c.sb.ip, Ports: append([]int32(nil), c.ports...),
		Args: append([]string(nil), argv...), Env: c.environ(),
		r: r, c: c, net: r.clusterNet, run: newProgramRun(),
	}
	cc.Logger = slog.New(slog.NewTextHandler(&containerWriter{r: r, c: c}, &slog.HandlerOptions{
		Level: slog.LevelDebug,
		// The container log stamps each line with the runtime's clock.
		ReplaceAttr: func(groups []string, a slog.Attr) slog.Attr {
			if len(groups) == 0 && a.Key == slog.TimeKey {
				return slog.Attr{}
			}
			return a
		},
	}))
	return cc
}

// containerWriter writes to a running container's stdout.
type containerWriter struct {
	r *Runtime
	c *container
}

func (w *containerWriter) Write(p []byte) (int, error) {
	w.r.lock()
	if w.c.state == cri.ContainerRunning {
		w.c.Write(shell.Stdout, w.r.clock.Now(), string(p))
	}
	w.r.unlock()
	return len(p), nil
}
