package apiserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/gorilla/websocket"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
)

// echoUpgrade is a kubelet's exec endpoint reduced to the upgrade: it
// speaks v5.channel.k8s.io and echoes each message, prefixed with the
// credentials it saw.
func echoUpgrade(w http.ResponseWriter, r *http.Request) {
	up := websocket.Upgrader{Subprotocols: []string{"v5.channel.k8s.io"}}
	conn, err := up.Upgrade(w, r, nil)
	if err != nil {
		return
	}
	defer conn.Close()
	for {
		typ, msg, err := conn.ReadMessage()
		if err != nil {
			return
		}
		reply := append([]byte("auth="+r.Header.Get("Authorization")+";"), msg...)
		if conn.WriteMessage(typ, reply) != nil {
			return
		}
	}
}

// TestPodExecRelaysUpgrade: pods/exec asks the pod's kubelet with its
// own parameters, relays the upgrade, then the bytes both ways; the
// client's token stays with the API server.
func TestPodExecRelaysUpgrade(t *testing.T) {
	s := newTestServer(t)
	kl := newFakeKubelet(t, echoUpgrade)
	s.createNode("node-1", kl.port(t))
	s.createBoundPod("p", "node-1", "c")

	u := "ws" + strings.TrimPrefix(s.url, "http") + "/api/v1/namespaces/default/pods/p/exec?command=sh&command=-c&command=date&stdin=true&stdout=true&tty=true"
	d := websocket.Dialer{Subprotocols: []string{"v5.channel.k8s.io", "v4.channel.k8s.io"}}
	conn, resp, err := d.DialContext(t.Context(), u, http.Header{"Authorization": {"Bearer " + apiservertest.AdminToken}})
	require.NoError(t, err)
	defer conn.Close()
	assert.Equal(t, "v5.channel.k8s.io", resp.Header.Get("Sec-Websocket-Protocol"))
	require.NoError(t, conn.WriteMessage(websocket.BinaryMessage, []byte("\x00hi")))
	_, msg, err := conn.ReadMessage()
	require.NoError(t, err)
	assert.Equal(t, "auth=;\x00hi", string(msg), "relayed, without the client's token")

	got := <-kl.requests
	assert.Equal(t, "/exec/default/p/c", got.Path)
	assert.Equal(t, url.Values{"command": {"sh", "-c", "date"}, "input": {"1"}, "output": {"1"}, "tty": {"1"}}, got.Query())
}

func TestPodConnectErrors(t *testing.T) {
	s := newTestServer(t)
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/exec/default/unknown/c":
			http.Error(w, "pod does not exist", http.StatusNotFound)
		case "/attach/default/stopped/c":
			http.Error(w, "container c is not running in pod stopped", http.StatusBadRequest)
		default:
			http.Error(w, "unable to upgrade: unable to negotiate protocol", http.StatusForbidden)
		}
	})
	s.createNode("node-1", kl.port(t))
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	deadPort := int32(ln.Addr().(*net.TCPAddr).Port)
	require.NoError(t, ln.Close())
	s.createNode("node-dead", deadPort)
	s.createBoundPod("unscheduled", "", "c")
	s.createBoundPod("multi", "node-1", "a", "b")
	for _, name := range []string{"unknown", "stopped", "picky"} {
		s.createBoundPod(name, "node-1", "c")
	}
	s.createBoundPod("lost", "node-dead", "c")

	tests := []struct {
		name, method, path string
		wantCode           int
		wantReason         metav1.StatusReason
		wantMsg            string
	}{
		{"no pod", "POST", "ghost/exec?command=true&stdout=true", 404, metav1.StatusReasonNotFound, `pods "ghost" not found`},
		{"unscheduled", "POST", "unscheduled/exec?command=true&stdout=true", 400, metav1.StatusReasonBadRequest, "pod unscheduled does not have a host assigned"},
		{"container required", "POST", "multi/exec?command=true&stdout=true", 400, metav1.StatusReasonBadRequest, "a container name must be specified for pod multi, choose one of: [a b]"},
		{"no command", "POST", "picky/exec?stdout=true", 400, metav1.StatusReasonBadRequest, "you must specify at least one command for the container"},
		{"no stream", "GET", "picky/attach", 400, metav1.StatusReasonBadRequest, "you must specify at least 1 of stdin, stdout, stderr"},
		{"bad boolean", "POST", "picky/attach?stdout=maybe", 400, metav1.StatusReasonBadRequest, `stdout: invalid boolean "maybe"`},
		{"method", "PUT", "picky/exec?command=true&stdout=true", 405, metav1.StatusReasonMethodNotAllowed, "the server does not allow this method on the requested resource"},
		{"kubelet: no pod", "POST", "unknown/exec?command=true&stdout=true", 404, metav1.StatusReasonNotFound, "pod does not exist"},
		{"kubelet: not running", "POST", "stopped/attach?stdout=true", 400, metav1.StatusReasonBadRequest, "container c is not running in pod stopped"},
		{"kubelet: no protocol", "POST", "picky/portforward", 403, metav1.StatusReasonForbidden, "unable to negotiate protocol"},
		{"kubelet gone", "POST", "lost/portforward", 500, metav1.StatusReasonInternalError, "error dialing backend"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do(tc.method, "/api/v1/namespaces/default/pods/"+tc.path, "")
			require.Equal(t, tc.wantCode, r.code, "%s", r.body)
			st := r.status(t)
			assert.Equal(t, tc.wantReason, st.Reason)
			assert.Contains(t, st.Message, tc.wantMsg)
		})
	}
}

// TestStreamingSubresourcesInDiscovery: discovery, both the legacy
// resource list and the aggregated document, lists the connect
// subresources with upstream's verbs and kinds (their options).
func TestStreamingSubresourcesInDiscovery(t *testing.T) {
	s := newTestServer(t)
	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1", "").body, &list))
	legacy := map[string]metav1.APIResource{}
	for _, r := range list.APIResources {
		legacy[r.Name] = r
	}
	var agg metav1.APIGroupDiscoveryList
	r := s.mustDo(http.StatusOK, "GET", "/api", "", withHeader("Accept", acceptV2))
	require.NoError(t, json.Unmarshal(r.body, &agg), "decode %s", r.body)
	require.Len(t, agg.Items, 1, "/api holds the core group alone")
	aggregated := map[string]metav1.APISubresourceDiscovery{}
	for _, res := range agg.Items[0].Versions[0].Resources {
		for _, sub := range res.Subresources {
			aggregated[res.Resource+"/"+sub.Subresource] = sub
		}
	}
	connect := []string{"create", "get"}
	proxy := []string{"create", "delete", "get", "patch", "update"}
	tests := []struct {
		name, kind string
		verbs      []string
	}{
		{"pods/exec", "PodExecOptions", connect},
		{"pods/attach", "PodAttachOptions", connect},
		{"pods/portforward", "PodPortForwardOptions", connect},
		{"pods/proxy", "PodProxyOptions", proxy},
		{"services/proxy", "ServiceProxyOptions", proxy},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := legacy[tc.name]
			assert.Equal(t, tc.verbs, l.Verbs, "/api/v1 verbs of %s", tc.name)
			assert.Equal(t, tc.kind, l.Kind, "/api/v1 kind of %s", tc.name)
			assert.Empty(t, l.Group+l.Version, "/api/v1 names no group or version of %s: its kind is core v1", tc.name)
			a := aggregated[tc.name]
			assert.Equal(t, tc.verbs, a.Verbs, "aggregated verbs of %s", tc.name)
			assert.Equal(t, &metav1.GroupVersionKind{Version: "v1", Kind: tc.kind}, a.ResponseKind, "aggregated kind of %s", tc.name)
		})
	}
}

// TestResourceProxy: pods/proxy and services/proxy relay any method and
// the rest of the path to the pod's server, through the server's
// ProxyDialer, and answer Status errors of their own.
func TestResourceProxy(t *testing.T) {
	backend := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, "%s %s?%s auth=%q", r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization"))
	}))
	t.Cleanup(backend.Close)
	// Every pod address is the backend, as a cluster's dialer finds the
	// simulated server behind a pod IP; 10.0.0.9 refuses.
	dial := func(ctx context.Context, network, address string) (net.Conn, error) {
		if strings.HasPrefix(address, "10.0.0.9:") {
			return nil, fmt.Errorf("dial tcp %s: connect: connection refused", address)
		}
		var d net.Dialer
		return d.DialContext(ctx, network, backend.Listener.Addr().String())
	}
	s := newTestServer(t, func(o *apiserver.Options) { o.ProxyDialer = dial })
	s.createPod("web", map[string]string{"app": "web"})
	s.setPodIP("web", "10.244.0.5")
	s.createPod("down", nil)
	s.setPodIP("down", "10.0.0.9")
	s.createPod("new", nil)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/services",
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"web"},"spec":{"selector":{"app":"web"},"ports":[{"name":"http","port":80}]}}`)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/services",
		`{"apiVersion":"v1","kind":"Service","metadata":{"name":"empty"},"spec":{"ports":[{"port":80}]}}`)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/endpoints",
		`{"apiVersion":"v1","kind":"Endpoints","metadata":{"name":"web"},"subsets":[{"addresses":[{"ip":"10.244.0.5"}],"ports":[{"name":"http","port":8080}]}]}`)

	for _, tc := range []struct{ method, path, want string }{
		{"GET", "pods/web/proxy/", `GET /? auth=""`},
		{"GET", "pods/web:8080/proxy/a/b?x=1", `GET /a/b?x=1 auth=""`},
		{"POST", "pods/http:web:80/proxy/form", `POST /form? auth=""`},
		{"DELETE", "services/web/proxy/item", `DELETE /item? auth=""`},
		{"GET", "services/web:http/proxy", `GET /? auth=""`},
		{"GET", "services/http:web:80/proxy/", `GET /? auth=""`},
	} {
		r := s.mustDo(http.StatusOK, tc.method, "/api/v1/namespaces/default/"+tc.path, "")
		assert.Equal(t, tc.want, string(r.body), "%s %s", tc.method, tc.path)
	}

	for _, tc := range []struct {
		path       string
		wantCode   int
		wantReason metav1.StatusReason
		wantMsg    string
	}{
		{"pods/ghost/proxy/", 404, metav1.StatusReasonNotFound, `pods "ghost" not found`},
		{"pods/new/proxy/", 400, metav1.StatusReasonBadRequest, "pod new has no IP"},
		{"pods/web:x/proxy/", 400, metav1.StatusReasonBadRequest, `invalid port "x"`},
		{"pods/down/proxy/", 503, metav1.StatusReasonServiceUnavailable, "error trying to reach service: dial tcp 10.0.0.9:80: connect: connection refused"},
		{"services/ghost/proxy/", 404, metav1.StatusReasonNotFound, `services "ghost" not found`},
		{"services/web:9999/proxy/", 400, metav1.StatusReasonBadRequest, `no service port "9999" found for service "web"`},
		{"services/empty/proxy/", 503, metav1.StatusReasonServiceUnavailable, `no endpoints available for service "empty"`},
	} {
		r := s.do("GET", "/api/v1/namespaces/default/"+tc.path, "")
		require.Equal(t, tc.wantCode, r.code, "%s: %s", tc.path, r.body)
		st := r.status(t)
		assert.Equal(t, tc.wantReason, st.Reason, tc.path)
		assert.Contains(t, st.Message, tc.wantMsg, tc.path)
	}
}

// setPodIP writes the pod's status.podIP, as its kubelet would.
func (s *testServer) setPodIP(name, ip string) {
	s.t.Helper()
	pod := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/"+name, "").pod(s.t)
	pod.Status.PodIP = ip
	body, err := json.Marshal(pod)
	require.NoError(s.t, err)
	s.mustDo(http.StatusOK, "PUT", "/api/v1/namespaces/default/pods/"+name+"/status", string(body))
}

// TestPodExecClientGone: a client that leaves without a word of the
// stream protocol (kubectl killed) closes the kubelet's connection too.
func TestPodExecClientGone(t *testing.T) {
	s := newTestServer(t)
	closed := make(chan struct{})
	kl := newFakeKubelet(t, func(w http.ResponseWriter, r *http.Request) {
		up := websocket.Upgrader{Subprotocols: []string{"v5.channel.k8s.io"}}
		conn, err := up.Upgrade(w, r, nil)
		if err != nil {
			return
		}
		defer conn.Close()
		for {
			if _, _, err := conn.ReadMessage(); err != nil {
				close(closed)
				return
			}
		}
	})
	s.createNode("node-1", kl.port(t))
	s.createBoundPod("p", "node-1", "c")

	u := "ws" + strings.TrimPrefix(s.url, "http") + "/api/v1/namespaces/default/pods/p/exec?command=sleep&command=3600&stdout=true"
	d := websocket.Dialer{Subprotocols: []string{"v5.channel.k8s.io"}}
	conn, _, err := d.DialContext(t.Context(), u, http.Header{"Authorization": {"Bearer " + apiservertest.AdminToken}})
	require.NoError(t, err)
	require.NoError(t, conn.UnderlyingConn().Close(), "gone, without a close frame")
	select {
	case <-closed:
	case <-t.Context().Done():
		t.Fatal("the kubelet's connection stayed open")
	}
}
