package kubelet_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/cluster/clustertest"
)

// execSession is a client of the kubelet's exec endpoint speaking the
// WebSocket channel protocol v5, as kubectl does.
type execSession struct {
	t    *testing.T
	conn *websocket.Conn
	// out is everything read from stdout and stderr so far.
	out strings.Builder
}

func (h *harness) dialExec(path string, query url.Values) (*execSession, *http.Response, error) {
	h.t.Helper()
	u := url.URL{Scheme: "ws", Host: h.kl.LogAddr().String(), Path: path, RawQuery: query.Encode()}
	d := websocket.Dialer{Subprotocols: []string{"v5.channel.k8s.io"}, HandshakeTimeout: clustertest.WaitTimeout}
	conn, resp, err := d.DialContext(h.t.Context(), u.String(), nil)
	if err != nil {
		return nil, resp, err
	}
	s := &execSession{t: h.t, conn: conn}
	h.t.Cleanup(func() { _ = conn.Close() })
	return s, resp, nil
}

func (s *execSession) send(channel byte, data string) {
	s.t.Helper()
	require.NoError(s.t, s.conn.WriteMessage(websocket.BinaryMessage, append([]byte{channel}, data...)))
}

// readUntil reads output until it contains want, returning it.
func (s *execSession) readUntil(want string) string {
	s.t.Helper()
	for !strings.Contains(s.out.String(), want) {
		_, msg, err := s.conn.ReadMessage()
		require.NoError(s.t, err, "waiting for %q; got %q", want, s.out.String())
		if len(msg) > 0 && (msg[0] == 1 || msg[0] == 2) {
			s.out.Write(msg[1:])
		}
	}
	return s.out.String()
}

// status reads up to the error channel's Status.
func (s *execSession) status() *metav1.Status {
	s.t.Helper()
	for {
		_, msg, err := s.conn.ReadMessage()
		require.NoError(s.t, err, "waiting for the status; output %q", s.out.String())
		if len(msg) == 0 {
			continue
		}
		switch msg[0] {
		case 1, 2:
			s.out.Write(msg[1:])
		case 3:
			if len(msg) == 1 {
				continue
			}
			var st metav1.Status
			require.NoError(s.t, json.Unmarshal(msg[1:], &st), "%s", msg[1:])
			return &st
		}
	}
}

// TestExecInteractiveShell: `kubectl exec -it pod -- sh` gets a shell on
// a terminal that echoes, edits lines, keeps its state between lines,
// and ends with exit and its code.
func TestExecInteractiveShell(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("tty", corev1.RestartPolicyNever, "sleep 3600"))
	h.waitPod("tty", "Running", phaseIs(corev1.PodRunning))

	s, _, err := h.dialExec("/exec/default/tty/main", url.Values{"command": {"sh"}, "input": {"1"}, "output": {"1"}, "tty": {"1"}})
	require.NoError(t, err)
	s.readUntil("/ # ")
	s.send(0, "echo $HOSTNAME\r")
	assert.Contains(t, s.readUntil("tty\r\n/ # "), "echo $HOSTNAME\r\ntty\r\n", "echoed, run, prompted again")
	s.send(0, "cd /tmp; X=kept\r")
	s.readUntil("/tmp # ")
	s.send(0, "echo $X $(pwd)x\x7f\r")
	s.readUntil("kept /tmp\r\n")
	s.send(0, "if true; then\r")
	s.readUntil("> ")
	s.send(0, "echo inside; fi\r")
	s.readUntil("inside\r\n")
	s.send(0, "sleep 5\x03")
	s.readUntil("^C\r\n/tmp # ")
	s.send(4, `{"Width":120,"Height":40}`)
	s.send(0, "exit 4\r")
	st := s.status()
	assert.Equal(t, metav1.StatusFailure, st.Status)
	assert.Equal(t, metav1.StatusReason("NonZeroExitCode"), st.Reason)
	require.NotNil(t, st.Details)
	assert.Equal(t, []metav1.StatusCause{{Type: "ExitCode", Message: "4"}}, st.Details.Causes)
}

// TestExecStdinClose: v5's close signal ends stdin, so cat ends.
func TestExecStdinClose(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("cat", corev1.RestartPolicyNever, "sleep 3600"))
	h.waitPod("cat", "Running", phaseIs(corev1.PodRunning))

	s, _, err := h.dialExec("/exec/default/cat/main", url.Values{"command": {"cat"}, "input": {"1"}, "output": {"1"}, "error": {"1"}})
	require.NoError(t, err)
	s.send(0, "one\n")
	s.send(0, "two\n")
	s.send(255, "\x00")
	st := s.status()
	assert.Equal(t, metav1.StatusSuccess, st.Status, "%+v", st)
	assert.Equal(t, "one\ntwo\n", s.out.String())
}

// TestExecErrors: the kubelet refuses, before upgrading, an exec it
// cannot run, with upstream's words.
func TestExecErrors(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("done", corev1.RestartPolicyNever, "exit 0"))
	h.waitPod("done", "Succeeded", phaseIs(corev1.PodSucceeded))
	h.run(busybox("up", corev1.RestartPolicyNever, "sleep 3600"))
	h.waitPod("up", "Running", phaseIs(corev1.PodRunning))

	tests := []struct {
		name, path string
		query      url.Values
		wantCode   int
	}{
		{"no pod", "/exec/default/ghost/main", url.Values{"command": {"true"}, "output": {"1"}}, http.StatusNotFound},
		{"no container", "/exec/default/up/ghost", url.Values{"command": {"true"}, "output": {"1"}}, http.StatusNotFound},
		{"not running", "/exec/default/done/main", url.Values{"command": {"true"}, "output": {"1"}}, http.StatusBadRequest},
		{"no stream", "/exec/default/up/main", url.Values{"command": {"true"}}, http.StatusBadRequest},
		{"no command", "/exec/default/up/main", url.Values{"output": {"1"}}, http.StatusBadRequest},
		{"no sandbox", "/portForward/default/done", nil, http.StatusBadRequest},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, resp, err := h.dialExec(tc.path, tc.query)
			require.Error(t, err, "dial %s", tc.path)
			require.NotNil(t, resp, "%v", err)
			assert.Equal(t, tc.wantCode, resp.StatusCode, fmt.Sprint(err))
		})
	}
}

// TestExecEndsWithKubelet: a stream open when the kubelet stops is
// closed, and Start returns once its goroutines have ended (TestMain
// checks that none is left).
func TestExecEndsWithKubelet(t *testing.T) {
	h := newHarness(t)
	h.run(busybox("long", corev1.RestartPolicyNever, "sleep 3600"))
	h.waitPod("long", "Running", phaseIs(corev1.PodRunning))
	s, _, err := h.dialExec("/exec/default/long/main", url.Values{"command": {"sleep", "3600"}, "output": {"1"}})
	require.NoError(t, err)
	_, _, err = s.conn.ReadMessage() // the empty message that says the streams are up
	require.NoError(t, err)
	h.stop()
	for err == nil {
		_, _, err = s.conn.ReadMessage()
	}
}
