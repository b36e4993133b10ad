package simulated

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"os"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// httpServer is one real HTTP server: a container's port, served on a
// loopback port the kernel chose.
type httpServer struct {
	port int32
	addr netip.AddrPort
	srv  *http.Server
	// done is closed when Serve has returned.
	done chan struct{}
}

// closeServers closes the servers and waits for their Serve to return.
func closeServers(servers []*httpServer) {
	for _, s := range servers {
		_ = s.srv.Close()
	}
	for _, s := range servers {
		<-s.done
	}
}

// tcpPorts returns the container's declared TCP ports.
func (c *container) tcpPorts() []int32 {
	var ports []int32
	for _, p := range c.config.Ports {
		if (p.Protocol == "" || p.Protocol == cri.ProtocolTCP) && !slices.Contains(ports, p.ContainerPort) {
			ports = append(ports, p.ContainerPort)
		}
	}
	return ports
}

// listenFlag returns the port of a -listen=:5678 argument, as
// hashicorp/http-echo takes it.
func listenFlag(argv []string) int32 {
	for _, a := range argv[1:] {
		if v, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), "listen="); ok {
			_, port, _ := strings.Cut(v, ":")
			if n, err := strconv.Atoi(port); err == nil && n > 0 && n < 65536 {
				return int32(n)
			}
		}
	}
	return 0
}

// serveLocked makes c's process a server: it takes its ports in the
// sandbox and, for HTTP servers, queues listening (I/O, done by unlock).
// A server listens on the container's declared TCP ports, or else on its
// image's default port.
func (r *Runtime) serveLocked(c *container, argv []string, at time.Time) {
	kind, _ := c.profile.server(path.Base(argv[0]))
	ports := c.tcpPorts()
	if len(ports) == 0 {
		if p := listenFlag(argv); kind == serverText && p != 0 {
			ports = []int32{p}
		} else {
			ports = slices.Clone(c.profile.ports)
		}
	}
	for _, port := range ports {
		if b := c.sb.ports[port]; b != nil && b.c != c {
			if kind == serverNginx {
				c.Write(shell.Stderr, at, fmt.Sprintf("%s [emerg] 1#1: bind() to 0.0.0.0:%d failed (98: Address already in use)\n", at.UTC().Format("2006/01/02 15:04:05"), port))
			} else {
				c.Write(shell.Stderr, at, fmt.Sprintf("listen tcp :%d: bind: address already in use\n", port))
			}
			r.exitLocked(c, exitWithCode(1, at))
			return
		}
	}
	for _, port := range ports {
		c.sb.ports[port] = &binding{c: c}
	}
	c.kind, c.ports = kind, ports
	switch kind {
	case serverNginx:
		stamp := at.UTC().Format("2006/01/02 15:04:05")
		c.Write(shell.Stdout, at, "/docker-entrypoint.sh: Configuration complete; ready for start up\n")
		c.Write(shell.Stderr, at, stamp+" [notice] 1#1: nginx/1.27.0\n"+stamp+" [notice] 1#1: start worker processes\n")
	case serverEcho, serverText:
		c.Write(shell.Stdout, at, fmt.Sprintf("server is listening on :%d\n", ports[0]))
	}
	switch {
	case kind == serverProgram && len(ports) > 0:
		r.effects = append(r.effects, func() { r.startProgram(c, argv) })
	case kind.http() && len(ports) > 0:
		h := r.handler(c, argv)
		r.effects = append(r.effects, func() { r.listen(c, h, nil) })
	}
}

// serverStoppedLocked logs what a server logs when SIGTERM stops it.
func (r *Runtime) serverStoppedLocked(c *container, at time.Time) {
	if c.kind == serverNginx {
		stamp := at.UTC().Format("2006/01/02 15:04:05")
		c.Write(shell.Stderr, at, stamp+" [notice] 1#1: signal 15 (SIGTERM) received, exiting\n"+stamp+" [notice] 1#1: exit\n")
	}
}

// listen starts c's HTTP servers, one per port, and attaches them (and
// run, the Program serving h, if any) to c unless c ended meanwhile, in
// which case it stops run. It runs without mu.
func (r *Runtime) listen(c *container, h http.Handler, run *programRun) {
	r.mu.Lock()
	if r.stopped || c.state != cri.ContainerRunning || c.dying {
		r.mu.Unlock()
		if run != nil {
			run.stop()
		}
		return
	}
	ports := slices.Clone(c.ports)
	// The token keeps Start's wg.Wait from returning while servers are
	// being started, so that the wg.Go calls below are legal.
	r.wg.Add(1)
	r.mu.Unlock()
	defer r.wg.Done()

	var (
		servers []*httpServer
		lerr    error
	)
	// With a cluster network a server listens where the pod IP is
	// served on this host, at its own port, so the proxy (and anyone
	// with the mapping) reaches it as a pod would; without one, on a
	// free port of 127.0.0.1.
	listenIP, anyPort := netip.MustParseAddr("127.0.0.1"), true
	if r.clusterNet != nil && c.sb.ip.IsValid() {
		listenIP, anyPort = r.clusterNet.ListenAddr(c.sb.ip), false
	}
	for _, port := range ports {
		bind := netip.AddrPortFrom(listenIP, 0)
		if !anyPort {
			bind = netip.AddrPortFrom(listenIP, uint16(port))
		}
		ln, err := net.Listen("tcp", bind.String())
		if err != nil && !anyPort {
			// The pod's address is taken on this host (another cluster
			// in the process has the same pod IP): serve on a free port,
			// reached through DialContext only, rather than fail the pod.
			r.logger.Warn("cannot listen on the pod's address; using a free port", "addr", bind.String(), "err", err)
			ln, err = net.Listen("tcp", "127.0.0.1:0")
		}
		if err != nil {
			lerr = err
			break
		}
		s := &httpServer{
			port: port,
			addr: ln.Addr().(*net.TCPAddr).AddrPort(),
			srv: &http.Server{
				Handler: h,
				// Slow or idle clients must not hold a connection forever.
				ReadHeaderTimeout: 10 * time.Second,
				ErrorLog:          slog.NewLogLogger(r.logger.Handler(), slog.LevelDebug),
			},
			done: make(chan struct{}),
		}
		r.wg.Go(func() {
			defer close(s.done)
			_ = s.srv.Serve(ln)
		})
		servers = append(servers, s)
	}

	r.lock()
	attached := false
	if c.state == cri.ContainerRunning && !c.dying {
		if lerr != nil {
			now := r.clock.Now()
			c.Write(shell.Stderr, now, fmt.Sprintf("listen tcp: %v\n", lerr))
			r.exitLocked(c, exitWithCode(1, now))
		} else {
			attached = true
			c.servers, c.run = servers, run
			for _, s := range servers {
				if b := c.sb.ports[s.port]; b != nil && b.c == c {
					b.host = s.addr
				}
			}
		}
	}
	r.unlock()
	if !attached {
		closeServers(servers)
		if run != nil {
			run.stop()
		}
	}
}

// HostAddr returns the loopback address where the HTTP server of the
// container listening on podAddr (a pod IP and a container port) really
// serves, and whether there is one. kube-proxy and probes use it, or
// DialContext, to reach a pod.
func (r *Runtime) HostAddr(podAddr netip.AddrPort) (netip.AddrPort, bool) {
	r.lock()
	defer r.unlock()
	sb, ok := r.sandboxByIP[podAddr.Addr()]
	if !ok {
		return netip.AddrPort{}, false
	}
	b, ok := sb.ports[int32(podAddr.Port())]
	if !ok || !b.host.IsValid() {
		return netip.AddrPort{}, false
	}
	return b.host, true
}

// DialContext connects to address, a pod IP and port, as if over the pod
// network: to the container's real HTTP server, or, for a server that
// does not speak HTTP (redis, postgres, an unknown image), to an
// in-memory connection that the server closes at once, which is enough
// for a TCP probe. A port nobody listens on gives connection refused; an
// IP that is not a ready sandbox of this runtime, no route to host. It
// has net.Dialer's signature, for http.Transport.
func (r *Runtime) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	opErr := func(err error) error {
		return &net.OpError{Op: "dial", Net: network, Err: &os.SyscallError{Syscall: "connect", Err: err}}
	}
	if network != "tcp" && network != "tcp4" {
		return nil, opErr(syscall.EPROTONOSUPPORT)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return nil, &net.OpError{Op: "dial", Net: network, Err: err}
	}
	r.lock()
	sb, ok := r.sandboxByIP[ap.Addr()]
	var (
		bound, isHTTP bool
		host          netip.AddrPort
	)
	if ok {
		if b := sb.ports[int32(ap.Port())]; b != nil {
			bound, isHTTP, host = true, b.c.kind.http(), b.host
		}
	}
	r.unlock()
	switch {
	case !ok:
		return nil, opErr(syscall.EHOSTUNREACH)
	case !bound || isHTTP && !host.IsValid():
		// An HTTP server that does not listen yet refuses, as a process
		// that has not bound its port does.
		return nil, opErr(syscall.ECONNREFUSED)
	case host.IsValid():
		var d net.Dialer
		return d.DialContext(ctx, "tcp", host.String())
	}
	client, server := net.Pipe()
	_ = server.Close()
	return client, nil
}

// handler returns the HTTP handler of c's server.
func (r *Runtime) handler(c *container, argv []string) http.Handler {
	switch c.kind {
	case serverNginx:
		return r.accessLog(c, combinedLog, http.HandlerFunc(nginx))
	case serverHTTPD:
		return r.accessLog(c, commonLog, http.HandlerFunc(httpd))
	case serverText:
		text := "hello-world"
		for _, a := range argv[1:] {
			if v, ok := strings.CutPrefix(strings.TrimLeft(a, "-"), "text="); ok {
				text = v
			}
		}
		return r.accessLog(c, combinedLog, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("X-App-Name", "http-echo")
			_, _ = io.WriteString(w, text+"\n")
		}))
	}
	pod := c.sb.config.Metadata
	hostname, ip := c.sb.hostname, c.sb.ipString()
	return r.accessLog(c, combinedLog, http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		echo(w, req, hostname, pod.Name, pod.Namespace, ip)
	}))
}

// logFormat writes an access log line.
type logFormat func(b *strings.Builder, req *http.Request, status, size int, now time.Time)

func commonLog(b *strings.Builder, req *http.Request, status, size int, now time.Time) {
	host, _, _ := net.SplitHostPort(req.RemoteAddr)
	fmt.Fprintf(b, "%s - - [%s] %q %d %d", host, now.UTC().Format("02/Jan/2006:15:04:05 -0700"),
		req.Method+" "+req.RequestURI+" "+req.Proto, status, size)
}

func combinedLog(b *strings.Builder, req *http.Request, status, size int, now time.Time) {
	commonLog(b, req, status, size, now)
	fmt.Fprintf(b, " %q %q", dash(req.Referer()), dash(req.UserAgent()))
}

func dash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// accessLog writes a line per request to the container's stdout, as
// nginx and httpd do.
func (r *Runtime) accessLog(c *container, format logFormat, h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		rec := &statusRecorder{ResponseWriter: w, status: http.StatusOK}
		h.ServeHTTP(rec, req)
		var b strings.Builder
		format(&b, req, rec.status, rec.size, r.clock.Now())
		b.WriteByte('\n')
		r.lock()
		if c.state == cri.ContainerRunning {
			c.Write(shell.Stdout, r.clock.Now(), b.String())
		}
		r.unlock()
	})
}

type statusRecorder struct {
	http.ResponseWriter
	status, size int
}

func (s *statusRecorder) WriteHeader(code int) {
	s.status = code
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(p []byte) (int, error) {
	n, err := s.ResponseWriter.Write(p)
	s.size += n
	return n, err
}

// NginxWelcomePage is what nginx serves at /.
const NginxWelcomePage = `<!DOCTYPE html>
<html>
<head>
<title>Welcome to nginx!</title>
<style>
html { color-scheme: light dark; }
body { width: 35em; margin: 0 auto;
font-family: Tahoma, Verdana, Arial, sans-serif; }
</style>
</head>
<body>
<h1>Welcome to nginx!</h1>
<p>If you see this page, the nginx web server is successfully installed and
working. Further configuration is required.</p>

<p>For online documentation and support please refer to
<a href="http://nginx.org/">nginx.org</a>.<br/>
Commercial support is available at
<a href="http://nginx.com/">nginx.com</a>.</p>

<p><em>Thank you for using nginx.</em></p>
</body>
</html>
`

func nginx(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Server", "nginx/1.27.0")
	w.Header().Set("Content-Type", "text/html")
	if req.URL.Path != "/" && req.URL.Path != "/index.html" {
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "<html>\r\n<head><title>404 Not Found</title></head>\r\n<body>\r\n<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx/1.27.0</center>\r\n</body>\r\n</html>\r\n")
		return
	}
	_, _ = io.WriteString(w, NginxWelcomePage)
}

func httpd(w http.ResponseWriter, req *http.Request) {
	w.Header().Set("Server", "Apache/2.4.62 (Unix)")
	w.Header().Set("Content-Type", "text/html")
	if req.URL.Path != "/" && req.URL.Path != "/index.html" {
		w.WriteHeader(http.StatusNotFound)
		_, _ = io.WriteString(w, "<!DOCTYPE HTML PUBLIC \"-//IETF//DTD HTML 2.0//EN\">\n<html><head>\n<title>404 Not Found</title>\n</head><body>\n<h1>Not Found</h1>\n<p>The requested URL was not found on this server.</p>\n</body></html>\n")
		return
	}
	_, _ = io.WriteString(w, "<html><body><h1>It works!</h1></body></html>\n")
}

// maxEchoBody bounds the request body echo copies back.
const maxEchoBody = 64 << 10

// echo answers with the request and the pod it reached, in the format of
// registry.k8s.io/echoserver.
func echo(w http.ResponseWriter, req *http.Request, hostname, pod, namespace, ip string) {
	w.Header().Set("Content-Type", "text/plain")
	var b strings.Builder
	fmt.Fprintf(&b, "\n\nHostname: %s\n\nPod Information:\n\tpod name=%s\n\tpod namespace=%s\n\tpod IP=%s\n\n", hostname, pod, namespace, ip)
	fmt.Fprintf(&b, "Server values:\n\tserver_version=minicp/http-echo\n\n")
	client, _, _ := net.SplitHostPort(req.RemoteAddr)
	fmt.Fprintf(&b, "Request Information:\n\tclient_address=%s\n\tmethod=%s\n\treal path=%s\n\tquery=%s\n\trequest_version=%d.%d\n\trequest_scheme=http\n\trequest_uri=http://%s%s\n\n",
		client, req.Method, req.URL.Path, req.URL.RawQuery, req.ProtoMajor, req.ProtoMinor, req.Host, req.RequestURI)
	b.WriteString("Request Headers:\n")
	names := make([]string, 0, len(req.Header)+1)
	for name := range req.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	fmt.Fprintf(&b, "\thost=%s\n", req.Host)
	for _, name := range names {
		fmt.Fprintf(&b, "\t%s=%s\n", strings.ToLower(name), strings.Join(req.Header[name], ","))
	}
	body, _ := io.ReadAll(io.LimitReader(req.Body, maxEchoBody))
	if len(body) == 0 {
		b.WriteString("\nRequest Body:\n\t-no body in request-\n\n")
	} else {
		fmt.Fprintf(&b, "\nRequest Body:\n%s\n", body)
	}
	_, _ = io.WriteString(w, b.String())
}
