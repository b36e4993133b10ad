package streaming

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gorilla/websocket"
	"github.com/moby/spdystream"
)

// The port-forward protocols.
const (
	// PortForwardProtocolV1 is port-forward over SPDY.
	PortForwardProtocolV1 = "portforward.k8s.io"
	// portForwardTunnelProtocol is the same SPDY carried in the binary
	// messages of a WebSocket.
	portForwardTunnelProtocol = "SPDY/3.1+portforward.k8s.io"
)

// DialFunc connects to port of the pod; the caller closes the
// connection.
type DialFunc func(ctx context.Context, port uint16) (net.Conn, error)

// ServePortForward upgrades r to port-forward, over a WebSocket tunnel
// or SPDY, and forwards each connection the client opens to dial(port),
// until the client goes away or r's context ends. A dial error is
// written on the connection's error stream, which kubectl prints; the
// other connections go on. podName is for the messages. It blocks until
// every forwarded connection has ended.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming/portforward (ServePortForward,
// httpStreamHandler) and, for the tunnel, k8s.io/apiserver's
// StreamTranslator for port-forward.
func ServePortForward(w http.ResponseWriter, r *http.Request, podName string, dial DialFunc) {
	var raw net.Conn
	if isWebSocket(r) {
		if negotiateWebSocket(w, r, []string{portForwardTunnelProtocol}) == "" {
			return
		}
		ws, err := upgradeWebSocket(w, r, portForwardTunnelProtocol)
		if err != nil {
			return
		}
		raw = &tunnelConn{Conn: ws}
	} else {
		var ok bool
		if raw, ok = upgradeSPDY(w, r, PortForwardProtocolV1); !ok {
			return
		}
	}
	conn, err := newSPDYConn(raw)
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	var wg sync.WaitGroup
	// pending pairs each request's error and data streams, by requestID.
	pending := map[string]*forwardPair{}
	for s := range streamsUntil(ctx, conn.streamCh) {
		h := s.Headers()
		id := h.Get("requestID")
		p := pending[id]
		if p == nil {
			p = &forwardPair{}
			pending[id] = p
		}
		switch h.Get("streamType") {
		case streamTypeError:
			p.errorStream = s
		case streamTypeData:
			p.dataStream = s
		default:
			_ = s.Reset()
			continue
		}
		if p.errorStream == nil || p.dataStream == nil {
			continue
		}
		delete(pending, id)
		wg.Go(func() { p.forward(ctx, h.Get("port"), podName, dial) })
	}
	// The client is gone or the kubelet stops: end the connections still
	// forwarded, then the SPDY connection.
	cancel()
	var open []*spdystream.Stream
	for _, p := range pending {
		open = append(open, p.errorStream, p.dataStream)
	}
	wg.Wait()
	conn.close(ctx, open...)
}

// streamsUntil yields the streams of ch until it closes or ctx ends.
func streamsUntil(ctx context.Context, ch <-chan *spdystream.Stream) func(func(*spdystream.Stream) bool) {
	return func(yield func(*spdystream.Stream) bool) {
		for {
			select {
			case s, ok := <-ch:
				if !ok || !yield(s) {
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}
}

// forwardPair is one forwarded connection: its streams.
type forwardPair struct {
	errorStream, dataStream *spdystream.Stream
}

// forward connects to the port and copies both ways until either side
// ends, or ctx does.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming/portforward
// (httpStreamHandler.portForward).
func (p *forwardPair) forward(ctx context.Context, portHeader, podName string, dial DialFunc) {
	defer func() {
		_ = p.errorStream.Close()
		_ = p.dataStream.Close()
	}()
	port, err := strconv.ParseUint(portHeader, 10, 16)
	if err != nil || port == 0 {
		fmt.Fprintf(p.errorStream, "invalid port %q", portHeader)
		return
	}
	target, err := dial(ctx, uint16(port))
	if err != nil {
		fmt.Fprintf(p.errorStream, "error forwarding port %d to pod %s: %v", port, podName, err)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		_, _ = io.Copy(target, p.dataStream)
		// The client is done sending: tell the server, which may still
		// answer (a half-closed connection).
		if cw, ok := target.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
	})
	// replyCh is closed when the server's side ends, which ends the
	// forwarded connection: the client may keep its side open for
	// reuse, which would otherwise hold it forever.
	replyCh := make(chan struct{})
	wg.Go(func() {
		defer close(replyCh)
		_, _ = io.Copy(p.dataStream, target)
	})
	select {
	case <-replyCh:
	case <-ctx.Done():
	}
	// Closing target ends the copy into it (its writes fail) and, on
	// ctx, the copy out of it; closing the data stream ends the copy out
	// of the client's side.
	_ = target.Close()
	_ = p.dataStream.Close()
	<-replyCh
	_ = p.dataStream.Reset()
	wg.Wait()
}

// tunnelConn is a WebSocket as a net.Conn: each binary message is a
// slice of the byte stream.
//
// Upstream: k8s.io/client-go/tools/portforward (TunnelingConnection),
// whose server side this is.
type tunnelConn struct {
	*websocket.Conn
	// reader is the message being read.
	reader io.Reader
	// mu serializes writes.
	mu sync.Mutex
}

var _ net.Conn = (*tunnelConn)(nil)

func (c *tunnelConn) Read(p []byte) (int, error) {
	for {
		if c.reader == nil {
			typ, r, err := c.NextReader()
			if err != nil {
				if websocket.IsCloseError(err, websocket.CloseNormalClosure) {
					return 0, io.EOF
				}
				return 0, err
			}
			if typ != websocket.BinaryMessage {
				return 0, fmt.Errorf("tunnel: unexpected message type %d", typ)
			}
			c.reader = r
		}
		n, err := c.reader.Read(p)
		if err == io.EOF {
			c.reader = nil
			if n == 0 {
				continue
			}
			err = nil
		}
		return n, err
	}
}

func (c *tunnelConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if err := c.WriteMessage(websocket.BinaryMessage, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

func (c *tunnelConn) Close() error {
	c.mu.Lock()
	_ = c.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Time{})
	c.mu.Unlock()
	return c.Conn.Close()
}

func (c *tunnelConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.SetWriteDeadline(t)
}
