package core

import (
	"context"
	"encoding/base64"
	"fmt"
	"io"
	"net/http"
	"slices"
	"sync"
	"time"

	"github.com/gorilla/websocket"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// The WebSocket subprotocols of a one-way stream, such as a log. Neither
// has channels: each message is bytes of the stream as they were read.
const (
	// binaryWebSocketProtocol sends the bytes as binary messages. It is
	// also what a client that asks for no subprotocol gets.
	binaryWebSocketProtocol = "binary.k8s.io"
	// base64BinaryWebSocketProtocol sends them base64-encoded, as text
	// messages, for browsers that handle binary messages badly.
	base64BinaryWebSocketProtocol = "base64.binary.k8s.io"
)

// webSocketChunkBytes is the most one message carries: upstream's buffer.
// Clients join the messages, so the size only decides how a burst of log
// is cut.
const webSocketChunkBytes = 2048

// isWebSocketRequest reports whether r asks to upgrade to a WebSocket
// (Connection: upgrade and Upgrade: websocket).
//
// Upstream: k8s.io/apimachinery/pkg/util/httpstream/wsstream (IsWebSocketRequest).
func isWebSocketRequest(r *http.Request) bool { return websocket.IsWebSocketUpgrade(r) }

// streamWebSocket upgrades r to a WebSocket and sends body over it until
// body ends or fails, or the client closes the socket, then closes the
// socket with a normal-closure frame. It calls cancel, which must end
// body (the kubelet request's context), when the client goes first. The
// subprotocol is the first of the client's that is one of the two above
// (none: binary); a client that asks only for others gets 403, as
// upstream's handshake answers, and body is not read. The first message
// is empty, as upstream's reader sends one before the stream, so that a
// client sees the socket work before the log has anything to say. The
// client's messages are read and dropped. It returns once the socket is
// closed and the goroutine that reads it has ended.
//
// Upstream: k8s.io/apimachinery/pkg/util/httpstream/wsstream (Reader.Copy
// with NewDefaultReaderProtocols, ping true), which
// k8s.io/apiserver/pkg/endpoints/handlers/responsewriters (StreamObject)
// uses for every streamed subresource.
func streamWebSocket(w http.ResponseWriter, r *http.Request, body io.Reader, cancel context.CancelFunc) {
	supported := []string{binaryWebSocketProtocol, base64BinaryWebSocketProtocol}
	protocol := ""
	if requested := websocket.Subprotocols(r); len(requested) > 0 {
		i := slices.IndexFunc(requested, func(p string) bool { return slices.Contains(supported, p) })
		if i < 0 {
			responsewriters.WriteError(w, r, apierrors.NewForbidden(podsLog, "",
				fmt.Errorf("requested protocol(s) are not supported: %v; supports %v", requested, supported)))
			return
		}
		protocol = requested[i]
	}
	var header http.Header
	if protocol != "" {
		header = http.Header{"Sec-Websocket-Protocol": {protocol}}
	}
	upgrader := websocket.Upgrader{
		// Like upstream's handshake, which replaces x/net/websocket's
		// origin check: the request has been authenticated and authorized
		// like any other.
		CheckOrigin: func(*http.Request) bool { return true },
		Error: func(w http.ResponseWriter, r *http.Request, _ int, reason error) {
			responsewriters.WriteError(w, r, apierrors.NewBadRequest(reason.Error()))
		},
	}
	conn, err := upgrader.Upgrade(w, r, header)
	if err != nil {
		return // Upgrade has answered
	}
	var wg sync.WaitGroup
	wg.Go(func() {
		// The client sends nothing we use; reading is how a close from it
		// (or a dead connection) is seen. Upstream: IgnoreReceives.
		for {
			if _, _, err := conn.NextReader(); err != nil {
				cancel()
				return
			}
		}
	})
	base64Encode := protocol == base64BinaryWebSocketProtocol
	send := func(data []byte) error {
		if base64Encode {
			return conn.WriteMessage(websocket.TextMessage, []byte(base64.StdEncoding.EncodeToString(data)))
		}
		return conn.WriteMessage(websocket.BinaryMessage, data)
	}
	if err := send(nil); err == nil {
		buf := make([]byte, webSocketChunkBytes)
		for {
			n, err := body.Read(buf)
			if n > 0 {
				if send(buf[:n]) != nil {
					break
				}
			}
			if err != nil {
				break
			}
		}
	}
	// Shutdown:
	//  1. say goodbye with a close frame; a client that already left
	//     makes this fail, which changes nothing (the zero deadline: the
	//     write does not wait on the peer, only on the local buffer);
	//  2. close the connection, which ends the reading goroutine's
	//     NextReader;
	//  3. wait for that goroutine.
	_ = conn.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Time{})
	_ = conn.Close()
	wg.Wait()
}
