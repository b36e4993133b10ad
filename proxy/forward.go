package proxy

import (
	"context"
	"errors"
	"io"
	"net"
	"net/netip"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/tracing"
)

// dialTimeout bounds the connection to one backend: a pod that does not
// answer within it is skipped for the next one, as a client would retry.
const dialTimeout = 2 * time.Second

// maxDialTries is how many backends one connection tries before it is
// closed: the userspace proxy's retry count.
const maxDialTries = 3

// listener is one real TCP listener of a Service port: on its mapped
// ClusterIP, a node port, or a load balancer IP. Connections to it go to
// lb's backends.
type listener struct {
	addr netip.AddrPort
	// service is the Service port it serves, "ns/name:port".
	service string
	ln      net.Listener
	lb      *loadBalancer
	// doneCh is closed when the accept loop has returned.
	doneCh chan struct{}
}

// serve accepts connections until the listener is closed, and forwards
// each in a goroutine of its own, owned by p.
func (p *Proxier) serve(ctx context.Context, l *listener) {
	defer close(l.doneCh)
	for {
		conn, err := l.ln.Accept()
		if err != nil {
			return // closed: the Service port went, or the proxy stops
		}
		if !p.track(conn) {
			_ = conn.Close()
			return
		}
		p.wg.Go(func() { p.forward(ctx, l, conn) })
	}
}

// forward connects client to a backend of l and copies both ways until
// both sides are done. With no backend that accepts, client is closed:
// a Service without ready endpoints refuses.
func (p *Proxier) forward(ctx context.Context, l *listener, client net.Conn) {
	defer p.untrack(client)
	defer client.Close()
	clientIP := netip.Addr{}
	if a, ok := client.RemoteAddr().(*net.TCPAddr); ok {
		clientIP = a.AddrPort().Addr().Unmap()
	}
	_, span := p.tracer.Start(ctx, tracing.HopProxyForward, trace.WithSpanKind(trace.SpanKindInternal), trace.WithAttributes(
		attribute.String("service", l.service), attribute.String("client", client.RemoteAddr().String()),
		attribute.String("listener", l.addr.String())))
	var tried []netip.AddrPort
	var server net.Conn
	for len(tried) < maxDialTries {
		b, n, ok := l.lb.pick(clientIP, tried)
		if !ok {
			break
		}
		tried = append(tried, b.addr)
		dctx, cancel := context.WithTimeout(ctx, dialTimeout)
		conn, err := p.dialer.DialContext(dctx, "tcp", b.addr.String())
		cancel()
		if err == nil {
			server = conn
			span.SetAttributes(attribute.String("backend", b.addr.String()), attribute.String("pod", b.pod),
				attribute.Int("endpoints", n), attribute.String("from", conn.LocalAddr().String()))
			break
		}
		p.log.Debug("backend refused", "service", l.addr.String(), "backend", b.addr.String(), "err", err)
	}
	if server == nil {
		span.SetStatus(codes.Error, "no ready endpoint accepted")
		span.End()
		return
	}
	// The span is the choice and the connection to the backend, not the
	// connection's lifetime: it ends before the bytes flow, so a trace
	// shows it as soon as the request it carries.
	span.End()
	if !p.track(server) {
		_ = server.Close()
		return
	}
	defer p.untrack(server)
	defer server.Close()
	// One direction in a goroutine of its own, the other here; each
	// half-closes its destination at EOF so a client that stops sending
	// still gets the whole answer.
	upDone := make(chan struct{})
	p.wg.Go(func() {
		defer close(upDone)
		copyHalf(server, client)
	})
	copyHalf(client, server)
	<-upDone
}

// copyHalf copies src to dst, then closes dst for writing (or entirely,
// when it cannot half-close).
func copyHalf(dst, src net.Conn) {
	_, err := io.Copy(dst, src)
	if cw, ok := dst.(interface{ CloseWrite() error }); ok && (err == nil || errors.Is(err, io.EOF)) {
		_ = cw.CloseWrite()
		return
	}
	// An error on either side ends both directions.
	_ = dst.Close()
	_ = src.Close()
}
