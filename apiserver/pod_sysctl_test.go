package apiserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestPodInvalidSysctls: a pod with sysctls whose names are not sysctl
// names is 422, naming each bad one as upstream does; valid names pass
// (the conformance test "should reject invalid sysctls").
func TestPodInvalidSysctls(t *testing.T) {
	s := newTestServer(t)
	body := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"sysctls"},"spec":{` +
		`"securityContext":{"sysctls":[{"name":"foo-","value":"bar"},{"name":"kernel.shmmax","value":"100000000"},` +
		`{"name":"safe-and-unsafe","value":"100000000"},{"name":"bar..","value":"42"}]},` +
		`"containers":[{"name":"c","image":"busybox"}]}}`
	st := s.mustDo(http.StatusUnprocessableEntity, "POST", "/api/v1/namespaces/default/pods", body).status(t)
	assert.Equal(t, metav1.StatusReasonInvalid, st.Reason)
	assert.Contains(t, st.Message, `spec.securityContext.sysctls[0].name: Invalid value: "foo-": must have at most 253 characters and match regex `)
	assert.Contains(t, st.Message, `spec.securityContext.sysctls[3].name: Invalid value: "bar.."`)
	assert.NotContains(t, st.Message, "kernel.shmmax")
	assert.NotContains(t, st.Message, "safe-and-unsafe")

	valid := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"ok"},"spec":{` +
		`"securityContext":{"sysctls":[{"name":"kernel.shm_rmid_forced","value":"1"},{"name":"net/ipv4/ip_local_port_range","value":"1024 65535"}]},` +
		`"containers":[{"name":"c","image":"busybox"}]}}`
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", valid)
}
