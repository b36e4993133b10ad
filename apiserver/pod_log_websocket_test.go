package apiserver_test

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"net/http"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/minicp/minicp/wait/waittest"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// dialLog opens pods/{pod}/log as a WebSocket, asking for protocols, and
// returns the connection with the handshake's response.
func (s *testServer) dialLog(t *testing.T, pod, query string, protocols ...string) (*websocket.Conn, *http.Response, error) {
	t.Helper()
	u := "ws" + strings.TrimPrefix(s.url, "http") + "/api/v1/namespaces/default/pods/" + pod + "/log" + query
	dialer := websocket.Dialer{Subprotocols: protocols}
	conn, resp, err := dialer.DialContext(t.Context(), u, http.Header{"Authorization": {"Bearer " + apiservertest.AdminToken}})
	if conn != nil {
		t.Cleanup(func() { conn.Close() })
	}
	return conn, resp, err
}

// readAll reads messages until the server closes the stream normally and
// returns them, each decoded if decode is set.
func readAll(t *testing.T, conn *websocket.Conn, wantType int, decode func(string) ([]byte, error)) []string {
	t.Helper()
	var msgs []string
	for {
		typ, data, err := conn.ReadMessage()
		if err != nil {
			var ce *websocket.CloseError
			require.True(t, errors.As(err, &ce), "the stream ends with a close frame: %v", err)
			assert.Equal(t, websocket.CloseNormalClosure, ce.Code)
			return msgs
		}
		assert.Equal(t, wantType, typ, "message type")
		if decode != nil {
			data, err = decode(string(data))
			require.NoError(t, err, "decode %q", data)
		}
		msgs = append(msgs, string(data))
	}
}

// TestPodLogWebSocket: pods/log upgrades a WebSocket request, as
// kube-apiserver does for a streamed subresource (the conformance test
// "should support retrieving logs from the container over websockets"):
// binary.k8s.io (or no subprotocol) sends the log's bytes as binary
// messages, base64.binary.k8s.io as base64 text messages, each after an
// empty first message; the server closes the socket when the log ends.
func TestPodLogWebSocket(t *testing.T) {
	s := newTestServer(t)
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "container is alive\n")
	})
	s.createNode("node-1", kl.port(t))
	s.createBoundPod("p", "node-1", "c")

	tests := []struct {
		name      string
		protocols []string
		wantProto string
		wantType  int
		decode    func(string) ([]byte, error)
	}{
		{name: "binary", protocols: []string{"binary.k8s.io"}, wantProto: "binary.k8s.io", wantType: websocket.BinaryMessage},
		{name: "base64", protocols: []string{"base64.binary.k8s.io"}, wantProto: "base64.binary.k8s.io",
			wantType: websocket.TextMessage, decode: base64.StdEncoding.DecodeString},
		{name: "client's first choice", protocols: []string{"v4.channel.k8s.io", "base64.binary.k8s.io", "binary.k8s.io"},
			wantProto: "base64.binary.k8s.io", wantType: websocket.TextMessage, decode: base64.StdEncoding.DecodeString},
		{name: "no subprotocol", wantType: websocket.BinaryMessage},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			conn, resp, err := s.dialLog(t, "p", "?timestamps=false", tc.protocols...)
			require.NoError(t, err, "dial with %v", tc.protocols)
			assert.Equal(t, http.StatusSwitchingProtocols, resp.StatusCode)
			assert.Equal(t, tc.wantProto, conn.Subprotocol())
			msgs := readAll(t, conn, tc.wantType, tc.decode)
			require.NotEmpty(t, msgs)
			assert.Equal(t, "", msgs[0], "the first message is empty")
			assert.Equal(t, "container is alive\n", strings.Join(msgs, ""))
			assert.Equal(t, "/containerLogs/default/p/c", (<-kl.requests).Path)
		})
	}

	t.Run("unsupported subprotocol", func(t *testing.T) {
		_, resp, err := s.dialLog(t, "p", "", "v4.channel.k8s.io")
		require.ErrorIs(t, err, websocket.ErrBadHandshake)
		assert.Equal(t, http.StatusForbidden, resp.StatusCode)
		<-kl.requests
	})
	t.Run("errors come before the upgrade", func(t *testing.T) {
		_, resp, err := s.dialLog(t, "ghost", "", "binary.k8s.io")
		require.ErrorIs(t, err, websocket.ErrBadHandshake)
		assert.Equal(t, http.StatusNotFound, resp.StatusCode, "a missing pod is a 404 Status, not a socket")
	})
}

// TestPodLogWebSocketFollow: a followed log reaches a WebSocket client as
// the kubelet writes it, and closing the socket ends the kubelet request.
func TestPodLogWebSocketFollow(t *testing.T) {
	s := newTestServer(t)
	kubeletDone := make(chan struct{})
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		defer close(kubeletDone)
		fmt.Fprint(w, "first\n")
		w.(http.Flusher).Flush()
		<-r.Context().Done()
	})
	s.createNode("node-1", kl.port(t))
	s.createBoundPod("p", "node-1", "c")

	conn, _, err := s.dialLog(t, "p", "?follow=true", "binary.k8s.io")
	require.NoError(t, err)
	var got string
	for got != "first\n" {
		_, data, err := conn.ReadMessage()
		require.NoError(t, err, "read while the kubelet still writes")
		got += string(data)
	}
	assert.Equal(t, "true", (<-kl.requests).Query().Get("follow"))

	require.NoError(t, conn.WriteMessage(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")))
	wait, cancel := context.WithTimeout(t.Context(), waittest.Timeout)
	defer cancel()
	select {
	case <-kubeletDone:
	case <-wait.Done():
		t.Fatalf("the kubelet request outlived the socket by %v", waittest.Timeout)
	}
}
