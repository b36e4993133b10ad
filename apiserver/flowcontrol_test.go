package apiserver_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/wait/waittest"
)

// The identities of TestSlowUploadsDoNotStarveOthers besides the admin.
const (
	greedyToken    = "greedy-token" // a service account: workload-low
	nodeToken      = "node-token"   // a kubelet: node-high for its lease
	plainUserToken = "plain-token"  // an ordinary user: global-default
)

// TestSlowUploadsDoNotStarveOthers is the probe's finding: one client
// opening hundreds of uploads that send their headers and one byte of
// body held every in-flight seat, so kubelets' lease updates and /readyz
// got 429. With priority and fairness, the uploads fill their own
// level's seats and queues, the next ones get 429 at once, and a node's
// lease update, /readyz and another user's create still succeed.
func TestSlowUploadsDoNotStarveOthers(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) {
		// 20 seats: workload-low gets ceil(20*100/245) = 9. The request
		// timeout (and the queue wait, its quarter) bound how long the
		// server's cleanup waits for the stalled uploads.
		o.Limits = filters.Limits{ConcurrencyLimit: 20, RequestTimeout: 20 * time.Second}
		o.Authenticator = authn.NewTokenFile([]authn.TokenUser{
			{Token: apiservertest.AdminToken, User: request.User{Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}},
			{Token: greedyToken, User: request.User{Name: "system:serviceaccount:default:greedy",
				Groups: []string{request.AllServiceAccounts, request.ServiceAccountGroupPrefix + "default"}}},
			{Token: nodeToken, User: request.User{Name: "system:node:n1", Groups: []string{"system:nodes"}}},
			{Token: plainUserToken, User: request.User{Name: "plain"}},
		})
	})
	// Seats plus the queues of one flow's hand: 6 queues of 50.
	const held = 9 + 6*50
	const extra = 20
	u, err := url.Parse(s.url)
	require.NoError(t, err)

	var wg sync.WaitGroup
	responses := make(chan *http.Response, extra)
	var conns []net.Conn
	t.Cleanup(func() {
		for _, c := range conns {
			c.Close() // ends the uploads that hold seats; queued ones time out
		}
		wg.Wait()
	})
	for range held + extra {
		conn, err := net.Dial("tcp", u.Host)
		require.NoError(t, err, "dial %s", u.Host)
		conns = append(conns, conn)
		_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
			"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{", configMapsPath, u.Host, greedyToken)
		require.NoError(t, err, "send headers and one byte")
		wg.Go(func() {
			if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err == nil {
				body, _ := io.ReadAll(resp.Body)
				resp.Body = io.NopCloser(strings.NewReader(string(body)))
				select {
				case responses <- resp:
				default: // a queued upload timing out during cleanup
				}
			}
		})
	}
	ctx, cancel := context.WithTimeout(t.Context(), waittest.Timeout)
	defer cancel()
	for i := range extra {
		select {
		case resp := <-responses:
			body, _ := io.ReadAll(resp.Body)
			require.Equal(t, http.StatusTooManyRequests, resp.StatusCode, "upload beyond the level's seats and queues: %s", body)
			if i > 0 {
				continue
			}
			var st metav1.Status
			require.NoError(t, json.Unmarshal(body, &st), "decode %s", body)
			assert.Equal(t, metav1.StatusReasonTooManyRequests, st.Reason)
			assert.Equal(t, "Too many requests: please try again later.", st.Message)
			assert.Equal(t, "1", resp.Header.Get("Retry-After"))
			assert.Equal(t, uidOf(t, s, "prioritylevelconfigurations", "workload-low"),
				resp.Header.Get(flowcontrolv1.ResponseHeaderMatchedPriorityLevelConfigurationUID))
			assert.Equal(t, uidOf(t, s, "flowschemas", "service-accounts"),
				resp.Header.Get(flowcontrolv1.ResponseHeaderMatchedFlowSchemaUID))
		case <-ctx.Done():
			m := s.do("GET", "/metrics", "")
			var lines []string
			for _, l := range strings.Split(string(m.body), "\n") {
				if strings.HasPrefix(l, "apiserver_flowcontrol") && !strings.HasSuffix(l, " 0") {
					lines = append(lines, l)
				}
			}
			t.Fatalf("%d of %d uploads beyond the limit were rejected; metrics:\n%s", i, extra, strings.Join(lines, "\n"))
		}
	}

	// The node's lease: created and renewed, in the node-high level.
	lease := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"n1"},"spec":{"holderIdentity":"n1"}}`
	leases := "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases"
	r := s.mustDo(http.StatusCreated, "POST", leases, lease, withToken(nodeToken))
	assert.Equal(t, uidOf(t, s, "prioritylevelconfigurations", "node-high"),
		r.header.Get(flowcontrolv1.ResponseHeaderMatchedPriorityLevelConfigurationUID), "the lease's level")
	s.mustDo(http.StatusOK, "PUT", leases+"/n1", lease, withToken(nodeToken))
	// The probes, which no level limits.
	for _, path := range []string{"/readyz", "/livez", "/healthz"} {
		s.mustDo(http.StatusOK, "GET", path, "", withToken(""))
	}
	// Another user, in another level.
	r = s.mustDo(http.StatusCreated, "POST", configMapsPath, `{"metadata":{"name":"plains"}}`, withToken(plainUserToken))
	assert.Equal(t, uidOf(t, s, "flowschemas", "global-default"), r.header.Get(flowcontrolv1.ResponseHeaderMatchedFlowSchemaUID))
}

// uidOf is the UID of a flowcontrol object, read as the admin.
func uidOf(t *testing.T, s *testServer, resource, name string) string {
	t.Helper()
	r := s.mustDo(http.StatusOK, "GET", "/apis/flowcontrol.apiserver.k8s.io/v1/"+resource+"/"+name, "")
	var obj struct{ Metadata metav1.ObjectMeta }
	require.NoError(t, json.Unmarshal(r.body, &obj), "decode %s", r.body)
	require.NotEmpty(t, obj.Metadata.UID, "%s %s", resource, name)
	return string(obj.Metadata.UID)
}

// TestFlowControlConfigFromObjects: a FlowSchema and a priority level
// created through the API classify requests once the server's
// configuration controller has read them, which it shows by writing the
// schema's Dangling condition; a schema whose level is missing is
// dangling and classifies nothing.
func TestFlowControlConfigFromObjects(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) {
		o.Authenticator = authn.NewTokenFile([]authn.TokenUser{
			{Token: apiservertest.AdminToken, User: request.User{Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}},
			{Token: plainUserToken, User: request.User{Name: "plain"}},
		})
	})
	const base = "/apis/flowcontrol.apiserver.k8s.io/v1/"
	w := s.openWatch(base + "flowschemas?watch=true&fieldSelector=metadata.name%3Dplain")
	s.mustDo(http.StatusCreated, "POST", base+"flowschemas", `{"metadata":{"name":"plain"},"spec":{
		"priorityLevelConfiguration":{"name":"plain-level"},"matchingPrecedence":50,
		"rules":[{"subjects":[{"kind":"User","user":{"name":"plain"}}],
			"resourceRules":[{"verbs":["*"],"apiGroups":["*"],"resources":["*"],"namespaces":["*"],"clusterScope":true}]}]}}`)
	dangling := func() string {
		for {
			ev := w.next()
			var fs flowcontrolv1.FlowSchema
			require.NoError(t, json.Unmarshal(ev.Object, &fs), "decode %s", ev.Object)
			for _, c := range fs.Status.Conditions {
				if c.Type == flowcontrolv1.FlowSchemaConditionDangling {
					return string(c.Status) + " " + c.Message
				}
			}
		}
	}
	assert.Equal(t, `True This FlowSchema references the PriorityLevelConfiguration object named "plain-level" but there is no such object`, dangling())
	r := s.mustDo(http.StatusOK, "GET", configMapsPath, "", withToken(plainUserToken))
	assert.Equal(t, uidOf(t, s, "flowschemas", "global-default"), r.header.Get(flowcontrolv1.ResponseHeaderMatchedFlowSchemaUID),
		"a dangling schema classifies nothing")

	s.mustDo(http.StatusCreated, "POST", base+"prioritylevelconfigurations", `{"metadata":{"name":"plain-level"},"spec":{
		"type":"Limited","limited":{"nominalConcurrencyShares":1,"limitResponse":{"type":"Reject"}}}}`)
	assert.Equal(t, `False This FlowSchema references the PriorityLevelConfiguration object named "plain-level" and it exists`, dangling())
	r = s.mustDo(http.StatusOK, "GET", configMapsPath, "", withToken(plainUserToken))
	assert.Equal(t, uidOf(t, s, "flowschemas", "plain"), r.header.Get(flowcontrolv1.ResponseHeaderMatchedFlowSchemaUID))
	assert.Equal(t, uidOf(t, s, "prioritylevelconfigurations", "plain-level"),
		r.header.Get(flowcontrolv1.ResponseHeaderMatchedPriorityLevelConfigurationUID))
	// Defaults as upstream's, and the rules of validation.
	level := s.mustDo(http.StatusOK, "GET", base+"prioritylevelconfigurations/plain-level", "")
	assert.Contains(t, string(level.body), `"lendablePercent":0`)
	st := s.mustDo(http.StatusUnprocessableEntity, "POST", base+"flowschemas", `{"metadata":{"name":"bad"},"spec":{
		"priorityLevelConfiguration":{"name":"x"},"matchingPrecedence":0}}`).status(t)
	assert.Contains(t, st.Message, "spec.matchingPrecedence: Invalid value: 0: must be a positive value")
}
