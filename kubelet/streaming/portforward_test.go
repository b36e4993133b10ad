package streaming

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/moby/spdystream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// echoServer answers each connection with what it reads, upper-cased by
// nothing: an echo, until the client half-closes. It stops with the test.
func echoServer(t *testing.T) uint16 {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	var wg sync.WaitGroup
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			wg.Go(func() {
				defer c.Close()
				_, _ = io.Copy(c, c)
			})
		}
	})
	t.Cleanup(func() {
		_ = ln.Close()
		wg.Wait()
	})
	return uint16(ln.Addr().(*net.TCPAddr).Port)
}

// forwardTo serves port-forward, dialling real ports on loopback; port 1
// fails.
func forwardTo(t *testing.T) string {
	addr, _ := newServer(t, func(w http.ResponseWriter, r *http.Request) {
		ServePortForward(w, r, "web", func(ctx context.Context, port uint16) (net.Conn, error) {
			if port == 1 {
				return nil, errors.New("connection refused")
			}
			var d net.Dialer
			return d.DialContext(ctx, "tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(int(port))))
		})
	})
	return addr
}

// exercise forwards two connections over conn: one that echoes, one
// whose dial fails.
func exercise(t *testing.T, conn *spdystream.Connection, port uint16) {
	t.Helper()
	p := strconv.Itoa(int(port))
	errStream := openStream(t, conn, "streamType", "error", "port", p, "requestID", "0")
	data := openStream(t, conn, "streamType", "data", "port", p, "requestID", "0")
	_, err := data.Write([]byte("ping"))
	require.NoError(t, err)
	require.NoError(t, data.Close(), "half-close: the echo server ends its side")
	got, err := io.ReadAll(data)
	require.NoError(t, err)
	assert.Equal(t, "ping", string(got))
	msg, err := io.ReadAll(errStream)
	require.NoError(t, err)
	assert.Empty(t, string(msg), "no error")

	errStream = openStream(t, conn, "streamType", "error", "port", "1", "requestID", "1")
	openStream(t, conn, "streamType", "data", "port", "1", "requestID", "1")
	msg, err = io.ReadAll(errStream)
	require.NoError(t, err)
	assert.Equal(t, "error forwarding port 1 to pod web: connection refused", string(msg))
}

// TestPortForwardSPDY: each connection is a pair of streams, answered by
// a connection to its port.
func TestPortForwardSPDY(t *testing.T) {
	port := echoServer(t)
	conn, protocol := dialSPDY(t, forwardTo(t), "/portForward", PortForwardProtocolV1)
	assert.Equal(t, PortForwardProtocolV1, protocol)
	exercise(t, conn, port)
}

// TestPortForwardWebSocketTunnel: the same SPDY inside a WebSocket.
func TestPortForwardWebSocketTunnel(t *testing.T) {
	port := echoServer(t)
	ws, resp, err := dialWebSocket(t, forwardTo(t), "/portForward", portForwardTunnelProtocol)
	require.NoError(t, err)
	assert.Equal(t, portForwardTunnelProtocol, resp.Header.Get("Sec-Websocket-Protocol"))
	tunnel := &tunnelConn{Conn: ws}
	conn, err := spdystream.NewConnection(tunnel, false)
	require.NoError(t, err)
	var wg sync.WaitGroup
	wg.Go(func() { conn.Serve(spdystream.NoOpStreamHandler) })
	defer func() {
		_ = conn.Close()
		_ = tunnel.Close()
		wg.Wait()
		_ = conn.Wait(0)
	}()
	exercise(t, conn, port)
}
