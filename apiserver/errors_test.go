package apiserver_test

import (
	"bytes"
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/filters"
)

// TestErrorCodes checks that every failure this server can produce comes
// back as a Status with the code and reason docs/architecture.md lists.
func TestErrorCodes(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) { o.Limits = filters.Limits{MaxRequestBodyBytes: 64 << 10} })
	s.createPod("exists", nil)
	big := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"big","annotations":{"a":"` + strings.Repeat("x", 70<<10) + `"}}}`

	tests := []struct {
		name       string
		method     string
		path       string
		body       string
		opts       []requestOption
		wantCode   int
		wantReason metav1.StatusReason
	}{
		{"get missing pod", "GET", "/api/v1/namespaces/default/pods/nope", "", nil, 404, metav1.StatusReasonNotFound},
		{"unknown resource", "GET", "/api/v1/namespaces/default/widgets", "", nil, 404, metav1.StatusReasonNotFound},
		{"unknown path", "GET", "/nowhere", "", nil, 404, metav1.StatusReasonNotFound},
		{"unknown group", "GET", "/apis/nope.example.com/v1", "", nil, 404, metav1.StatusReasonNotFound},
		{"create duplicate", "POST", "/api/v1/namespaces/default/pods", podJSON("exists", nil), nil, 409, metav1.StatusReasonAlreadyExists},
		{"stale resourceVersion", "PUT", "/api/v1/namespaces/default/pods/exists",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"exists","resourceVersion":"1"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`,
			nil, 409, metav1.StatusReasonConflict},
		{"delete precondition", "DELETE", "/api/v1/namespaces/default/pods/exists", `{"preconditions":{"uid":"wrong"}}`, nil, 409, metav1.StatusReasonConflict},
		{"invalid pod", "POST", "/api/v1/namespaces/default/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"Bad_Name"},"spec":{"containers":[]}}`, nil, 422, metav1.StatusReasonInvalid},
		{"malformed json", "POST", "/api/v1/namespaces/default/pods", `{"metadata":`, nil, 400, metav1.StatusReasonBadRequest},
		{"wrong kind", "POST", "/api/v1/namespaces/default/pods", `{"apiVersion":"v1","kind":"Node","metadata":{"name":"x"}}`, nil, 400, metav1.StatusReasonBadRequest},
		{"namespace mismatch", "POST", "/api/v1/namespaces/default/pods",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x","namespace":"other"},"spec":{"containers":[{"name":"c","image":"i"}]}}`,
			nil, 400, metav1.StatusReasonBadRequest},
		{"strict unknown field", "POST", "/api/v1/namespaces/default/pods?fieldValidation=Strict",
			`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"i","colour":"red"}]}}`,
			nil, 400, metav1.StatusReasonBadRequest},
		{"bad label selector", "GET", "/api/v1/pods?labelSelector=a%20in%20", "", nil, 400, metav1.StatusReasonBadRequest},
		{"unsupported field selector", "GET", "/api/v1/pods?fieldSelector=spec.colour%3Dred", "", nil, 400, metav1.StatusReasonBadRequest},
		{"bad limit", "GET", "/api/v1/pods?limit=many", "", nil, 400, metav1.StatusReasonBadRequest},
		{"bad continue", "GET", "/api/v1/pods?limit=1&continue=garbage", "", nil, 400, metav1.StatusReasonBadRequest},
		{"no token", "GET", "/api/v1/pods", "", []requestOption{withToken("")}, 401, metav1.StatusReasonUnauthorized},
		{"bad token", "GET", "/api/v1/pods", "", []requestOption{withToken("guess")}, 401, metav1.StatusReasonUnauthorized},
		{"post to an object", "POST", "/api/v1/namespaces/default/pods/exists", podJSON("exists", nil), nil, 405, metav1.StatusReasonMethodNotAllowed},
		{"put to a collection", "PUT", "/api/v1/namespaces/default/pods", podJSON("exists", nil), nil, 405, metav1.StatusReasonMethodNotAllowed},
		{"delete discovery", "DELETE", "/api/v1", "", nil, 405, metav1.StatusReasonMethodNotAllowed},
		{"server-side apply without a field manager", "PATCH", "/api/v1/namespaces/default/pods/exists", `{}`,
			[]requestOption{withHeader("Content-Type", "application/apply-patch+yaml")}, 422, metav1.StatusReasonInvalid},
		{"xml body", "POST", "/api/v1/namespaces/default/pods", `<pod/>`,
			[]requestOption{withHeader("Content-Type", "application/xml")}, 415, metav1.StatusReasonUnsupportedMediaType},
		{"failed json patch test", "PATCH", "/api/v1/namespaces/default/pods/exists", `[{"op":"test","path":"/metadata/name","value":"other"}]`,
			[]requestOption{withHeader("Content-Type", "application/json-patch+json")}, 422, metav1.StatusReasonInvalid},
		{"nothing acceptable", "GET", "/api/v1/pods", "", []requestOption{withHeader("Accept", "text/html")}, 406, metav1.StatusReasonNotAcceptable},
		{"body too large", "POST", "/api/v1/namespaces/default/pods", big, nil, 413, metav1.StatusReasonRequestEntityTooLarge},
		{"missing namespace", "POST", "/api/v1/namespaces/nowhere/pods", podJSON("x", nil), nil, 404, metav1.StatusReasonNotFound},
		{"delete default namespace", "DELETE", "/api/v1/namespaces/default", "", nil, 403, metav1.StatusReasonForbidden},
		{"bad grace period", "DELETE", "/api/v1/namespaces/default/pods/exists?gracePeriodSeconds=-1", "", nil, 422, metav1.StatusReasonInvalid},
		{"bad propagation", "DELETE", "/api/v1/namespaces/default/pods/exists", `{"propagationPolicy":"Sideways"}`, nil, 422, metav1.StatusReasonInvalid},
		{"exact rv 0", "GET", "/api/v1/pods?resourceVersion=0&resourceVersionMatch=Exact", "", nil, 400, metav1.StatusReasonBadRequest},
		// Unclean paths are never redirected to another resource.
		{"encoded dot-dot", "DELETE", "/api/v1/namespaces/default/configmaps/..%2Fsecrets?dryRun=All", "", nil, 404, metav1.StatusReasonNotFound},
		{"dot-dot segment", "GET", "/api/v1/namespaces/default/configmaps/../secrets", "", nil, 404, metav1.StatusReasonNotFound},
		{"dot segment", "GET", "/api/v1/./namespaces", "", nil, 404, metav1.StatusReasonNotFound},
		{"double slash", "GET", "//api/v1/namespaces", "", nil, 404, metav1.StatusReasonNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do(tc.method, tc.path, tc.body, tc.opts...)
			require.Equal(t, tc.wantCode, r.code, "%s %s: %s", tc.method, tc.path, r.body)
			st := r.status(t)
			assert.Equal(t, tc.wantReason, st.Reason, "reason of %s", r.body)
			assert.Equal(t, int32(tc.wantCode), st.Code, "code in the Status body")
			assert.Equal(t, metav1.StatusFailure, st.Status)
			assert.NotEmpty(t, st.Message)
		})
	}
}

func TestInvalidPodReportsFieldCauses(t *testing.T) {
	s := newTestServer(t)
	r := s.mustDo(422, "POST", "/api/v1/namespaces/default/pods",
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p"},"spec":{"containers":[{"name":"c"}]}}`)
	st := r.status(t)
	require.NotNil(t, st.Details)
	assert.Equal(t, "Pod", st.Details.Kind)
	require.NotEmpty(t, st.Details.Causes)
	assert.Equal(t, "spec.containers[0].image", st.Details.Causes[0].Field)
}

func TestUnknownFieldWarning(t *testing.T) {
	s := newTestServer(t)
	r := s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods",
		`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"w"},"spec":{"colour":"red","containers":[{"name":"c","image":"i"}]}}`)
	assert.Contains(t, r.header.Get("Warning"), `unknown field \"spec.colour\"`, "default fieldValidation=Warn")
}

func TestAnonymous(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) { o.AnonymousAuth = true })
	r := s.mustDo(http.StatusForbidden, "GET", "/api/v1/pods", "", withToken(""))
	assert.Equal(t, metav1.StatusReasonForbidden, r.status(t).Reason)
	assert.Contains(t, r.status(t).Message, `User "system:anonymous" cannot list resource "pods"`)
	s.mustDo(http.StatusOK, "GET", "/healthz", "", withToken(""))
	s.mustDo(http.StatusOK, "GET", "/version", "", withToken(""))
	s.mustDo(http.StatusUnauthorized, "GET", "/healthz", "", withToken("wrong"))
}

// blockingPlugin holds every create in admission until released, so a test
// can fill the in-flight limit deterministically.
type blockingPlugin struct {
	entered chan struct{}
	release chan struct{}
}

func (*blockingPlugin) Name() string                        { return "Blocking" }
func (*blockingPlugin) Handles(op admission.Operation) bool { return op == admission.Create }
func (p *blockingPlugin) Admit(ctx context.Context, _ *admission.Attributes) error {
	p.entered <- struct{}{}
	select {
	case <-p.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// TestTooManyRequests: with every in-flight seat taken, requests are 429
// with a Retry-After, except the health checks.
func TestTooManyRequests(t *testing.T) {
	plugin := &blockingPlugin{entered: make(chan struct{}), release: make(chan struct{})}
	s := newTestServer(t, func(o *apiserver.Options) {
		o.Limits = filters.Limits{MaxInFlight: 1}
		o.Admission = admission.Chain{&admission.Defaulting{SetDefaults: corev1.SetDefaults}, plugin}
	})
	done := make(chan response, 1)
	go func() { done <- s.do("POST", "/api/v1/namespaces/default/pods", podJSON("slow", nil)) }()
	<-plugin.entered
	r := s.mustDo(http.StatusTooManyRequests, "GET", "/api/v1/pods", "")
	assert.Equal(t, metav1.StatusReasonTooManyRequests, r.status(t).Reason)
	assert.Equal(t, "1", r.header.Get("Retry-After"))
	// Health checks never count against the limit, or a prober would take
	// a busy server for a dead one.
	for _, path := range []string{"/healthz", "/livez", "/readyz"} {
		s.mustDo(http.StatusOK, "GET", path, "")
	}
	close(plugin.release)
	assert.Equal(t, http.StatusCreated, (<-done).code)
	s.mustDo(http.StatusOK, "GET", "/api/v1/pods", "") // the slot is free again
}

type panickingPlugin struct{}

func (panickingPlugin) Name() string                        { return "Panicking" }
func (panickingPlugin) Handles(op admission.Operation) bool { return true }
func (panickingPlugin) Admit(context.Context, *admission.Attributes) error {
	panic(errors.New("plugin bug"))
}

func TestPanicBecomesInternalError(t *testing.T) {
	s := newTestServer(t, func(o *apiserver.Options) { o.Admission = admission.Chain{panickingPlugin{}} })
	r := s.mustDo(http.StatusInternalServerError, "POST", "/api/v1/namespaces/default/pods", podJSON("p", nil))
	assert.Equal(t, metav1.StatusReasonInternalError, r.status(t).Reason)
	s.mustDo(http.StatusOK, "GET", "/healthz", "") // the server lives on
}

// TestLargeObjectIsStored: an object whose body is under the API
// server's 3 MiB limit is stored, however etcd's own default limit (1.5
// MiB) compares: the embedded etcd takes what the API server accepts.
func TestLargeObjectIsStored(t *testing.T) {
	s := newTestServer(t)
	arg := strings.Repeat("x", 2<<20)
	body := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"big"},"spec":{"containers":[{"name":"c","image":"busybox","command":["echo","` + arg + `"]}]}}`
	r := s.do("POST", "/api/v1/namespaces/default/pods", body)
	require.Equal(t, http.StatusCreated, r.code, "create a 2 MiB pod: %.300s", r.body)
	r = s.do("GET", "/api/v1/namespaces/default/pods/big", "")
	require.Equal(t, http.StatusOK, r.code, "get the 2 MiB pod: %.300s", r.body)
	assert.True(t, bytes.Contains(r.body, []byte(arg)), "the command came back whole")
}
