package apiserver_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/wait/waittest"
)

// openRawWatch starts a watch and returns its lines as the server wrote
// them, newline included.
func (s *testServer) openRawWatch(path string) <-chan []byte {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.t.Context(), "GET", s.url+path, nil)
	require.NoError(s.t, err)
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	resp, err := s.client.Do(req)
	require.NoError(s.t, err, "watch %s", path)
	require.Equal(s.t, http.StatusOK, resp.StatusCode, "watch %s", path)
	lines := make(chan []byte, 100)
	go func() {
		defer close(lines)
		r := bufio.NewReader(resp.Body)
		for {
			line, err := r.ReadBytes('\n')
			if err != nil {
				return
			}
			lines <- line
		}
	}()
	s.t.Cleanup(func() { resp.Body.Close() })
	return lines
}

func nextLine(t *testing.T, lines <-chan []byte) []byte {
	t.Helper()
	timer := time.NewTimer(waittest.Timeout)
	defer timer.Stop()
	select {
	case line, ok := <-lines:
		require.True(t, ok, "watch closed while a line was expected")
		return line
	case <-timer.C:
		t.Fatal("no watch line within", waittest.Timeout)
		return nil
	}
}

// TestWatchWireFormat pins the bytes of a watch stream: each line is what
// json.Encoder writes for a metav1.WatchEvent holding json.Marshal of the
// object, HTML escaping included, and every watcher of an event gets the
// same bytes (the watch cache encodes the event once for all of them).
func TestWatchWireFormat(t *testing.T) {
	s := newTestServer(t)
	first := s.createPod("p0", nil)
	path := "/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + first.ResourceVersion
	a, b := s.openRawWatch(path), s.openRawWatch(path)

	body := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p1","annotations":{"html":"<b>&amp;</b>","text":"café \u2028 ☃"}},` +
		`"spec":{"containers":[{"name":"c","image":"i"}]}}`
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", body)
	s.mustDo(http.StatusOK, "PATCH", "/api/v1/namespaces/default/pods/p1", `{"metadata":{"labels":{"x":"y"}}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/p1", "")

	for _, wantType := range []string{"ADDED", "MODIFIED", "DELETED"} {
		line := nextLine(t, a)
		assert.Equal(t, string(line), string(nextLine(t, b)), "%s: both watchers get the same bytes", wantType)

		var ev metav1.WatchEvent
		require.NoError(t, json.Unmarshal(line, &ev), "%s line %s", wantType, line)
		assert.Equal(t, wantType, ev.Type, "event type")
		var pod corev1.Pod
		require.NoError(t, json.Unmarshal(ev.Object, &pod), "%s object", wantType)
		assert.Equal(t, "<b>&amp;</b>", pod.Annotations["html"], "annotation survives the round trip")

		// What the handler wrote before it cached encodings.
		object, err := json.Marshal(&pod)
		require.NoError(t, err, "marshal %s pod", wantType)
		var want bytes.Buffer
		require.NoError(t, json.NewEncoder(&want).Encode(metav1.WatchEvent{Type: wantType, Object: object}), "encode %s event", wantType)
		assert.Equal(t, want.String(), string(line), "%s line", wantType)
		assert.Contains(t, string(line), `\u003cb\u003e\u0026amp;\u003c/b\u003e`, "HTML is escaped as encoding/json does")
		assert.Contains(t, string(line), `\u2028`, "U+2028 is escaped as encoding/json does")
	}
}
