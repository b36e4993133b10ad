package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
)

const (
	podsPath = "/api/v1/namespaces/default/pods"
	pdbPath  = "/apis/policy/v1/namespaces/default/poddisruptionbudgets"
)

// runningPod creates a pod bound to node-1, so that deleting it is
// graceful (it stays, marked, until its kubelet confirms), and reports it
// Running, and Ready when ready is set.
func (s *testServer) runningPod(name string, labels map[string]string, ready bool) *corev1.Pod {
	s.t.Helper()
	s.createPod(name, labels)
	s.mustDo(http.StatusCreated, "POST", podsPath+"/"+name+"/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"`+name+`"},"target":{"kind":"Node","name":"node-1"}}`)
	pod := s.mustDo(http.StatusOK, "GET", podsPath+"/"+name, "").pod(s.t)
	pod.Status.Phase = corev1.PodRunning
	readyStatus := corev1.ConditionFalse
	if ready {
		readyStatus = corev1.ConditionTrue
	}
	pod.Status.Conditions = append(pod.Status.Conditions, corev1.PodCondition{Type: corev1.PodReady, Status: readyStatus})
	body, _ := json.Marshal(pod)
	return s.mustDo(http.StatusOK, "PUT", podsPath+"/"+name+"/status", string(body)).pod(s.t)
}

// budget creates a PodDisruptionBudget of app=web with spec as given and
// writes its status as the disruption controller would.
func (s *testServer) budget(name, spec string, status policyv1.PodDisruptionBudgetStatus) *policyv1.PodDisruptionBudget {
	s.t.Helper()
	pdb := decode[policyv1.PodDisruptionBudget](s.t, s.mustDo(http.StatusCreated, "POST", pdbPath,
		`{"apiVersion":"policy/v1","kind":"PodDisruptionBudget","metadata":{"name":"`+name+`"},"spec":`+spec+`}`))
	if status.ObservedGeneration == 0 {
		status.ObservedGeneration = pdb.Generation
	}
	pdb.Status = status
	body, _ := json.Marshal(pdb)
	return decode[policyv1.PodDisruptionBudget](s.t, s.mustDo(http.StatusOK, "PUT", pdbPath+"/"+name+"/status", string(body)))
}

func evictionJSON(apiVersion, name, deleteOptions string) string {
	body := `{"apiVersion":"` + apiVersion + `","kind":"Eviction","metadata":{"name":"` + name + `"}`
	if deleteOptions != "" {
		body += `,"deleteOptions":` + deleteOptions
	}
	return body + "}"
}

func (s *testServer) evict(name string) response {
	s.t.Helper()
	return s.do("POST", podsPath+"/"+name+"/eviction", evictionJSON("policy/v1", name, ""))
}

const webSelector = `{"selector":{"matchLabels":{"app":"web"}},"minAvailable":1}`

var web = map[string]string{"app": "web"}

// TestEvictionBudget evicts through a budget: refused with 429 while it
// allows no disruption, then let through once, the budget's status
// recording the eviction and the pod marked as a disruption target while
// it terminates.
func TestEvictionBudget(t *testing.T) {
	s := newTestServer(t)
	s.runningPod("web-1", web, true)
	s.runningPod("web-2", web, true)
	s.budget("web", webSelector, policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 1, DesiredHealthy: 1, ExpectedPods: 2})

	r := s.evict("web-1")
	require.Equal(t, http.StatusTooManyRequests, r.code, "%s", r.body)
	st := r.status(t)
	assert.Equal(t, metav1.StatusReasonTooManyRequests, st.Reason)
	assert.Equal(t, "Too many requests: Cannot evict pod as it would violate the pod's disruption budget.", st.Message)
	require.NotNil(t, st.Details)
	assert.Equal(t, []metav1.StatusCause{{Type: policyv1.DisruptionBudgetCause, Message: "The disruption budget web needs 1 healthy pods and has 1 currently"}},
		st.Details.Causes)

	current := decode[policyv1.PodDisruptionBudget](t, s.mustDo(http.StatusOK, "GET", pdbPath+"/web", ""))
	current.Status.DisruptionsAllowed = 1
	current.Status.CurrentHealthy = 2
	body, _ := json.Marshal(current)
	s.mustDo(http.StatusOK, "PUT", pdbPath+"/web/status", string(body))

	r = s.evict("web-1")
	require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	assert.Equal(t, metav1.StatusSuccess, r.status(t).Status)
	after := decode[policyv1.PodDisruptionBudget](t, s.mustDo(http.StatusOK, "GET", pdbPath+"/web", ""))
	assert.Equal(t, int32(0), after.Status.DisruptionsAllowed, "one disruption spent")
	assert.Contains(t, after.Status.DisruptedPods, "web-1", "the eviction is recorded for the controller")
	require.Len(t, after.Status.Conditions, 1)
	assert.Equal(t, metav1.Condition{Type: "DisruptionAllowed", Status: metav1.ConditionFalse, Reason: "InsufficientPods",
		ObservedGeneration: 1, LastTransitionTime: after.Status.Conditions[0].LastTransitionTime}, after.Status.Conditions[0])

	pod := s.mustDo(http.StatusOK, "GET", podsPath+"/web-1", "").pod(t)
	assert.NotNil(t, pod.DeletionTimestamp, "a bound pod terminates gracefully")
	var target *corev1.PodCondition
	for i := range pod.Status.Conditions {
		if pod.Status.Conditions[i].Type == corev1.DisruptionTarget {
			target = &pod.Status.Conditions[i]
		}
	}
	require.NotNil(t, target, "the DisruptionTarget condition")
	assert.Equal(t, corev1.ConditionTrue, target.Status)
	assert.Equal(t, "EvictionByEvictionAPI", target.Reason)
	assert.Equal(t, "Eviction API: evicting", target.Message)

	r = s.evict("web-2")
	assert.Equal(t, http.StatusTooManyRequests, r.code, "the budget is spent: %s", r.body)
}

// TestEvictionCases covers the answers that do not depend on a budget's
// arithmetic.
func TestEvictionCases(t *testing.T) {
	s := newTestServer(t)

	t.Run("no budget", func(t *testing.T) {
		s.runningPod("free", map[string]string{"app": "free"}, true)
		require.Equal(t, http.StatusCreated, s.evict("free").code)
		assert.NotNil(t, s.mustDo(http.StatusOK, "GET", podsPath+"/free", "").pod(t).DeletionTimestamp)
	})
	t.Run("pod not found", func(t *testing.T) {
		r := s.evict("missing")
		assert.Equal(t, http.StatusNotFound, r.code)
		assert.Equal(t, `pods "missing" not found`, r.status(t).Message)
	})
	t.Run("name mismatch", func(t *testing.T) {
		r := s.do("POST", podsPath+"/a/eviction", evictionJSON("policy/v1", "b", ""))
		assert.Equal(t, http.StatusBadRequest, r.code)
		assert.Equal(t, "name in URL does not match name in Eviction object", r.status(t).Message)
	})
	t.Run("wrong kind", func(t *testing.T) {
		r := s.do("POST", podsPath+"/a/eviction", `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"a"}}`)
		assert.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
	})

	s.runningPod("web-1", web, true)
	s.runningPod("web-2", web, true)
	s.budget("web", webSelector, policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 2, DesiredHealthy: 1, ExpectedPods: 2, DisruptionsAllowed: 1})

	t.Run("dry run", func(t *testing.T) {
		r := s.do("POST", podsPath+"/web-1/eviction?dryRun=All", evictionJSON("policy/v1", "web-1", ""))
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
		pod := s.mustDo(http.StatusOK, "GET", podsPath+"/web-1", "").pod(t)
		assert.Nil(t, pod.DeletionTimestamp, "a dry run deletes nothing")
		pdb := decode[policyv1.PodDisruptionBudget](t, s.mustDo(http.StatusOK, "GET", pdbPath+"/web", ""))
		assert.Equal(t, int32(1), pdb.Status.DisruptionsAllowed, "a dry run spends nothing")
		r = s.do("POST", podsPath+"/web-1/eviction", evictionJSON("policy/v1", "web-1", `{"dryRun":["All"]}`))
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
		assert.Nil(t, s.mustDo(http.StatusOK, "GET", podsPath+"/web-1", "").pod(t).DeletionTimestamp)
		r = s.do("POST", podsPath+"/web-1/eviction", evictionJSON("policy/v1", "web-1", `{"dryRun":["Maybe"]}`))
		assert.Equal(t, http.StatusBadRequest, r.code, "%s", r.body)
	})
	t.Run("precondition", func(t *testing.T) {
		r := s.do("POST", podsPath+"/web-1/eviction", evictionJSON("policy/v1", "web-1", `{"preconditions":{"uid":"not-it"}}`))
		assert.Equal(t, http.StatusConflict, r.code, "%s", r.body)
		assert.Nil(t, s.mustDo(http.StatusOK, "GET", podsPath+"/web-1", "").pod(t).DeletionTimestamp)
	})
	t.Run("two budgets", func(t *testing.T) {
		s.budget("web-too", webSelector, policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 1})
		r := s.evict("web-2")
		require.Equal(t, http.StatusInternalServerError, r.code, "%s", r.body)
		st := r.status(t)
		assert.Equal(t, metav1.StatusFailure, st.Status)
		assert.Equal(t, "This pod has more than one PodDisruptionBudget, which the eviction subresource does not support.", st.Message)
		s.mustDo(http.StatusOK, "DELETE", pdbPath+"/web-too", "")
	})
	t.Run("generation not observed", func(t *testing.T) {
		s.mustDo(http.StatusOK, "PATCH", pdbPath+"/web", `{"spec":{"minAvailable":2}}`, withHeader("Content-Type", "application/merge-patch+json"))
		r := s.evict("web-2")
		require.Equal(t, http.StatusTooManyRequests, r.code, "%s", r.body)
		st := r.status(t)
		assert.Equal(t, "The disruption budget web is still being processed by the server.", st.Details.Causes[0].Message)
		assert.Equal(t, "10", r.header.Get("Retry-After"))
	})
	t.Run("pending pod ignores the budget", func(t *testing.T) {
		s.createPod("web-pending", web)
		require.Equal(t, http.StatusCreated, s.evict("web-pending").code)
		assert.Equal(t, http.StatusNotFound, s.do("GET", podsPath+"/web-pending", "").code, "an unbound pod goes at once")
	})
	t.Run("v1beta1", func(t *testing.T) {
		s.createPod("old-client", nil)
		r := s.do("POST", podsPath+"/old-client/eviction", evictionJSON("policy/v1beta1", "old-client", `{"gracePeriodSeconds":0}`))
		require.Equal(t, http.StatusCreated, r.code, "%s", r.body)
	})
}

// TestEvictionUnhealthyPods: a running pod that is not ready may be
// evicted without spending the budget while the others keep it whole, or
// always with unhealthyPodEvictionPolicy AlwaysAllow.
func TestEvictionUnhealthyPods(t *testing.T) {
	s := newTestServer(t)
	s.runningPod("web-1", web, false)
	s.runningPod("web-2", web, true)
	s.budget("web", webSelector, policyv1.PodDisruptionBudgetStatus{CurrentHealthy: 1, DesiredHealthy: 1, ExpectedPods: 2})
	require.Equal(t, http.StatusCreated, s.evict("web-1").code, "the application is whole without it")
	pdb := decode[policyv1.PodDisruptionBudget](t, s.mustDo(http.StatusOK, "GET", pdbPath+"/web", ""))
	assert.Empty(t, pdb.Status.DisruptedPods, "nothing spent")

	s.runningPod("api-1", map[string]string{"app": "api"}, false)
	s.budget("api", `{"selector":{"matchLabels":{"app":"api"}},"minAvailable":1}`, policyv1.PodDisruptionBudgetStatus{ExpectedPods: 1, DesiredHealthy: 1})
	assert.Equal(t, http.StatusTooManyRequests, s.evict("api-1").code, "the budget is not met: IfHealthyBudget protects it")
	s.mustDo(http.StatusOK, "PATCH", pdbPath+"/api", `{"spec":{"unhealthyPodEvictionPolicy":"AlwaysAllow"}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	assert.Equal(t, http.StatusCreated, s.evict("api-1").code, "AlwaysAllow")
}

// TestEvictionDiscovery: kubectl drain looks for pods/eviction in
// discovery and sends the version it lists.
func TestEvictionDiscovery(t *testing.T) {
	s := newTestServer(t)
	list := decode[metav1.APIResourceList](t, s.mustDo(http.StatusOK, "GET", "/api/v1", ""))
	var found *metav1.APIResource
	for i := range list.APIResources {
		if list.APIResources[i].Name == "pods/eviction" {
			found = &list.APIResources[i]
		}
	}
	require.NotNil(t, found, "pods/eviction is listed")
	assert.Equal(t, "policy", found.Group)
	assert.Equal(t, "v1", found.Version)
	assert.Equal(t, "Eviction", found.Kind)
	assert.Equal(t, []string{"create"}, found.Verbs)
}
