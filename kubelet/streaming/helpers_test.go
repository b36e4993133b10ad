package streaming

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/moby/spdystream"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/wait/waittest"
)

// newServer serves h on a loopback port until the test ends; its
// requests' context ends when stop is called (or the test ends), as the
// kubelet's do when it stops.
func newServer(t *testing.T, h http.HandlerFunc) (addr string, stop func()) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	srv := httptest.NewUnstartedServer(h)
	srv.Config.BaseContext = func(net.Listener) context.Context { return ctx }
	var wg sync.WaitGroup
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		wg.Add(1)
		defer wg.Done()
		h(w, r)
	})
	srv.Start()
	stop = sync.OnceFunc(func() {
		cancel()
		srv.Close()
		wg.Wait()
	})
	t.Cleanup(stop)
	return srv.Listener.Addr().String(), stop
}

// dialSPDY upgrades a POST of path to SPDY with the protocols and
// returns the client connection and the negotiated protocol.
func dialSPDY(t *testing.T, addr, path string, protocols ...string) (*spdystream.Connection, string) {
	t.Helper()
	conn, err := net.DialTimeout("tcp", addr, waittest.Timeout)
	require.NoError(t, err)
	req, err := http.NewRequest(http.MethodPost, "http://"+addr+path, nil)
	require.NoError(t, err)
	req.Header.Set("Connection", "Upgrade")
	req.Header.Set("Upgrade", "SPDY/3.1")
	for _, p := range protocols {
		req.Header.Add("X-Stream-Protocol-Version", p)
	}
	require.NoError(t, req.Write(conn))
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, req)
	require.NoError(t, err)
	require.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
	require.Zero(t, br.Buffered(), "the server speaks only after streams are opened")
	sc, err := spdystream.NewConnection(conn, false)
	require.NoError(t, err)
	done := make(chan struct{})
	go func() {
		defer close(done)
		sc.Serve(spdystream.NoOpStreamHandler)
	}()
	t.Cleanup(func() {
		_ = sc.Close()
		_ = conn.Close()
		<-done
		_ = sc.Wait(0)
	})
	return sc, resp.Header.Get("X-Stream-Protocol-Version")
}

// openStream opens a stream with headers.
func openStream(t *testing.T, c *spdystream.Connection, kv ...string) *spdystream.Stream {
	t.Helper()
	h := http.Header{}
	for i := 0; i+1 < len(kv); i += 2 {
		h.Set(kv[i], kv[i+1])
	}
	s, err := c.CreateStream(h, nil, false)
	require.NoError(t, err)
	require.NoError(t, s.WaitTimeout(waittest.Timeout))
	return s
}

// readStatus decodes the Status on an error stream.
func readStatus(t *testing.T, r io.Reader) *metav1.Status {
	t.Helper()
	data, err := io.ReadAll(r)
	require.NoError(t, err)
	var st metav1.Status
	require.NoError(t, json.Unmarshal(data, &st), "%s", data)
	return &st
}

// dialWebSocket opens a WebSocket to path with the subprotocols.
func dialWebSocket(t *testing.T, addr, path string, protocols ...string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	d := websocket.Dialer{Subprotocols: protocols, HandshakeTimeout: waittest.Timeout}
	conn, resp, err := d.Dial("ws://"+addr+path, nil)
	if err == nil {
		t.Cleanup(func() { _ = conn.Close() })
	}
	return conn, resp, err
}

// upper is a remote command that writes its stdin back upper-cased to
// stdout, says "bye" on stderr and exits with code.
func upper(code int) RunFunc {
	return func(ctx context.Context, s Streams) error {
		data, err := io.ReadAll(s.Stdin)
		if err != nil {
			return err
		}
		_, _ = io.WriteString(s.Stdout, strings.ToUpper(string(data)))
		_, _ = io.WriteString(s.Stderr, "bye")
		if code != 0 {
			return &ExitError{Code: code, Command: []string{"upper"}}
		}
		return nil
	}
}
