package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// deploymentYAML is an applied configuration of Deployment web; extra is
// YAML indented under spec.
func deploymentYAML(replicas int, extra string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: %d
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: c
        image: nginx
        ports:
        - containerPort: 80
%s`, replicas, extra)
}

var applyContentType = withHeader("Content-Type", "application/apply-patch+yaml")

// apply server-side applies body to path as manager and returns the
// response.
func (s *testServer) apply(path, manager, body string, query ...string) response {
	s.t.Helper()
	q := "?fieldManager=" + manager
	for _, extra := range query {
		q += "&" + extra
	}
	return s.do("PATCH", path+q, body, applyContentType)
}

func decodeDeployment(t *testing.T, r response) *appsv1.Deployment {
	t.Helper()
	var d appsv1.Deployment
	require.NoError(t, json.Unmarshal(r.body, &d), "decode Deployment from %s", r.body)
	return &d
}

// managers lists the entries of managedFields as "manager/operation[/subresource]".
func managers(entries []metav1.ManagedFieldsEntry) []string {
	var out []string
	for _, e := range entries {
		s := e.Manager + "/" + e.Operation
		if e.Subresource != "" {
			s += "/" + e.Subresource
		}
		out = append(out, s)
	}
	return out
}

func entryOf(t *testing.T, entries []metav1.ManagedFieldsEntry, manager string) metav1.ManagedFieldsEntry {
	t.Helper()
	for _, e := range entries {
		if e.Manager == manager {
			return e
		}
	}
	require.Failf(t, "no managedFields entry", "manager %q in %v", manager, managers(entries))
	return metav1.ManagedFieldsEntry{}
}

func TestApplyCreatesThenUpdates(t *testing.T) {
	s := newTestServer(t)
	r := s.apply(deploymentsPath+"/web", "kubectl", deploymentYAML(2, ""))
	require.Equal(t, http.StatusCreated, r.code, "first apply creates: %s", r.body)
	d := decodeDeployment(t, r)
	assert.Equal(t, int32(2), *d.Spec.Replicas)
	require.Equal(t, []string{"kubectl/Apply"}, managers(d.ManagedFields))
	e := d.ManagedFields[0]
	assert.Equal(t, "apps/v1", e.APIVersion)
	assert.Equal(t, "FieldsV1", e.FieldsType)
	assert.NotNil(t, e.Time, "time of the operation")
	assert.Equal(t, `{"f:spec":{"f:replicas":{},"f:selector":{},"f:template":{"f:metadata":{"f:labels":{"f:app":{}}},`+
		`"f:spec":{"f:containers":{"k:{\"name\":\"c\"}":{".":{},"f:image":{},"f:name":{},"f:ports":{`+
		`"k:{\"containerPort\":80,\"protocol\":\"TCP\"}":{".":{},"f:containerPort":{}}}}}}}}}`, string(e.FieldsV1.Raw),
		"a port is keyed by containerPort and protocol, the protocol defaulted")

	r = s.apply(deploymentsPath+"/web", "kubectl", deploymentYAML(3, ""))
	require.Equal(t, http.StatusOK, r.code, "second apply: %s", r.body)
	d = decodeDeployment(t, r)
	assert.Equal(t, int32(3), *d.Spec.Replicas)
	assert.Equal(t, int64(2), d.Generation, "the spec changed")
	assert.Equal(t, []string{"kubectl/Apply"}, managers(d.ManagedFields))
}

func TestApplyOwnership(t *testing.T) {
	tests := []struct {
		name string
		// second is applied by manager "b" after "a" applied 2 replicas
		// with a paused field.
		second, query string
		wantCode      int
		wantReplicas  int32
		wantManagers  []string
		wantMessage   string
	}{
		// b's apply changes nothing, so, as upstream, its entry has no
		// time, which sorts it first.
		{name: "shared field", second: deploymentYAML(2, ""), wantCode: http.StatusOK, wantReplicas: 2,
			wantManagers: []string{"b/Apply", "a/Apply"}},
		{name: "conflict", second: deploymentYAML(5, ""), wantCode: http.StatusConflict,
			wantMessage: `Apply failed with 1 conflict: conflict with "a": .spec.replicas`},
		{name: "force", second: deploymentYAML(5, ""), query: "force=true", wantCode: http.StatusOK, wantReplicas: 5,
			wantManagers: []string{"a/Apply", "b/Apply"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestServer(t)
			s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, "  paused: true\n"))
			var r response
			if tc.query != "" {
				r = s.apply(deploymentsPath+"/web", "b", tc.second, tc.query)
			} else {
				r = s.apply(deploymentsPath+"/web", "b", tc.second)
			}
			require.Equal(t, tc.wantCode, r.code, "%s", r.body)
			if tc.wantMessage != "" {
				st := r.status(t)
				assert.Equal(t, metav1.StatusReasonConflict, st.Reason)
				assert.Equal(t, tc.wantMessage, st.Message)
				require.NotNil(t, st.Details)
				assert.Equal(t, []metav1.StatusCause{{Type: metav1.CauseTypeFieldManagerConflict, Message: `conflict with "a"`, Field: ".spec.replicas"}}, st.Details.Causes)
				return
			}
			d := decodeDeployment(t, r)
			assert.Equal(t, tc.wantReplicas, *d.Spec.Replicas)
			assert.Equal(t, tc.wantManagers, managers(d.ManagedFields))
			if tc.query == "force=true" {
				assert.NotContains(t, string(entryOf(t, d.ManagedFields, "a").FieldsV1.Raw), "f:replicas", "b took replicas from a")
				assert.Contains(t, string(entryOf(t, d.ManagedFields, "b").FieldsV1.Raw), "f:replicas")
			}
		})
	}
}

func TestApplyRemovesDroppedFields(t *testing.T) {
	s := newTestServer(t)
	s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, "  paused: true\n"))
	r := s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, ""))
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	d := decodeDeployment(t, r)
	assert.False(t, d.Spec.Paused, "paused is no longer applied, and nobody else owns it")
	assert.NotContains(t, string(d.ManagedFields[0].FieldsV1.Raw), "f:paused")
}

func TestUpdatesRecordManagers(t *testing.T) {
	s := newTestServer(t)
	s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, ""))
	d := decodeDeployment(t, s.mustDo(http.StatusOK, "GET", deploymentsPath+"/web", ""))
	d.Spec.Replicas = new(int32(4))
	d.ManagedFields = nil
	body, err := json.Marshal(d)
	require.NoError(t, err)
	r := s.mustDo(http.StatusOK, "PUT", deploymentsPath+"/web", string(body), withHeader("User-Agent", "kubectl-edit/v1.33.0 (linux/amd64)"))
	d = decodeDeployment(t, r)
	assert.Equal(t, []string{"a/Apply", "kubectl-edit/Update"}, managers(d.ManagedFields), "the manager defaults to the User-Agent's product")
	assert.JSONEq(t, `{"f:spec":{"f:replicas":{}}}`, string(entryOf(t, d.ManagedFields, "kubectl-edit").FieldsV1.Raw))

	// A merge patch with ?fieldManager= is recorded under that name.
	r = s.mustDo(http.StatusOK, "PATCH", deploymentsPath+"/web?fieldManager=scaler", `{"spec":{"replicas":6}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	d = decodeDeployment(t, r)
	assert.Equal(t, []string{"a/Apply", "scaler/Update"}, managers(d.ManagedFields), "kubectl-edit lost its only field")

	// Applying the field again now conflicts with the updater.
	r = s.apply(deploymentsPath+"/web", "a", deploymentYAML(3, ""))
	require.Equal(t, http.StatusConflict, r.code, "%s", r.body)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "scaler" using apps/v1: .spec.replicas`, r.status(t).Message)

	// A create records its manager too.
	r = s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/configmaps?fieldManager=creator",
		`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm"},"data":{"k":"v"}}`)
	var cm struct{ Metadata metav1.ObjectMeta }
	require.NoError(t, json.Unmarshal(r.body, &cm))
	require.Equal(t, []string{"creator/Update"}, managers(cm.Metadata.ManagedFields))
	assert.JSONEq(t, `{"f:data":{".":{},"f:k":{}}}`, string(cm.Metadata.ManagedFields[0].FieldsV1.Raw))
}

func TestManagedFieldsInRequests(t *testing.T) {
	s := newTestServer(t)
	s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, ""))
	get := func() *appsv1.Deployment {
		return decodeDeployment(t, s.mustDo(http.StatusOK, "GET", deploymentsPath+"/web", ""))
	}
	put := func(d *appsv1.Deployment) *appsv1.Deployment {
		body, err := json.Marshal(d)
		require.NoError(t, err)
		return decodeDeployment(t, s.mustDo(http.StatusOK, "PUT", deploymentsPath+"/web?fieldManager=u", string(body)))
	}
	d := get()
	d.ManagedFields = nil
	d.Labels = map[string]string{"x": "y"}
	assert.Equal(t, []string{"a/Apply", "u/Update"}, managers(put(d).ManagedFields), "no managedFields in the body keeps the stored ones")

	d = get()
	d.ManagedFields = []metav1.ManagedFieldsEntry{{}}
	assert.Empty(t, put(d).ManagedFields, "a single empty entry resets them")

	// An apply may not carry managedFields.
	r := s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, "")+"  \n")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	r = s.apply(deploymentsPath+"/web", "a", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web","managedFields":[{"manager":"x"}]}}`)
	require.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
	assert.Equal(t, "metadata.managedFields must be nil", r.status(t).Message)
}

func TestApplyRequestErrors(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name, path, body string
		opts             []requestOption
		wantCode         int
		wantMessage      string
	}{
		{name: "no field manager", path: deploymentsPath + "/web", body: deploymentYAML(1, ""), opts: []requestOption{applyContentType},
			wantCode: 422, wantMessage: `PatchOptions.meta.k8s.io "" is invalid: fieldManager: Required value: is required for apply patch`},
		{name: "force on a merge patch", path: deploymentsPath + "/web?force=true", body: `{}`,
			opts: []requestOption{withHeader("Content-Type", "application/merge-patch+json")}, wantCode: 422,
			wantMessage: `PatchOptions.meta.k8s.io "" is invalid: force: Forbidden: may not be specified for non-apply patch`},
		{name: "bad yaml", path: deploymentsPath + "/web?fieldManager=a", body: "a: [", opts: []requestOption{applyContentType}, wantCode: 400},
		{name: "wrong kind", path: deploymentsPath + "/web?fieldManager=a", body: "apiVersion: v1\nkind: Pod\nmetadata: {name: web}\n",
			opts: []requestOption{applyContentType}, wantCode: 400, wantMessage: "invalid object type: /v1, Kind=Pod"},
		{name: "unknown field", path: deploymentsPath + "/web?fieldManager=a", body: deploymentYAML(1, "  colour: red\n"),
			opts: []requestOption{applyContentType}, wantCode: 400},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("PATCH", tc.path, tc.body, tc.opts...)
			require.Equal(t, tc.wantCode, r.code, "%s", r.body)
			if tc.wantMessage != "" {
				assert.Equal(t, tc.wantMessage, r.status(t).Message)
			}
		})
	}
	s.mustDo(http.StatusNotFound, "GET", deploymentsPath+"/web", "")
}

func TestApplyDryRun(t *testing.T) {
	s := newTestServer(t)
	r := s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, ""), "dryRun=All")
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Equal(t, []string{"a/Apply"}, managers(decodeDeployment(t, r).ManagedFields))
	s.mustDo(http.StatusNotFound, "GET", deploymentsPath+"/web", "")
}

func TestApplyStatusSubresource(t *testing.T) {
	s := newTestServer(t)
	s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, ""))
	r := s.apply(deploymentsPath+"/web/status", "ctrl", `{"apiVersion":"apps/v1","kind":"Deployment","metadata":{"name":"web"},"status":{"replicas":2,"readyReplicas":1}}`)
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	d := decodeDeployment(t, r)
	assert.Equal(t, int32(1), d.Status.ReadyReplicas)
	assert.Equal(t, []string{"a/Apply", "ctrl/Apply/status"}, managers(d.ManagedFields))
	assert.JSONEq(t, `{"f:status":{"f:readyReplicas":{},"f:replicas":{}}}`, string(entryOf(t, d.ManagedFields, "ctrl").FieldsV1.Raw))

	// Applying status through the main resource owns nothing there.
	r = s.apply(deploymentsPath+"/web", "a", deploymentYAML(2, "status:\n  replicas: 9\n"))
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	d = decodeDeployment(t, r)
	assert.Equal(t, int32(2), d.Status.Replicas, "status is not written through the main resource")
	assert.NotContains(t, string(entryOf(t, d.ManagedFields, "a").FieldsV1.Raw), "f:status")
}

func TestApplyCustomResource(t *testing.T) {
	s := newTestServer(t)
	s.installCRD(developersCRD)
	const path = "/apis/example.com/v1/namespaces/default/developers/ada"
	cr := func(language string, replicas int) string {
		return fmt.Sprintf("apiVersion: example.com/v1\nkind: Developer\nmetadata:\n  name: ada\nspec:\n  language: %s\n  replicas: %d\n", language, replicas)
	}
	r := s.apply(path, "a", cr("go", 1))
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	u := decodeUnstructured(t, r.body)
	require.Equal(t, []string{"a/Apply"}, managers(u.ManagedFields))
	assert.Equal(t, `{"f:spec":{"f:language":{},"f:replicas":{}}}`, string(u.ManagedFields[0].FieldsV1.Raw))

	r = s.apply(path, "b", cr("rust", 1))
	require.Equal(t, http.StatusConflict, r.code, "%s", r.body)
	assert.Equal(t, `Apply failed with 1 conflict: conflict with "a": .spec.language`, r.status(t).Message)

	r = s.apply(path, "b", cr("rust", 1), "force=true")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	u = decodeUnstructured(t, r.body)
	assert.Equal(t, "rust", u.Content["spec"].(map[string]any)["language"])

	r = s.apply(path+"/status", "ctrl", "apiVersion: example.com/v1\nkind: Developer\nmetadata:\n  name: ada\nstatus:\n  replicas: 1\n")
	require.Equal(t, http.StatusOK, r.code, "%s", r.body)
	u = decodeUnstructured(t, r.body)
	assert.Equal(t, []string{"a/Apply", "b/Apply", "ctrl/Apply/status"}, managers(u.ManagedFields))
}
