package apiserver_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/apiserver/admission/webhook/webhooktest"
)

// gizmosCRD serves Gizmo at v1 (stored), whose spec has color, and at v2,
// where the field is colour. STRATEGY is replaced by the conversion.
const gizmosCRD = `{
  "apiVersion": "apiextensions.k8s.io/v1",
  "kind": "CustomResourceDefinition",
  "metadata": {"name": "gizmos.example.com"},
  "spec": {
    "group": "example.com",
    "scope": "Namespaced",
    "names": {"plural": "gizmos", "singular": "gizmo", "kind": "Gizmo"},
    "conversion": STRATEGY,
    "versions": [
      {"name": "v1", "served": true, "storage": true,
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {
         "spec": {"type": "object", "properties": {"color": {"type": "string"}}}}}}},
      {"name": "v2", "served": true, "storage": false,
       "schema": {"openAPIV3Schema": {"type": "object", "properties": {
         "spec": {"type": "object", "properties": {"colour": {"type": "string"}}}}}}}
    ]
  }
}`

const (
	gizmosV1 = "/apis/example.com/v1/namespaces/default/gizmos"
	gizmosV2 = "/apis/example.com/v2/namespaces/default/gizmos"
)

// convertGizmos is a conversion webhook's logic: spec.color at v1 is
// spec.colour at v2.
func convertGizmos(req *apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
	resp := &apiextensionsv1.ConversionResponse{}
	for _, raw := range req.Objects {
		var obj map[string]any
		if err := json.Unmarshal(raw, &obj); err != nil {
			return &apiextensionsv1.ConversionResponse{Result: metav1.Status{Status: metav1.StatusFailure, Message: err.Error()}}
		}
		from, to := "color", "colour"
		if req.DesiredAPIVersion == "example.com/v1" {
			from, to = to, from
		}
		if spec, ok := obj["spec"].(map[string]any); ok {
			if v, ok := spec[from]; ok {
				spec[to] = v
				delete(spec, from)
			}
		}
		obj["apiVersion"] = req.DesiredAPIVersion
		data, _ := json.Marshal(obj)
		resp.ConvertedObjects = append(resp.ConvertedObjects, data)
	}
	return resp
}

// conversionHook is a running conversion webhook that counts what it is
// asked, and answers with Answer when set.
type conversionHook struct {
	srv *webhooktest.Server
	// Answer replaces convertGizmos when set.
	Answer atomic.Pointer[func(*apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse]

	mu sync.Mutex
	// reviews counts the reviews per desired apiVersion; sizes are the
	// numbers of objects of each review.
	reviews map[string]int
	sizes   []int
}

func newConversionHook(t testing.TB) *conversionHook {
	h := &conversionHook{reviews: map[string]int{}}
	h.srv = webhooktest.NewConversion(t, func(_ context.Context, req *apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
		h.mu.Lock()
		h.reviews[req.DesiredAPIVersion]++
		h.sizes = append(h.sizes, len(req.Objects))
		h.mu.Unlock()
		if answer := h.Answer.Load(); answer != nil {
			return (*answer)(req)
		}
		return convertGizmos(req)
	})
	return h
}

func (h *conversionHook) reviewsFor(apiVersion string) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.reviews[apiVersion]
}

func (h *conversionHook) maxSize() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	m := 0
	for _, n := range h.sizes {
		m = max(m, n)
	}
	return m
}

// strategy is the CRD's spec.conversion calling h.
func (h *conversionHook) strategy() string {
	caBundle, _ := json.Marshal(h.srv.CABundle)
	return fmt.Sprintf(`{"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
		"clientConfig": {"url": %q, "caBundle": %s}}}`, h.srv.URL+"/convert", caBundle)
}

func gizmoJSON(apiVersion, name, field, value string) string {
	return fmt.Sprintf(`{"apiVersion":%q,"kind":"Gizmo","metadata":{"name":%q},"spec":{%q:%q}}`, apiVersion, name, field, value)
}

func spec(t *testing.T, data []byte) map[string]any {
	t.Helper()
	u := decodeUnstructured(t, data)
	s, _ := u.Content["spec"].(map[string]any)
	return s
}

func TestCRDConversionWebhook(t *testing.T) {
	s := newTestServer(t)
	hook := newConversionHook(t)
	s.installCRD(strings.Replace(gizmosCRD, "STRATEGY", hook.strategy(), 1))
	watch := s.openWatch(gizmosV2 + "?watch=1&resourceVersion=0")

	// Created at the storage version: no conversion on the way in.
	s.mustDo(http.StatusCreated, "POST", gizmosV1, gizmoJSON("example.com/v1", "a", "color", "red"))

	// Read at v2: converted by the webhook.
	got := s.mustDo(http.StatusOK, "GET", gizmosV2+"/a", "")
	u := decodeUnstructured(t, got.body)
	assert.Equal(t, "example.com/v2", u.APIVersion, "GET v2")
	assert.Equal(t, map[string]any{"colour": "red"}, spec(t, got.body), "GET v2")

	// Watched at v2: the event is converted.
	ev := watch.next()
	assert.Equal(t, "ADDED", ev.Type)
	assert.Equal(t, map[string]any{"colour": "red"}, spec(t, ev.Object), "watch v2 ADDED")

	// Updated at v2, stored at v1: a read at v1 needs no conversion.
	u.Content["spec"] = map[string]any{"colour": "blue"}
	body, err := json.Marshal(u)
	require.NoError(t, err)
	s.mustDo(http.StatusOK, "PUT", gizmosV2+"/a", string(body))
	toV1 := hook.reviewsFor("example.com/v1")
	got = s.mustDo(http.StatusOK, "GET", gizmosV1+"/a", "")
	assert.Equal(t, map[string]any{"color": "blue"}, spec(t, got.body), "GET v1 after PUT v2")
	assert.Equal(t, toV1, hook.reviewsFor("example.com/v1"), "a read at the storage version called the webhook")
	ev = watch.next()
	assert.Equal(t, "MODIFIED", ev.Type)
	assert.Equal(t, map[string]any{"colour": "blue"}, spec(t, ev.Object), "watch v2 MODIFIED")

	// Created at v2: converted to v1 to be stored.
	s.mustDo(http.StatusCreated, "POST", gizmosV2, gizmoJSON("example.com/v2", "b", "colour", "green"))
	got = s.mustDo(http.StatusOK, "GET", gizmosV1+"/b", "")
	assert.Equal(t, map[string]any{"color": "green"}, spec(t, got.body), "GET v1 of an object created at v2")
	s.mustDo(http.StatusCreated, "POST", gizmosV1, gizmoJSON("example.com/v1", "c", "color", "black"))

	// Listed at v2, from etcd: one review for the whole read.
	got = s.mustDo(http.StatusOK, "GET", gizmosV2, "")
	var list unstructured.UnstructuredList
	require.NoError(t, json.Unmarshal(got.body, &list))
	require.Len(t, list.Items, 3)
	for _, item := range list.Items {
		assert.Equal(t, "example.com/v2", item.APIVersion, "LIST v2 item %s", item.Name)
		assert.Contains(t, item.Content["spec"], "colour", "LIST v2 item %s", item.Name)
	}
	assert.Equal(t, 3, hook.maxSize(), "objects in the largest review")
	// And from the watch cache, which holds v2 objects. At resourceVersion
	// 0 the cache answers with what it has, which may not yet include c;
	// not older than the list from etcd, it waits until it does.
	got = s.waitCached(gizmosV2, list.ResourceVersion)
	var cached unstructured.UnstructuredList
	require.NoError(t, json.Unmarshal(got.body, &cached))
	assert.Len(t, cached.Items, 3, "LIST v2 from the cache")
}

func TestCRDConversionWebhookErrors(t *testing.T) {
	s := newTestServer(t)
	hook := newConversionHook(t)
	s.installCRD(strings.Replace(gizmosCRD, "STRATEGY", hook.strategy(), 1))
	s.mustDo(http.StatusCreated, "POST", gizmosV1, `{"apiVersion":"example.com/v1","kind":"Gizmo","metadata":{"name":"a","labels":{"x":"y"}},"spec":{"color":"red"}}`)

	const prefix = "Internal error occurred: conversion webhook for example.com/v1, Kind=Gizmo "
	converted := func(edit func(obj map[string]any)) func(*apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
		return func(req *apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
			resp := convertGizmos(req)
			for i, raw := range resp.ConvertedObjects {
				var obj map[string]any
				require.NoError(t, json.Unmarshal(raw, &obj))
				edit(obj)
				resp.ConvertedObjects[i], _ = json.Marshal(obj)
			}
			return resp
		}
	}
	tests := []struct {
		name   string
		answer func(*apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse
		want   string
		// tail ends the message when set.
		tail string
	}{
		{
			name: "failure with a message",
			answer: func(*apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
				return &apiextensionsv1.ConversionResponse{Result: metav1.Status{Status: metav1.StatusFailure, Message: "no colour"}}
			},
			want: prefix + "failed: no colour",
		},
		{
			name: "failure without a message",
			answer: func(*apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
				return &apiextensionsv1.ConversionResponse{Result: metav1.Status{Status: metav1.StatusFailure}}
			},
			want: prefix + "failed: response.result.status was 'Failure', not 'Success'",
		},
		{
			name: "another uid",
			answer: func(req *apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
				resp := convertGizmos(req)
				resp.UID = "other"
				return resp
			},
			// The uid is the request's, unknown here.
			want: prefix + `failed: expected response.uid="`,
			tail: `", got "other"`,
		},
		{
			name: "no object",
			answer: func(*apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse {
				return &apiextensionsv1.ConversionResponse{}
			},
			want: prefix + "returned 0 objects, expected 1",
		},
		{
			name:   "wrong apiVersion",
			answer: converted(func(obj map[string]any) { obj["apiVersion"] = "example.com/v1" }),
			want:   prefix + "returned invalid object at index 0: invalid groupVersion (expected example.com/v2, received example.com/v1)",
		},
		{
			name:   "wrong kind",
			answer: converted(func(obj map[string]any) { obj["kind"] = "Gadget" }),
			want:   prefix + "returned invalid object at index 0: invalid kind (expected Gizmo, received Gadget)",
		},
		{
			name:   "renamed",
			answer: converted(func(obj map[string]any) { obj["metadata"].(map[string]any)["name"] = "b" }),
			want:   prefix + "returned invalid object: must have the same name: a != b",
		},
		{
			name: "invalid label",
			answer: converted(func(obj map[string]any) {
				obj["metadata"].(map[string]any)["labels"] = map[string]any{"x": "not a label value"}
			}),
			want: prefix + "returned invalid metadata: metadata.labels: Invalid value: \"not a label value\"",
		},
		{
			name:   "HTTP 500",
			answer: func(*apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse { return nil },
			want:   prefix + `failed: an error on the server ("webhooktest: no response") has prevented the request from succeeding`,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hook.Answer.Store(&tc.answer)
			defer hook.Answer.Store(nil)
			// A consistent read, from etcd: the watch cache's copy does not
			// hide the webhook.
			got := s.do("GET", gizmosV2+"/a", "")
			require.Equal(t, http.StatusInternalServerError, got.code, "GET v2: %s", got.body)
			st := got.status(t)
			assert.Equal(t, metav1.StatusReasonInternalError, st.Reason)
			assert.True(t, strings.HasPrefix(st.Message, tc.want), "message\n%s\ndoes not start with\n%s", st.Message, tc.want)
			assert.True(t, strings.HasSuffix(st.Message, tc.tail), "message\n%s\ndoes not end with\n%s", st.Message, tc.tail)
		})
	}

	// Labels and annotations are the webhook's to change; the rest of the
	// metadata is restored.
	relabel := converted(func(obj map[string]any) {
		meta := obj["metadata"].(map[string]any)
		meta["labels"] = map[string]any{"x": "z"}
		meta["generation"] = 42
	})
	hook.Answer.Store(&relabel)
	got := s.mustDo(http.StatusOK, "GET", gizmosV2+"/a", "")
	u := decodeUnstructured(t, got.body)
	assert.Equal(t, map[string]string{"x": "z"}, u.Labels)
	assert.Equal(t, int64(1), u.Generation)
}

func TestCRDConversionWebhookUnreachable(t *testing.T) {
	s := newTestServer(t)
	crd := strings.Replace(gizmosCRD, "STRATEGY", `{"strategy": "Webhook", "webhook": {"conversionReviewVersions": ["v1"],
		"clientConfig": {"url": "https://127.0.0.1:1/convert"}}}`, 1)
	s.installCRD(crd)
	s.mustDo(http.StatusCreated, "POST", gizmosV1, gizmoJSON("example.com/v1", "a", "color", "red"))
	got := s.do("POST", gizmosV2, gizmoJSON("example.com/v2", "b", "colour", "red"))
	require.Equal(t, http.StatusInternalServerError, got.code, "POST v2: %s", got.body)
	st := got.status(t)
	assert.Equal(t, metav1.StatusReasonInternalError, st.Reason)
	assert.Contains(t, st.Message, `Internal error occurred: conversion webhook for example.com/v2, Kind=Gizmo failed: Post "https://127.0.0.1:1/convert?timeout=30s": `)
	// Nothing was stored.
	s.mustDo(http.StatusNotFound, "GET", gizmosV1+"/b", "")
}

// BenchmarkCRDConversion measures a GET of a custom resource at a version
// other than the stored one, from etcd, converted by a conversion webhook
// over HTTPS against strategy None (apiVersion rewritten), in one run:
//
//	go test -run='^$' -bench=BenchmarkCRDConversion -benchmem ./apiserver/
func BenchmarkCRDConversion(b *testing.B) {
	for _, mode := range []string{"webhook", "none"} {
		b.Run(mode, func(b *testing.B) {
			s := newTestServer(b)
			strategy := `{"strategy": "None"}`
			if mode == "webhook" {
				strategy = newConversionHook(b).strategy()
			}
			s.installCRD(strings.Replace(gizmosCRD, "STRATEGY", strategy, 1))
			s.mustDo(http.StatusCreated, "POST", gizmosV1, gizmoJSON("example.com/v1", "a", "color", "red"))
			for b.Loop() {
				s.mustDo(http.StatusOK, "GET", gizmosV2+"/a", "")
			}
		})
	}
}
