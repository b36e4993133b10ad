package apiserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/wait/waittest"
)

// testServer is an apiservertest server served over real HTTP on
// loopback.
type testServer struct {
	t      testing.TB
	api    *apiserver.Server
	url    string
	client *http.Client
}

func newTestServer(t testing.TB, mutate ...func(*apiserver.Options)) *testServer {
	t.Helper()
	api := apiservertest.New(t, mutate...)
	srv := httptest.NewServer(api.Handler())
	t.Cleanup(srv.Close)
	return &testServer{t: t, api: api, url: srv.URL, client: srv.Client()}
}

// response is a decoded HTTP response.
type response struct {
	code   int
	header http.Header
	body   []byte
}

// status decodes the body as a Status.
func (r response) status(t testing.TB) metav1.Status {
	t.Helper()
	var s metav1.Status
	require.NoError(t, json.Unmarshal(r.body, &s), "decode Status from %s", r.body)
	require.Equal(t, "Status", s.Kind, "kind of %s", r.body)
	return s
}

// pod decodes the body as a Pod.
func (r response) pod(t testing.TB) *corev1.Pod {
	t.Helper()
	var p corev1.Pod
	require.NoError(t, json.Unmarshal(r.body, &p), "decode Pod from %s", r.body)
	return &p
}

type requestOption func(*http.Request)

func withHeader(k, v string) requestOption { return func(r *http.Request) { r.Header.Set(k, v) } }

func withToken(token string) requestOption {
	return func(r *http.Request) {
		if token == "" {
			r.Header.Del("Authorization")
			return
		}
		r.Header.Set("Authorization", "Bearer "+token)
	}
}

// do sends a request as the admin (unless an option changes that).
func (s *testServer) do(method, path, body string, opts ...requestOption) response {
	s.t.Helper()
	r, err := s.try(method, path, body, opts...)
	require.NoError(s.t, err, "%s %s", method, path)
	return r
}

// try is do for goroutines other than the test's: it returns transport
// errors instead of failing the test.
func (s *testServer) try(method, path, body string, opts ...requestOption) (response, error) {
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, err := http.NewRequestWithContext(s.t.Context(), method, s.url+path, rd)
	if err != nil {
		return response{}, err
	}
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for _, o := range opts {
		o(req)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return response{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return response{}, err
	}
	return response{code: resp.StatusCode, header: resp.Header, body: data}, nil
}

// waitCached lists collection not older than rv, which the watch cache
// answers once it is current to rv: after it, a read at resourceVersion 0
// sees every write up to rv.
func (s *testServer) waitCached(collection, rv string) response {
	s.t.Helper()
	return s.mustDo(http.StatusOK, "GET", collection+"?resourceVersionMatch=NotOlderThan&resourceVersion="+rv, "")
}

// mustDo is do that requires the given status code.
func (s *testServer) mustDo(code int, method, path, body string, opts ...requestOption) response {
	s.t.Helper()
	r := s.do(method, path, body, opts...)
	require.Equal(s.t, code, r.code, "%s %s: %s", method, path, r.body)
	return r
}

func podJSON(name string, labels map[string]string) string {
	p := corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
	data, _ := json.Marshal(p)
	return string(data)
}

// createPod creates a pod in default and returns it.
func (s *testServer) createPod(name string, labels map[string]string) *corev1.Pod {
	s.t.Helper()
	return s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", podJSON(name, labels)).pod(s.t)
}

// watchStream is an open watch over HTTP.
type watchStream struct {
	t       testing.TB
	resp    *http.Response
	events  chan metav1.WatchEvent
	closeCh chan struct{}
}

// openWatch starts a watch and decodes its events in the background until
// the test ends or the server closes the stream.
func (s *testServer) openWatch(path string, opts ...requestOption) *watchStream {
	s.t.Helper()
	req, err := http.NewRequestWithContext(s.t.Context(), "GET", s.url+path, nil)
	require.NoError(s.t, err)
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	for _, o := range opts {
		o(req)
	}
	resp, err := s.client.Do(req)
	require.NoError(s.t, err, "watch %s", path)
	require.Equal(s.t, http.StatusOK, resp.StatusCode, "watch %s", path)
	w := &watchStream{t: s.t, resp: resp, events: make(chan metav1.WatchEvent, 1000), closeCh: make(chan struct{})}
	go func() {
		defer close(w.events)
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var ev metav1.WatchEvent
			if json.Unmarshal(sc.Bytes(), &ev) != nil {
				return
			}
			w.events <- ev
		}
	}()
	s.t.Cleanup(func() { resp.Body.Close() })
	return w
}

// next returns the next event, failing the test if none comes.
func (w *watchStream) next() metav1.WatchEvent {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(w.t.Context(), waittest.Timeout)
	defer cancel()
	select {
	case ev, ok := <-w.events:
		require.True(w.t, ok, "watch closed while waiting for an event")
		return ev
	case <-ctx.Done():
		w.t.Fatal("no watch event within", waittest.Timeout)
		return metav1.WatchEvent{}
	}
}

// nextPod returns the next event and its object as a Pod.
func (w *watchStream) nextPod() (string, *corev1.Pod) {
	w.t.Helper()
	ev := w.next()
	var p corev1.Pod
	require.NoError(w.t, json.Unmarshal(ev.Object, &p), "decode %s", ev.Object)
	return ev.Type, &p
}
