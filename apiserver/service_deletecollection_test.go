package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestServiceDeleteCollection: services have deletecollection, as in
// Kubernetes 1.33 (the conformance test "should delete a collection of
// services"): DELETE on the collection deletes the services its label
// selector matches, each releasing its cluster IP and node ports, and
// leaves the others alone.
func TestServiceDeleteCollection(t *testing.T) {
	s := newTestServer(t)
	var list metav1.APIResourceList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1", "").body, &list))
	for _, r := range list.APIResources {
		if r.Name == "services" {
			assert.Contains(t, r.Verbs, "deletecollection", "discovery lists deletecollection for services")
		}
	}

	labeled := func(name, set, extraSpec string) string {
		return fmt.Sprintf(`{"apiVersion":"v1","kind":"Service","metadata":{"name":%q,"labels":{"set":%q}},`+
			`"spec":{"ports":[{"port":80}]%s}}`, name, set, extraSpec)
	}
	a := decode[corev1.Service](t, s.mustDo(http.StatusCreated, "POST", servicesPath, labeled("a", "doomed", `,"type":"NodePort"`)))
	b := decode[corev1.Service](t, s.mustDo(http.StatusCreated, "POST", servicesPath, labeled("b", "doomed", "")))
	s.mustDo(http.StatusCreated, "POST", servicesPath, labeled("keep", "kept", ""))

	r := s.mustDo(http.StatusOK, "DELETE", servicesPath+"?labelSelector=set%3Ddoomed", "")
	deleted := decode[corev1.ServiceList](t, r)
	var names []string
	for _, svc := range deleted.Items {
		names = append(names, svc.Name)
	}
	assert.ElementsMatch(t, []string{"a", "b"}, names, "the deleted services are returned")

	remaining := decode[corev1.ServiceList](t, s.mustDo(http.StatusOK, "GET", servicesPath, ""))
	require.Len(t, remaining.Items, 1, "only the unmatched service is left")
	assert.Equal(t, "keep", remaining.Items[0].Name)

	// Their cluster IPs and node port are free: new services may ask for
	// them (a taken one is 422 "provided IP is already allocated").
	s.mustDo(http.StatusCreated, "POST", servicesPath, labeled("a2", "again",
		fmt.Sprintf(`,"type":"NodePort","clusterIP":%q,"ports":[{"port":80,"nodePort":%d}]`, a.Spec.ClusterIP, a.Spec.Ports[0].NodePort)))
	s.mustDo(http.StatusCreated, "POST", servicesPath, labeled("b2", "again", fmt.Sprintf(`,"clusterIP":%q`, b.Spec.ClusterIP)))

	// A dry run deletes nothing and keeps the allocations.
	s.mustDo(http.StatusOK, "DELETE", servicesPath+"?labelSelector=set%3Dagain&dryRun=All", "")
	assert.Len(t, decode[corev1.ServiceList](t, s.mustDo(http.StatusOK, "GET", servicesPath, "")).Items, 3)
	r = s.mustDo(http.StatusUnprocessableEntity, "POST", servicesPath, labeled("b3", "again", fmt.Sprintf(`,"clusterIP":%q`, b.Spec.ClusterIP)))
	assert.Contains(t, r.status(t).Message, "provided IP is already allocated")
}
