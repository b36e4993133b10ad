package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestDiscovery(t *testing.T) {
	s := newTestServer(t)

	var versions metav1.APIVersions
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api", "").body, &versions))
	assert.Equal(t, []string{"v1"}, versions.Versions)

	var groups metav1.APIGroupList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/apis", "").body, &groups))
	assert.Equal(t, "APIGroupList", groups.Kind)

	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1", "").body, &list))
	assert.Equal(t, "v1", list.GroupVersion)
	byName := map[string]metav1.APIResource{}
	for _, r := range list.APIResources {
		byName[r.Name] = r
	}
	pods := byName["pods"]
	assert.Equal(t, "Pod", pods.Kind)
	assert.True(t, pods.Namespaced)
	assert.Equal(t, []string{"po"}, pods.ShortNames)
	assert.Equal(t, []string{"all"}, pods.Categories)
	assert.Subset(t, pods.Verbs, []string{"create", "delete", "deletecollection", "get", "list", "patch", "update", "watch"})
	assert.Equal(t, []string{"get", "patch", "update"}, byName["pods/status"].Verbs)
	assert.Equal(t, []string{"create"}, byName["pods/binding"].Verbs)
	assert.False(t, byName["nodes"].Namespaced)
	assert.Equal(t, []string{"no"}, byName["nodes"].ShortNames)
	assert.Equal(t, []string{"ns"}, byName["namespaces"].ShortNames)
	assert.Contains(t, byName, "namespaces/finalize")
	assert.Equal(t, []string{"ev"}, byName["events"].ShortNames)
}

func TestVersionAndHealth(t *testing.T) {
	s := newTestServer(t)
	var v map[string]string
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/version", "").body, &v))
	assert.Equal(t, "1", v["major"])
	assert.NotEmpty(t, v["gitVersion"])
	for _, path := range []string{"/healthz", "/livez", "/readyz"} {
		assert.Equal(t, "ok", string(s.mustDo(http.StatusOK, "GET", path, "").body), path)
	}
	assert.Contains(t, string(s.mustDo(http.StatusOK, "GET", "/readyz?verbose", "").body), "[+]etcd ok")
}

func TestLeasesInCoordinationGroup(t *testing.T) {
	s := newTestServer(t)
	var groups metav1.APIGroupList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/apis", "").body, &groups))
	require.NotEmpty(t, groups.Groups)
	assert.Equal(t, "coordination.k8s.io", groups.Groups[0].Name)
	assert.Equal(t, "coordination.k8s.io/v1", groups.Groups[0].PreferredVersion.GroupVersion)

	lease := `{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"node-1","namespace":"kube-node-lease"},"spec":{"holderIdentity":"node-1","leaseDurationSeconds":40}}`
	s.mustDo(http.StatusCreated, "POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases", lease)
	s.mustDo(http.StatusOK, "GET", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases/node-1", "")
	s.mustDo(http.StatusUnprocessableEntity, "POST", "/apis/coordination.k8s.io/v1/namespaces/kube-node-lease/leases",
		`{"apiVersion":"coordination.k8s.io/v1","kind":"Lease","metadata":{"name":"bad"},"spec":{"leaseDurationSeconds":0}}`)
	s.mustDo(http.StatusNotFound, "GET", "/apis/coordination.k8s.io/v2/namespaces/kube-node-lease/leases", "")
}
