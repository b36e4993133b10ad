package apiserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

const smp = "application/strategic-merge-patch+json"

// twoContainerPod is a pod whose lists all merge by key.
const twoContainerPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","finalizers":["a.example.com/f"],
    "ownerReferences":[{"apiVersion":"v1","kind":"ConfigMap","name":"a","uid":"uid-a"},{"apiVersion":"v1","kind":"ConfigMap","name":"b","uid":"uid-b"}]},
  "spec":{"containers":[
    {"name":"web","image":"nginx:1.27","env":[{"name":"A","value":"1"},{"name":"B","value":"2"}]},
    {"name":"log","image":"busybox:1"}]}}`

func TestStrategicMergePatch(t *testing.T) {
	s := newTestServer(t)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", twoContainerPod)
	const path = "/api/v1/namespaces/default/pods/web"
	patch := func(body string) *corev1.Pod {
		t.Helper()
		return s.mustDo(http.StatusOK, "PATCH", path, body, withHeader("Content-Type", smp)).pod(t)
	}

	// kubectl set image: the container is found by name, the other one
	// kept. A JSON merge patch would have replaced the list.
	p := patch(`{"spec":{"containers":[{"name":"web","image":"nginx:1.28"}]}}`)
	require.Len(t, p.Spec.Containers, 2, "containers after set image")
	assert.Equal(t, "web", p.Spec.Containers[0].Name)
	assert.Equal(t, "nginx:1.28", p.Spec.Containers[0].Image)
	assert.Equal(t, "log", p.Spec.Containers[1].Name, "the other container is kept")
	assert.Equal(t, "busybox:1", p.Spec.Containers[1].Image)
	assert.Equal(t, []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}}, p.Spec.Containers[0].Env,
		"the patched container keeps its env")

	// Deleting an env var by name with $patch: delete merges fine, and the
	// result is a pod spec change other than an image, which pod update
	// validation forbids, in Kubernetes as here.
	r := s.mustDo(http.StatusUnprocessableEntity, "PATCH", path,
		`{"spec":{"containers":[{"name":"web","env":[{"name":"A","$patch":"delete"}]}]}}`, withHeader("Content-Type", smp))
	assert.Contains(t, r.status(t).Message, "changed: spec.containers")
	// A delete and a re-add of the first variable change nothing (the
	// re-added item goes first, where it was).
	p = patch(`{"spec":{"containers":[{"name":"web","image":"nginx:1.29","env":[{"name":"A","$patch":"delete"},{"name":"A","value":"1"}]}]}}`)
	assert.Equal(t, "nginx:1.29", p.Spec.Containers[0].Image)
	assert.Equal(t, []corev1.EnvVar{{Name: "A", Value: "1"}, {Name: "B", Value: "2"}}, p.Spec.Containers[0].Env)

	// $patch: delete removes an item of a mutable merge list by its key:
	// owner references merge by uid.
	p = patch(`{"metadata":{"ownerReferences":[{"uid":"uid-a","$patch":"delete"}]}}`)
	require.Len(t, p.OwnerReferences, 1)
	assert.Equal(t, "uid-b", p.OwnerReferences[0].UID)

	// Finalizers are a set; labels and annotations merge, null deletes.
	p = patch(`{"metadata":{"finalizers":["b.example.com/f"],"labels":{"app":"web","tier":"fe"},"annotations":{"note":"x"}}}`)
	assert.ElementsMatch(t, []string{"a.example.com/f", "b.example.com/f"}, p.Finalizers)
	assert.Equal(t, map[string]string{"app": "web", "tier": "fe"}, p.Labels)
	assert.Equal(t, map[string]string{"note": "x"}, p.Annotations)
	// What kubectl apply sends when the manifest reorders a merge list.
	p = patch(`{"metadata":{"$setElementOrder/finalizers":["b.example.com/f","a.example.com/f"]}}`)
	assert.Equal(t, []string{"b.example.com/f", "a.example.com/f"}, p.Finalizers, "in the order $setElementOrder gives")
	p = patch(`{"metadata":{"$deleteFromPrimitiveList/finalizers":["a.example.com/f","b.example.com/f"],"labels":{"app":null}}}`)
	assert.Empty(t, p.Finalizers)
	assert.Equal(t, map[string]string{"tier": "fe"}, p.Labels)

	// The status subresource takes strategic merge patches too:
	// conditions merge by type.
	st := func(body string) *corev1.Pod {
		t.Helper()
		return s.mustDo(http.StatusOK, "PATCH", path+"/status", body, withHeader("Content-Type", smp)).pod(t)
	}
	st(`{"status":{"conditions":[{"type":"PodScheduled","status":"True"}]}}`)
	p = st(`{"status":{"conditions":[{"type":"Ready","status":"False"}]}}`)
	require.Len(t, p.Status.Conditions, 2, "conditions merge by type")
	p = st(`{"status":{"conditions":[{"type":"PodScheduled","$patch":"delete"}]}}`)
	require.Len(t, p.Status.Conditions, 1)
	assert.Equal(t, corev1.PodReady, p.Status.Conditions[0].Type)
}

func TestStrategicMergePatchErrors(t *testing.T) {
	s := newTestServer(t)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/pods", twoContainerPod)
	tests := []struct {
		name       string
		path       string
		body       string
		wantCode   int
		wantReason metav1.StatusReason
	}{
		{"malformed json", "/api/v1/namespaces/default/pods/web", `{"spec":`, 400, metav1.StatusReasonBadRequest},
		{"not an object", "/api/v1/namespaces/default/pods/web", `["spec"]`, 400, metav1.StatusReasonBadRequest},
		{"bad order directive", "/api/v1/namespaces/default/pods/web", `{"spec":{"$setElementOrder":[]}}`, 400, metav1.StatusReasonBadRequest},
		{"bad retainKeys", "/api/v1/namespaces/default/pods/web", `{"spec":{"$retainKeys":"x"}}`, 400, metav1.StatusReasonBadRequest},
		{"missing merge key", "/api/v1/namespaces/default/pods/web", `{"spec":{"containers":[{"image":"x"}]}}`, 422, metav1.StatusReasonInvalid},
		{"unknown directive", "/api/v1/namespaces/default/pods/web", `{"spec":{"$patch":"explode"}}`, 422, metav1.StatusReasonInvalid},
		{"wrong value type", "/api/v1/namespaces/default/pods/web", `{"spec":{"containers":[{"name":"web","image":{"a":1}}]}}`, 422, metav1.StatusReasonInvalid},
		{"invalid result", "/api/v1/namespaces/default/pods/web", `{"spec":{"containers":[{"name":"web","$patch":"delete"},{"name":"log","$patch":"delete"}]}}`, 422, metav1.StatusReasonInvalid},
		{"missing object", "/api/v1/namespaces/default/pods/nope", `{}`, 404, metav1.StatusReasonNotFound},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := s.do("PATCH", tc.path, tc.body, withHeader("Content-Type", smp))
			require.Equal(t, tc.wantCode, r.code, "PATCH %s: %s", tc.body, r.body)
			assert.Equal(t, tc.wantReason, r.status(t).Reason, "PATCH %s", tc.body)
		})
	}
	// Nothing above changed the pod.
	p := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/web", "").pod(t)
	assert.Len(t, p.Spec.Containers, 2)
}
