package streaming

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strings"
	"sync"

	"github.com/moby/spdystream"
)

// headerSPDY31 is the Upgrade header's value for SPDY/3.1.
const headerSPDY31 = "SPDY/3.1"

// negotiateSPDY returns the first of the client's stream protocols (the
// X-Stream-Protocol-Version headers) that is in supported, or answers the
// request and returns "": 400 when r is no SPDY upgrade, 403 when no
// protocol matches.
//
// Upstream: k8s.io/apimachinery/pkg/util/httpstream (Handshake).
func negotiateSPDY(w http.ResponseWriter, r *http.Request, supported []string) string {
	if !strings.Contains(strings.ToLower(r.Header.Get("Connection")), "upgrade") ||
		!strings.Contains(strings.ToLower(r.Header.Get("Upgrade")), strings.ToLower(headerSPDY31)) {
		http.Error(w, "unable to upgrade: missing upgrade headers in request", http.StatusBadRequest)
		return ""
	}
	var requested []string
	for _, v := range r.Header.Values(headerStreamProtocol) {
		for p := range strings.SplitSeq(v, ",") {
			requested = append(requested, strings.TrimSpace(p))
		}
	}
	if i := slices.IndexFunc(requested, func(p string) bool { return slices.Contains(supported, p) }); i >= 0 {
		return requested[i]
	}
	http.Error(w, fmt.Sprintf("unable to upgrade: unable to negotiate protocol: client supports %v, server accepts %v", requested, supported),
		http.StatusForbidden)
	return ""
}

// upgradeSPDY negotiates protocol, the one this endpoint speaks, and
// upgrades r to SPDY with it. On failure it has answered the request (or
// the client is gone) and returns false.
func upgradeSPDY(w http.ResponseWriter, r *http.Request, protocol string) (net.Conn, bool) {
	if negotiateSPDY(w, r, []string{protocol}) == "" {
		return nil, false
	}
	raw, err := hijackSPDY(w, protocol)
	return raw, err == nil
}

// hijackSPDY answers 101 with the chosen protocol and takes over the
// connection. On failure it has answered the request.
func hijackSPDY(w http.ResponseWriter, protocol string) (net.Conn, error) {
	w.Header().Set("Connection", "Upgrade")
	w.Header().Set("Upgrade", headerSPDY31)
	w.Header().Set(headerStreamProtocol, protocol)
	rc := http.NewResponseController(w)
	w.WriteHeader(http.StatusSwitchingProtocols)
	if err := rc.Flush(); err != nil {
		return nil, err
	}
	conn, brw, err := rc.Hijack()
	if err != nil {
		return nil, fmt.Errorf("unable to upgrade: %w", err)
	}
	return &bufferedConn{Conn: conn, r: brw.Reader}, nil
}

// bufferedConn reads first what the HTTP server had buffered: frames the
// client sent right behind its request.
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }

// spdyConn is a server's SPDY connection: the streams the client opens
// arrive on streamCh, already accepted.
type spdyConn struct {
	raw  net.Conn
	conn *spdystream.Connection
	// streamCh is closed when Serve returns: the client is gone. So is
	// servedCh, which unlike streamCh holds nothing to drain first.
	streamCh chan *spdystream.Stream
	servedCh chan struct{}
	wg       sync.WaitGroup
}

// maxPendingStreams bounds the streams accepted but not yet taken by the
// handler: a remote command opens at most five, a port-forward two per
// connection. A client that opens more without waiting has them reset.
const maxPendingStreams = 64

// newSPDYConn serves SPDY on raw until close.
func newSPDYConn(raw net.Conn) (*spdyConn, error) {
	conn, err := spdystream.NewConnection(raw, true)
	if err != nil {
		_ = raw.Close()
		return nil, err
	}
	c := &spdyConn{raw: raw, conn: conn, streamCh: make(chan *spdystream.Stream, maxPendingStreams), servedCh: make(chan struct{})}
	c.wg.Go(func() {
		defer close(c.servedCh)
		defer close(c.streamCh)
		conn.Serve(func(s *spdystream.Stream) {
			// Serve calls this in its frame loop: it must not block.
			select {
			case c.streamCh <- s:
				_ = s.SendReply(http.Header{}, false)
			default:
				_ = s.Reset()
			}
		})
	})
	return c, nil
}

// close shuts the connection down and waits for its goroutines:
//  1. half-close the given streams, so the client reads their ends;
//  2. send GOAWAY, after which spdystream closes the network connection
//     once the client has closed its side of every stream;
//  3. wait for the client to go, or for ctx; on ctx, reset the streams
//     (a data frame no one reads holds spdystream's frame loop until its
//     stream is reset) and close the network connection, which ends
//     Serve at once;
//  4. wait for Serve, then for spdystream's shutdown.
func (c *spdyConn) close(ctx context.Context, streams ...*spdystream.Stream) {
	for _, s := range streams {
		if s != nil {
			_ = s.Close()
		}
	}
	_ = c.conn.Close()
	select {
	case <-c.servedCh:
	case <-ctx.Done():
		for _, s := range streams {
			if s != nil {
				_ = s.Reset()
			}
		}
		_ = c.raw.Close()
	}
	c.wg.Wait()
	_ = c.raw.Close()
	_ = c.conn.Wait(0)
}
