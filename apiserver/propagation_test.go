package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The server side of cascading deletion: DeleteOptions' propagation
// policy becomes the garbage collector's finalizers, which hold the
// object until the collector has dealt with its dependents.

const configMapsPath = "/api/v1/namespaces/default/configmaps"

// createConfigMap creates default/name with the given finalizers.
func (s *testServer) createConfigMap(name string, finalizers ...string) {
	s.t.Helper()
	cm := corev1.ConfigMap{}
	cm.APIVersion, cm.Kind = "v1", "ConfigMap"
	cm.Name, cm.Finalizers = name, finalizers
	body, err := json.Marshal(cm)
	require.NoError(s.t, err)
	s.mustDo(http.StatusCreated, "POST", configMapsPath, string(body))
}

// getConfigMap returns default/name, or nil when it is gone.
func (s *testServer) getConfigMap(name string) *corev1.ConfigMap {
	s.t.Helper()
	r := s.do("GET", configMapsPath+"/"+name, "")
	if r.code == http.StatusNotFound {
		return nil
	}
	require.Equal(s.t, http.StatusOK, r.code, "GET configmap %s: %s", name, r.body)
	return decode[corev1.ConfigMap](s.t, r)
}

func TestDeletePropagationPolicyAddsFinalizers(t *testing.T) {
	s := newTestServer(t)
	tests := []struct {
		name  string
		query string
		body  string
		// wantFinalizers is nil when the object must be gone at once.
		wantFinalizers []string
	}{
		{name: "default is background", wantFinalizers: nil},
		{name: "background query", query: "?propagationPolicy=Background", wantFinalizers: nil},
		{name: "background body", body: `{"propagationPolicy":"Background"}`, wantFinalizers: nil},
		{name: "foreground query", query: "?propagationPolicy=Foreground", wantFinalizers: []string{"foregroundDeletion"}},
		{name: "foreground body", body: `{"kind":"DeleteOptions","apiVersion":"v1","propagationPolicy":"Foreground"}`,
			wantFinalizers: []string{"foregroundDeletion"}},
		{name: "orphan query", query: "?propagationPolicy=Orphan", wantFinalizers: []string{"orphan"}},
		{name: "orphan body", body: `{"propagationPolicy":"Orphan"}`, wantFinalizers: []string{"orphan"}},
		{name: "deprecated orphanDependents true", body: `{"orphanDependents":true}`, wantFinalizers: []string{"orphan"}},
		{name: "deprecated orphanDependents false", body: `{"orphanDependents":false}`, wantFinalizers: nil},
		{name: "deprecated orphanDependents query", query: "?orphanDependents=true", wantFinalizers: []string{"orphan"}},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			name := "cm-" + string(rune('a'+i))
			s.createConfigMap(name)
			r := s.do("DELETE", configMapsPath+"/"+name+tc.query, tc.body)
			got := s.getConfigMap(name)
			if tc.wantFinalizers == nil {
				assert.Equal(t, http.StatusOK, r.code, "DELETE %s%s %s: %s", name, tc.query, tc.body, r.body)
				assert.Nil(t, got, "%s is gone at once", name)
				return
			}
			require.Equal(t, http.StatusOK, r.code, "DELETE %s%s %s: %s", name, tc.query, tc.body, r.body)
			assert.Equal(t, tc.wantFinalizers, decode[corev1.ConfigMap](t, r).Finalizers, "the response shows the finalizers")
			require.NotNil(t, got, "%s waits for the garbage collector", name)
			assert.Equal(t, tc.wantFinalizers, got.Finalizers, "stored finalizers")
			assert.NotNil(t, got.DeletionTimestamp, "deletion started")
		})
	}
}

func TestDeleteOptionsOrphanDependentsAndPolicyConflict(t *testing.T) {
	s := newTestServer(t)
	s.createConfigMap("both")
	r := s.mustDo(http.StatusUnprocessableEntity, "DELETE", configMapsPath+"/both",
		`{"orphanDependents":true,"propagationPolicy":"Foreground"}`)
	assert.Contains(t, r.status(t).Message, "orphanDependents and deletionPropagation cannot be both set")
	got := s.getConfigMap("both")
	require.NotNil(t, got, "a rejected delete changes nothing")
	assert.Nil(t, got.DeletionTimestamp)
}

// A repeated delete of an object being deleted replaces the collector's
// finalizer with the one its policy asks for, keeps it without a policy,
// and lets the object go when a Background delete leaves no finalizer.
func TestDeleteOptionsOrphanDependentsQueryMustBeABool(t *testing.T) {
	s := newTestServer(t)
	s.createConfigMap("typo")
	r := s.mustDo(http.StatusBadRequest, "DELETE", configMapsPath+"/typo?orphanDependents=yes-please", "")
	assert.Contains(t, r.status(t).Message, `invalid orphanDependents "yes-please"`)
	assert.NotNil(t, s.getConfigMap("typo"), "a rejected delete changes nothing")
}

func TestRepeatedDeleteChangesPolicy(t *testing.T) {
	s := newTestServer(t)
	s.createConfigMap("again")
	path := configMapsPath + "/again"
	s.mustDo(http.StatusOK, "DELETE", path+"?propagationPolicy=Foreground", "")
	first := s.getConfigMap("again")
	require.NotNil(t, first)

	s.mustDo(http.StatusOK, "DELETE", path, "")
	assert.Equal(t, []string{"foregroundDeletion"}, s.getConfigMap("again").Finalizers, "no policy keeps the first one")

	s.mustDo(http.StatusOK, "DELETE", path+"?propagationPolicy=Orphan", "")
	second := s.getConfigMap("again")
	require.NotNil(t, second)
	assert.Equal(t, []string{"orphan"}, second.Finalizers, "Orphan replaces foregroundDeletion")
	assert.True(t, first.DeletionTimestamp.Equal(second.DeletionTimestamp.Time), "the deletion keeps its start")

	s.mustDo(http.StatusOK, "DELETE", path+"?propagationPolicy=Background", "")
	assert.Nil(t, s.getConfigMap("again"), "Background removed the last finalizer: gone")
}

// Finalizers that are not the collector's stay whatever the policy.
func TestPropagationKeepsOtherFinalizers(t *testing.T) {
	s := newTestServer(t)
	s.createConfigMap("held", "example.com/hold")
	path := configMapsPath + "/held"
	s.mustDo(http.StatusOK, "DELETE", path+"?propagationPolicy=Foreground", "")
	assert.Equal(t, []string{"example.com/hold", "foregroundDeletion"}, s.getConfigMap("held").Finalizers)

	s.mustDo(http.StatusOK, "DELETE", path+"?propagationPolicy=Background", "")
	got := s.getConfigMap("held")
	require.NotNil(t, got, "example.com/hold still holds it")
	assert.Equal(t, []string{"example.com/hold"}, got.Finalizers)

	// Removing the last finalizer finishes the deletion.
	s.mustDo(http.StatusOK, "PATCH", path, `{"metadata":{"finalizers":null}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	assert.Nil(t, s.getConfigMap("held"))
}

func TestDryRunDeleteWithPolicyStoresNothing(t *testing.T) {
	s := newTestServer(t)
	s.createConfigMap("dry")
	r := s.mustDo(http.StatusOK, "DELETE", configMapsPath+"/dry?dryRun=All&propagationPolicy=Foreground", "")
	assert.Equal(t, []string{"foregroundDeletion"}, decode[corev1.ConfigMap](t, r).Finalizers, "the answer shows what would be stored")
	got := s.getConfigMap("dry")
	require.NotNil(t, got)
	assert.Empty(t, got.Finalizers, "dry run")
	assert.Nil(t, got.DeletionTimestamp, "dry run")
}

func TestDeleteCollectionWithPolicy(t *testing.T) {
	s := newTestServer(t)
	s.createConfigMap("one")
	s.createConfigMap("two")
	s.mustDo(http.StatusOK, "DELETE", configMapsPath+"?propagationPolicy=Orphan", "")
	for _, name := range []string{"one", "two"} {
		got := s.getConfigMap(name)
		require.NotNil(t, got, "%s waits for the orphan finalizer", name)
		assert.Equal(t, []string{"orphan"}, got.Finalizers, name)
	}
}

// A graceful pod deleted in the foreground waits for both its kubelet and
// the garbage collector: the kubelet's final delete (grace 0) leaves it
// there until the finalizer goes.
func TestForegroundDeleteOfBoundPod(t *testing.T) {
	s := newTestServer(t)
	s.createPod("fg", nil)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods/fg/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"fg"},"target":{"kind":"Node","name":"n"}}`)
	path := "/api/v1/namespaces/default/pods/fg"

	p := s.mustDo(http.StatusOK, "DELETE", path, `{"propagationPolicy":"Foreground"}`).pod(t)
	assert.Equal(t, []string{"foregroundDeletion"}, p.Finalizers)
	require.NotNil(t, p.DeletionGracePeriodSeconds)
	assert.Equal(t, int64(30), *p.DeletionGracePeriodSeconds, "the grace period still applies")

	// While the grace period runs, a delete that does not shorten it
	// cannot change the finalizers (upstream's pending graceful delete).
	p = s.mustDo(http.StatusOK, "DELETE", path, `{"propagationPolicy":"Orphan"}`).pod(t)
	assert.Equal(t, []string{"foregroundDeletion"}, p.Finalizers)

	// The kubelet's final delete ends the grace period; the finalizer
	// still holds the pod.
	p = s.mustDo(http.StatusOK, "DELETE", path, `{"gracePeriodSeconds":0}`).pod(t)
	assert.Equal(t, int64(0), *p.DeletionGracePeriodSeconds)
	assert.Equal(t, []string{"foregroundDeletion"}, p.Finalizers)
	s.mustDo(http.StatusOK, "GET", path, "")

	// The garbage collector removing the finalizer finishes it.
	s.mustDo(http.StatusOK, "PATCH", path, `{"metadata":{"finalizers":null}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	s.mustDo(http.StatusNotFound, "GET", path, "")
}

// An unscheduled pod has no grace period: Foreground makes it wait for the
// collector all the same.
func TestForegroundDeleteOfUnscheduledPod(t *testing.T) {
	s := newTestServer(t)
	s.createPod("pending", nil)
	p := s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/pending?propagationPolicy=Foreground", "").pod(t)
	assert.Equal(t, []string{"foregroundDeletion"}, p.Finalizers)
	require.NotNil(t, p.DeletionGracePeriodSeconds)
	assert.Equal(t, int64(0), *p.DeletionGracePeriodSeconds)
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/pending", "")
}

// Each item of a DeleteCollection gets its own grace period: an
// unscheduled pod's 0 does not carry over to a bound pod listed after it.
func TestDeleteCollectionGracePerItem(t *testing.T) {
	s := newTestServer(t)
	s.createPod("a-pending", nil)
	s.createPod("b-bound", nil)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods/b-bound/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"b-bound"},"target":{"kind":"Node","name":"n"}}`)

	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods", "")
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/a-pending", "")
	p := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/b-bound", "").pod(t)
	require.NotNil(t, p.DeletionGracePeriodSeconds, "the bound pod waits for its kubelet")
	assert.Equal(t, int64(30), *p.DeletionGracePeriodSeconds)
}
