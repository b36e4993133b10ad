package apiserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
)

// fakeKubelet is a kubelet log server: it records what it was asked and
// answers with handle.
type fakeKubelet struct {
	srv      *httptest.Server
	requests chan *url.URL
}

func newFakeKubelet(t *testing.T, handle http.HandlerFunc) *fakeKubelet {
	t.Helper()
	k := &fakeKubelet{requests: make(chan *url.URL, 10)}
	k.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		k.requests <- r.URL
		handle(w, r)
	}))
	t.Cleanup(k.srv.Close)
	return k
}

func (k *fakeKubelet) port(t *testing.T) int32 {
	t.Helper()
	ap, err := netip.ParseAddrPort(k.srv.Listener.Addr().String())
	require.NoError(t, err)
	return int32(ap.Port())
}

// createNode registers a node whose kubelet listens on 127.0.0.1:port.
func (s *testServer) createNode(name string, port int32) {
	s.t.Helper()
	node := corev1.Node{
		TypeMeta:   metav1.TypeMeta{Kind: "Node", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Status: corev1.NodeStatus{
			Addresses:       []corev1.NodeAddress{{Type: corev1.NodeHostName, Address: name}, {Type: corev1.NodeInternalIP, Address: "127.0.0.1"}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: port}},
		},
	}
	body, err := json.Marshal(node)
	require.NoError(s.t, err)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/nodes", string(body))
}

// createBoundPod creates a pod of the given containers on node ("" for
// unscheduled).
func (s *testServer) createBoundPod(name, node string, containers ...string) {
	s.t.Helper()
	pod := corev1.Pod{
		TypeMeta:   metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.PodSpec{NodeName: node},
	}
	for _, c := range containers {
		pod.Spec.Containers = append(pod.Spec.Containers, corev1.Container{Name: c, Image: "busybox"})
	}
	body, err := json.Marshal(pod)
	require.NoError(s.t, err)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", string(body))
}

func TestPodLogInDiscovery(t *testing.T) {
	s := newTestServer(t)
	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1", "").body, &list))
	var found *metav1.APIResource
	for i := range list.APIResources {
		if list.APIResources[i].Name == "pods/log" {
			found = &list.APIResources[i]
		}
	}
	require.NotNil(t, found, "discovery lists pods/log")
	assert.Equal(t, []string{"get"}, found.Verbs)
	assert.True(t, found.Namespaced)
}

// TestPodLogRelaysKubelet: pods/log asks the pod's node's kubelet, at its
// InternalIP and kubelet port, and streams its answer.
func TestPodLogRelaysKubelet(t *testing.T) {
	s := newTestServer(t)
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "line 1\nline 2\n")
	})
	s.createNode("node-1", kl.port(t))
	s.createBoundPod("p", "node-1", "c")

	r := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/p/log?tailLines=2&timestamps=true&follow=false", "")
	assert.Equal(t, "line 1\nline 2\n", string(r.body))
	assert.Equal(t, "text/plain", r.header.Get("Content-Type"))
	got := <-kl.requests
	assert.Equal(t, "/containerLogs/default/p/c", got.Path)
	assert.Equal(t, url.Values{"tailLines": {"2"}, "timestamps": {"true"}}, got.Query())

	s.createBoundPod("multi", "node-1", "a", "b")
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/multi/log?container=b&previous=true&sinceSeconds=10", "")
	got = <-kl.requests
	assert.Equal(t, "/containerLogs/default/multi/b", got.Path)
	assert.Equal(t, url.Values{"previous": {"true"}, "sinceSeconds": {"10"}}, got.Query())
}

// TestPodLogFollowFlushes: a followed log reaches the client line by
// line, while the kubelet still writes.
func TestPodLogFollowFlushes(t *testing.T) {
	s := newTestServer(t)
	more := make(chan struct{})
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "first\n")
		w.(http.Flusher).Flush()
		select {
		case <-more:
		case <-r.Context().Done():
			return
		}
		fmt.Fprint(w, "second\n")
	})
	s.createNode("node-1", kl.port(t))
	s.createBoundPod("p", "node-1", "c")

	req, err := http.NewRequestWithContext(t.Context(), "GET", s.url+"/api/v1/namespaces/default/pods/p/log?follow=true", nil)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	resp, err := s.client.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	lines := bufio.NewReader(resp.Body)
	line, err := lines.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "first\n", line, "delivered before the kubelet is done")
	close(more)
	line, err = lines.ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "second\n", line)
	_, err = lines.ReadString('\n')
	assert.ErrorContains(t, err, "EOF")
	assert.Equal(t, "true", (<-kl.requests).Query().Get("follow"))
}

func TestPodLogErrors(t *testing.T) {
	s := newTestServer(t)
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/containerLogs/default/waiting/c":
			http.Error(w, `container "c" in pod "waiting" is waiting to start: ContainerCreating`, http.StatusBadRequest)
		case "/containerLogs/default/unknown/c":
			http.Error(w, `pod "unknown" does not exist`, http.StatusNotFound)
		default:
			http.Error(w, "boom", http.StatusInternalServerError)
		}
	})
	s.createNode("node-1", kl.port(t))
	// A node whose kubelet is gone: a port nothing listens on.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	deadPort := int32(ln.Addr().(*net.TCPAddr).Port)
	require.NoError(t, ln.Close())
	s.createNode("node-dead", deadPort)
	s.createBoundPod("unscheduled", "", "c")
	s.createBoundPod("multi", "node-1", "a", "b")
	s.createBoundPod("waiting", "node-1", "c")
	s.createBoundPod("unknown", "node-1", "c")
	s.createBoundPod("broken", "node-1", "c")
	s.createBoundPod("orphan", "node-gone", "c")
	s.createBoundPod("lost", "node-dead", "c")

	tests := []struct {
		name, path string
		method     string
		wantCode   int
		wantReason metav1.StatusReason
		wantMsg    string
	}{
		{name: "no pod", path: "ghost/log", wantCode: 404, wantReason: metav1.StatusReasonNotFound, wantMsg: `pods "ghost" not found`},
		{name: "unscheduled", path: "unscheduled/log", wantCode: 400, wantReason: metav1.StatusReasonBadRequest,
			wantMsg: "pod unscheduled does not have a host assigned"},
		{name: "container required", path: "multi/log", wantCode: 400, wantReason: metav1.StatusReasonBadRequest,
			wantMsg: "a container name must be specified for pod multi, choose one of: [a b]"},
		{name: "unknown container", path: "multi/log?container=z", wantCode: 400, wantReason: metav1.StatusReasonBadRequest,
			wantMsg: "container z is not valid for pod multi"},
		{name: "negative tailLines", path: "multi/log?container=a&tailLines=-1", wantCode: 422, wantReason: metav1.StatusReasonInvalid,
			wantMsg: "tailLines: Invalid value: -1: must be greater than or equal to 0"},
		{name: "not a number", path: "multi/log?container=a&limitBytes=lots", wantCode: 400, wantReason: metav1.StatusReasonBadRequest,
			wantMsg: `limitBytes: invalid integer "lots"`},
		{name: "since twice", path: "multi/log?container=a&sinceSeconds=5&sinceTime=2024-05-06T07:00:00Z", wantCode: 422,
			wantReason: metav1.StatusReasonInvalid, wantMsg: "at most one of `sinceTime` or `sinceSeconds` may be specified"},
		{name: "kubelet: waiting", path: "waiting/log", wantCode: 400, wantReason: metav1.StatusReasonBadRequest,
			wantMsg: `container "c" in pod "waiting" is waiting to start: ContainerCreating`},
		{name: "kubelet: not found", path: "unknown/log", wantCode: 404, wantReason: metav1.StatusReasonNotFound,
			wantMsg: `pod "unknown" does not exist`},
		{name: "kubelet: fails", path: "broken/log", wantCode: 500, wantReason: metav1.StatusReasonInternalError, wantMsg: "boom"},
		{name: "no node", path: "orphan/log", wantCode: 404, wantReason: metav1.StatusReasonNotFound, wantMsg: `nodes "node-gone" not found`},
		{name: "kubelet down", path: "lost/log", wantCode: 500, wantReason: metav1.StatusReasonInternalError, wantMsg: "connection refused"},
		{name: "not a GET", method: "POST", path: "waiting/log", wantCode: 405, wantReason: metav1.StatusReasonMethodNotAllowed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			method := tc.method
			if method == "" {
				method = "GET"
			}
			r := s.mustDo(tc.wantCode, method, "/api/v1/namespaces/default/pods/"+tc.path, "")
			st := r.status(t)
			assert.Equal(t, tc.wantReason, st.Reason, "reason of %s", tc.path)
			assert.True(t, strings.Contains(st.Message, tc.wantMsg), "message of %s: %q, want %q", tc.path, st.Message, tc.wantMsg)
		})
	}
}
