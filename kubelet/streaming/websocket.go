package streaming

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// The channels of the WebSocket remote-command protocols, each message's
// first byte.
const (
	channelStdin  = 0
	channelStdout = 1
	channelStderr = 2
	channelError  = 3
	channelResize = 4
	// channelClose, in v5, is followed by the channel the client closes.
	channelClose = 255
)

// isWebSocket reports whether r asks to upgrade to a WebSocket.
func isWebSocket(r *http.Request) bool { return websocket.IsWebSocketUpgrade(r) }

// negotiateWebSocket returns the first of the client's subprotocols that
// is in supported, or writes 403 with upstream's words and returns "".
func negotiateWebSocket(w http.ResponseWriter, r *http.Request, supported []string) string {
	requested := websocket.Subprotocols(r)
	if i := slices.IndexFunc(requested, func(p string) bool { return slices.Contains(supported, p) }); i >= 0 {
		return requested[i]
	}
	http.Error(w, fmt.Sprintf("requested protocol(s) are not supported: %v; supports %v", requested, supported), http.StatusForbidden)
	return ""
}

// upgradeWebSocket upgrades r with the chosen subprotocol. On failure it
// has answered the request.
func upgradeWebSocket(w http.ResponseWriter, r *http.Request, protocol string) (*websocket.Conn, error) {
	upgrader := websocket.Upgrader{
		// The request was authenticated and authorized by the API server,
		// which relays it; browsers' origins mean nothing here.
		CheckOrigin:  func(*http.Request) bool { return true },
		Subprotocols: []string{protocol},
	}
	return upgrader.Upgrade(w, r, nil)
}

// channelWriter writes one channel's stream as messages. Writes of all
// channels share the connection, so they take wsConn.mu.
type channelWriter struct {
	ws      *wsConn
	channel byte
}

func (cw channelWriter) Write(p []byte) (int, error) {
	if err := cw.ws.send(cw.channel, p); err != nil {
		return 0, err
	}
	return len(p), nil
}

// wsConn is a WebSocket carrying the channel protocol.
type wsConn struct {
	conn *websocket.Conn
	// mu serializes writes: gorilla allows one writer at a time.
	mu sync.Mutex
}

func (c *wsConn) send(channel byte, p []byte) error {
	msg := make([]byte, len(p)+1)
	msg[0] = channel
	copy(msg[1:], p)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.conn.WriteMessage(websocket.BinaryMessage, msg)
}

// serveWebSocketCommand serves a remote command over the WebSocket
// channel protocols.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming/remotecommand
// (createWebSocketStreams) over wsstream.Conn.
func serveWebSocketCommand(w http.ResponseWriter, r *http.Request, opts Options, run RunFunc) {
	protocol := negotiateWebSocket(w, r, []string{StreamProtocolV5, StreamProtocolV4})
	if protocol == "" {
		return
	}
	conn, err := upgradeWebSocket(w, r, protocol)
	if err != nil {
		return // Upgrade has answered
	}
	ws := &wsConn{conn: conn}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()
	// The server stopping (or the client leaving) closes the socket,
	// which ends whatever the command waits for on it: its stdin.
	stop := context.AfterFunc(ctx, func() { _ = conn.Close() })
	defer stop()

	var streams Streams
	stdinR, stdinW := io.Pipe()
	if opts.Stdin {
		streams.Stdin = stdinR
	} else {
		// Whatever a client sends on stdin is dropped.
		_ = stdinR.CloseWithError(io.ErrClosedPipe)
	}
	if opts.Stdout {
		streams.Stdout = channelWriter{ws, channelStdout}
	}
	if opts.Stderr {
		streams.Stderr = channelWriter{ws, channelStderr}
	}
	// resizeCh holds a few sizes; a client resizing faster than the
	// command reads loses the older ones, which are stale anyway.
	resizeCh := make(chan TerminalSize, 4)
	if opts.TTY {
		streams.Resize = resizeCh
	}

	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(resizeCh)
		defer cancel()
		ws.readLoop(protocol == StreamProtocolV5, stdinW, resizeCh)
	})
	// Upstream sends an empty message on the lowest writable channel,
	// telling the client the streams are set up.
	first := byte(channelError)
	switch {
	case opts.Stdout:
		first = channelStdout
	case opts.Stderr:
		first = channelStderr
	}
	err = ws.send(first, nil)
	if err == nil {
		err = run(ctx, streams)
		status, _ := json.Marshal(commandStatus(err))
		_ = ws.send(channelError, status)
	}
	// Shutdown:
	//  1. say goodbye with a close frame (the zero deadline: the write
	//     waits only on the local buffer);
	//  2. close the connection, which ends readLoop;
	//  3. end stdin, in case readLoop was blocked handing it data nobody
	//     reads any more;
	//  4. wait for readLoop.
	ws.mu.Lock()
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Time{})
	ws.mu.Unlock()
	_ = conn.Close()
	_ = stdinR.CloseWithError(io.ErrClosedPipe)
	wg.Wait()
}

// readLoop hands the client's messages to their channels until the
// connection fails or closes: stdin into stdin (which v5's close signal
// ends, and the connection's end breaks), sizes into resizeCh. Pings are answered
// by gorilla's default handler while it reads.
func (c *wsConn) readLoop(closeSignal bool, stdin *io.PipeWriter, resizeCh chan<- TerminalSize) {
	// A socket that ends before the client closed stdin cuts stdin
	// short: the command must not take what it got for all of it.
	defer stdin.CloseWithError(io.ErrUnexpectedEOF)
	for {
		_, data, err := c.conn.ReadMessage()
		if err != nil {
			return
		}
		if len(data) == 0 {
			continue
		}
		switch ch, payload := data[0], data[1:]; {
		case closeSignal && ch == channelClose:
			if len(payload) == 1 && payload[0] == channelStdin {
				_ = stdin.Close()
			}
		case ch == channelStdin:
			if len(payload) > 0 {
				if _, err := stdin.Write(payload); err != nil {
					// Nobody reads stdin any more; drop what comes.
					continue
				}
			}
		case ch == channelResize:
			var size TerminalSize
			if json.Unmarshal(payload, &size) == nil {
				select {
				case resizeCh <- size:
				default:
				}
			}
		}
	}
}
