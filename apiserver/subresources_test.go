package apiserver_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func TestStatusSubresourceSeparatesSpecAndStatus(t *testing.T) {
	s := newTestServer(t)
	p := s.createPod("s", nil)

	// A status write changes status and ignores the spec it carries.
	p.Status.Phase = corev1.PodRunning
	p.Status.PodIP = "10.0.0.7"
	p.Spec.Containers[0].Image = "ignored"
	body, _ := json.Marshal(p)
	got := s.mustDo(http.StatusOK, "PUT", "/api/v1/namespaces/default/pods/s/status", string(body)).pod(t)
	assert.Equal(t, corev1.PodRunning, got.Status.Phase)
	assert.Equal(t, "10.0.0.7", got.Status.PodIP)
	assert.Equal(t, "busybox", got.Spec.Containers[0].Image, "status write ignores spec")
	assert.Equal(t, int64(1), got.Generation)

	// A main-resource write changes spec and ignores the status it carries.
	got.Status.Phase = corev1.PodFailed
	got.Spec.Containers[0].Image = "busybox:2"
	body, _ = json.Marshal(got)
	got = s.mustDo(http.StatusOK, "PUT", "/api/v1/namespaces/default/pods/s", string(body)).pod(t)
	assert.Equal(t, corev1.PodRunning, got.Status.Phase, "spec write ignores status")
	assert.Equal(t, "busybox:2", got.Spec.Containers[0].Image)

	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/s/status", "")
	s.mustDo(http.StatusMethodNotAllowed, "DELETE", "/api/v1/namespaces/default/pods/s/status", "")
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/s/nonsense", "")
}

func TestBinding(t *testing.T) {
	s := newTestServer(t)
	s.createPod("b", nil)
	binding := `{"apiVersion":"v1","kind":"Binding","metadata":{"name":"b"},"target":{"kind":"Node","name":"node-1"}}`
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods/b/binding", binding)

	p := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/b", "").pod(t)
	assert.Equal(t, "node-1", p.Spec.NodeName)
	require.NotEmpty(t, p.Status.Conditions)
	assert.Equal(t, corev1.PodScheduled, p.Status.Conditions[0].Type)
	assert.Equal(t, corev1.ConditionTrue, p.Status.Conditions[0].Status)

	r := s.mustDo(http.StatusConflict, "POST", "/api/v1/namespaces/default/pods/b/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"b"},"target":{"kind":"Node","name":"node-2"}}`)
	assert.Contains(t, r.status(t).Message, `already assigned to node "node-1"`)

	// The bindings resource names the pod in the body.
	s.createPod("c", nil)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/bindings",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"c"},"target":{"kind":"Node","name":"node-3"}}`)
	assert.Equal(t, "node-3", s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/c", "").pod(t).Spec.NodeName)

	s.mustDo(http.StatusNotFound, "POST", "/api/v1/namespaces/default/pods/missing/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"missing"},"target":{"kind":"Node","name":"n"}}`)
	s.mustDo(http.StatusUnprocessableEntity, "POST", "/api/v1/namespaces/default/pods/b/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"b"},"target":{"kind":"Node"}}`)
}

func TestGracefulDeleteOfBoundPod(t *testing.T) {
	s := newTestServer(t)
	s.createPod("g", nil)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods/g/binding",
		`{"apiVersion":"v1","kind":"Binding","metadata":{"name":"g"},"target":{"kind":"Node","name":"n"}}`)

	// A bound pod waits for its kubelet: 200 with deletionTimestamp set.
	p := s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/g", "").pod(t)
	require.NotNil(t, p.DeletionTimestamp)
	require.NotNil(t, p.DeletionGracePeriodSeconds)
	assert.Equal(t, int64(30), *p.DeletionGracePeriodSeconds)
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/g", "")

	// The kubelet (or --grace-period=0 --force) finishes it.
	s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/g", `{"gracePeriodSeconds":0}`)
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/g", "")
}

func TestFinalizersHoldDeletion(t *testing.T) {
	s := newTestServer(t)
	body := `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"f","finalizers":["example.com/hold"]},"spec":{"containers":[{"name":"c","image":"i"}]}}`
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", body)
	p := s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/default/pods/f", "").pod(t)
	require.NotNil(t, p.DeletionTimestamp, "deletion started")
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/f", "")

	s.mustDo(http.StatusOK, "PATCH", "/api/v1/namespaces/default/pods/f", `{"metadata":{"finalizers":null}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/f", "")
}

func TestNamespaceLifecycle(t *testing.T) {
	s := newTestServer(t)
	ns := s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"apiVersion":"v1","kind":"Namespace","metadata":{"name":"team"}}`)
	var created corev1.Namespace
	require.NoError(t, json.Unmarshal(ns.body, &created))
	assert.Equal(t, corev1.NamespaceActive, created.Status.Phase)
	assert.Equal(t, []corev1.FinalizerName{corev1.FinalizerKubernetes}, created.Spec.Finalizers)

	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/team/pods", podJSON("p", nil))

	// Deleting it makes it Terminating: the namespace controller must
	// empty it and remove the finalizer first.
	var terminating corev1.Namespace
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "DELETE", "/api/v1/namespaces/team", "").body, &terminating))
	assert.Equal(t, corev1.NamespaceTerminating, terminating.Status.Phase)
	assert.NotNil(t, terminating.DeletionTimestamp)

	r := s.mustDo(http.StatusForbidden, "POST", "/api/v1/namespaces/team/pods", podJSON("q", nil))
	assert.Contains(t, r.status(t).Message, "because it is being terminated")

	// A label change does not finish the deletion: the spec finalizer
	// still holds it.
	s.mustDo(http.StatusOK, "PATCH", "/api/v1/namespaces/team", `{"metadata":{"labels":{"x":"y"}}}`,
		withHeader("Content-Type", "application/merge-patch+json"))
	s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/team", "")

	// Removing the last finalizer through /finalize finishes it, as the
	// namespace controller (or a user unsticking a namespace) does.
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/team", "").body, &terminating))
	terminating.Spec.Finalizers = nil
	body, _ := json.Marshal(terminating)
	s.mustDo(http.StatusOK, "PUT", "/api/v1/namespaces/team/finalize", string(body))
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/team", "")

	var list corev1.NamespaceList
	require.NoError(t, json.Unmarshal(s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces", "").body, &list))
	var names []string
	for _, n := range list.Items {
		names = append(names, n.Name)
	}
	assert.Subset(t, names, []string{"default", "kube-system", "kube-public", "kube-node-lease"})
}

func TestTableOutput(t *testing.T) {
	s := newTestServer(t)
	s.createPod("t1", nil)
	r := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods", "",
		withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io,application/json"))
	var table metav1.Table
	require.NoError(t, json.Unmarshal(r.body, &table))
	assert.Equal(t, "Table", table.Kind)
	var cols []string
	for _, c := range table.ColumnDefinitions {
		if c.Priority == 0 {
			cols = append(cols, c.Name)
		}
	}
	assert.Equal(t, []string{"Name", "Ready", "Status", "Restarts", "Age"}, cols)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"t1", "0/1", "Pending", "0"}, table.Rows[0].Cells[:4])
	var meta metav1.PartialObjectMetadata
	require.NoError(t, json.Unmarshal(table.Rows[0].Object, &meta))
	assert.Equal(t, "t1", meta.Name, "rows carry the object's metadata")
}
