package apiserver_test

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait/waittest"
)

// TestSlowBodyTimesOut: a client that sends its headers and one byte of
// its body gets a 504 once the request timeout passes, and its in-flight
// seat is free again for others.
func TestSlowBodyTimesOut(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) {
		o.Limits = filters.Limits{MaxInFlight: 1, RequestTimeout: 200 * time.Millisecond}
	})
	u, err := url.Parse(s.url)
	require.NoError(t, err)
	conn, err := net.Dial("tcp", u.Host)
	require.NoError(t, err, "dial %s", u.Host)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: %s\r\nAuthorization: Bearer %s\r\n"+
		"Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{", configMapsPath, u.Host, apiservertest.AdminToken)
	require.NoError(t, err, "send headers and one byte")
	require.NoError(t, conn.SetReadDeadline(clock.Real.Now().Add(waittest.Timeout)))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err, "the server answers the stalled upload")
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	require.Equal(t, http.StatusGatewayTimeout, resp.StatusCode, "%s", body)
	var st metav1.Status
	require.NoError(t, json.Unmarshal(body, &st), "decode %s", body)
	assert.Equal(t, metav1.StatusReasonTimeout, st.Reason)
	assert.Equal(t, "Timeout: request did not complete within the allotted timeout", st.Message)
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces", "") // the seat is free again
}
