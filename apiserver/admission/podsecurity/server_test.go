package podsecurity_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/admission/podsecurity"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/audit"
)

const plainPodJSON = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`

// TestThroughTheAPIServer: in the default admission chain, warn reaches
// the client as a Warning header, audit reaches the audit Event, a
// workload's template is warned about, tightening enforce warns about
// the existing pods, and enforce refuses with a 403 Status.
func TestThroughTheAPIServer(t *testing.T) {
	var mu sync.Mutex
	var events []*audit.Event
	api := apiservertest.New(t, func(o *apiserver.Options) {
		o.AuditSink = audit.SinkFunc(func(evs ...*audit.Event) bool {
			mu.Lock()
			defer mu.Unlock()
			events = append(events, evs...)
			return true
		})
	})
	do := func(method, path, contentType, body string) *httptest.ResponseRecorder {
		t.Helper()
		r := httptest.NewRequest(method, path, strings.NewReader(body))
		r.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
		r.Header.Set("Content-Type", contentType)
		w := httptest.NewRecorder()
		api.Handler().ServeHTTP(w, r)
		return w
	}
	created := do("POST", "/api/v1/namespaces", "application/json",
		`{"metadata":{"name":"ps","labels":{"pod-security.kubernetes.io/warn":"restricted","pod-security.kubernetes.io/audit":"restricted"}}}`)
	require.Equal(t, http.StatusCreated, created.Code, created.Body.String())

	w := do("POST", "/api/v1/namespaces/ps/pods", "application/json", plainPodJSON)
	require.Equal(t, http.StatusCreated, w.Code, w.Body.String())
	want := `would violate PodSecurity "restricted:latest": ` + plainPodRestricted
	quoted, err := json.Marshal(want)
	require.NoError(t, err)
	assert.Equal(t, []string{"299 - " + string(quoted)}, w.Header().Values("Warning"), "warn")
	mu.Lock()
	var annotation string
	for _, ev := range events {
		if ev.ObjectRef != nil && ev.ObjectRef.Resource == "pods" && ev.Verb == "create" {
			annotation = ev.Annotations[podsecurity.AuditViolationsAnnotation]
		}
	}
	mu.Unlock()
	assert.Equal(t, want, annotation, "audit")

	w = do("POST", "/apis/apps/v1/namespaces/ps/deployments", "application/json",
		`{"metadata":{"name":"web"},"spec":{"selector":{"matchLabels":{"app":"web"}},"template":{"metadata":{"labels":{"app":"web"}},`+
			`"spec":{"containers":[{"name":"c","image":"busybox"}]}}}}`)
	require.Equal(t, http.StatusCreated, w.Code, w.Body.String())
	assert.Equal(t, []string{"299 - " + string(quoted)}, w.Header().Values("Warning"), "a Deployment's template")

	w = do("PATCH", "/api/v1/namespaces/ps", "application/merge-patch+json",
		`{"metadata":{"labels":{"pod-security.kubernetes.io/enforce":"restricted"}}}`)
	require.Equal(t, http.StatusOK, w.Code, w.Body.String())
	assert.Contains(t, strings.Join(w.Header().Values("Warning"), "\n"),
		`existing pods in namespace \"ps\" violate the new PodSecurity enforce level \"restricted:latest\"`)

	w = do("POST", "/api/v1/namespaces/ps/pods", "application/json", strings.Replace(plainPodJSON, `"x"`, `"y"`, 1))
	require.Equal(t, http.StatusForbidden, w.Code, w.Body.String())
	var status metav1.Status
	require.NoError(t, json.Unmarshal(w.Body.Bytes(), &status))
	assert.Equal(t, `pods "y" is forbidden: violates PodSecurity "restricted:latest": `+plainPodRestricted, status.Message)
	assert.Equal(t, metav1.StatusReasonForbidden, status.Reason)
	assert.Empty(t, w.Header().Values("Warning"), "no warning beside the refusal")
}
