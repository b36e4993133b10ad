package apiserver_test

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/admission/webhook/webhooktest"
)

const (
	mutatingConfigsPath   = "/apis/admissionregistration.k8s.io/v1/mutatingwebhookconfigurations"
	validatingConfigsPath = "/apis/admissionregistration.k8s.io/v1/validatingwebhookconfigurations"
)

// podHookRule covers every operation on pods, not their subresources.
var podHookRule = admissionregistrationv1.RuleWithOperations{
	Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.OperationAll},
	Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}},
}

func urlClientConfig(srv *webhooktest.Server) admissionregistrationv1.WebhookClientConfig {
	return admissionregistrationv1.WebhookClientConfig{URL: ptrTo(srv.URL + "/hook"), CABundle: srv.CABundle}
}

func newValidatingHook(name string, cc admissionregistrationv1.WebhookClientConfig) admissionregistrationv1.ValidatingWebhook {
	return admissionregistrationv1.ValidatingWebhook{
		Name: name, ClientConfig: cc, Rules: []admissionregistrationv1.RuleWithOperations{podHookRule},
		SideEffects: ptrTo(admissionregistrationv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
	}
}

func newMutatingHook(name string, cc admissionregistrationv1.WebhookClientConfig) admissionregistrationv1.MutatingWebhook {
	return admissionregistrationv1.MutatingWebhook{
		Name: name, ClientConfig: cc, Rules: []admissionregistrationv1.RuleWithOperations{podHookRule},
		SideEffects: ptrTo(admissionregistrationv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
	}
}

// createConfig creates a webhook configuration and waits until the watch
// cache, which the webhook plugins read, has it: a list at the created
// resourceVersion returns only once the cache is that fresh.
func (s *testServer) createConfig(path string, obj any) {
	s.t.Helper()
	body, err := json.Marshal(obj)
	require.NoError(s.t, err)
	r := s.mustDo(http.StatusCreated, "POST", path, string(body))
	var meta struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	require.NoError(s.t, json.Unmarshal(r.body, &meta))
	s.mustDo(http.StatusOK, "GET", path+"?resourceVersion="+meta.Metadata.ResourceVersion, "")
}

func (s *testServer) validatingConfig(name string, hooks ...admissionregistrationv1.ValidatingWebhook) {
	s.t.Helper()
	s.createConfig(validatingConfigsPath, admissionregistrationv1.ValidatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: name}, Webhooks: hooks,
	})
}

func (s *testServer) mutatingConfig(name string, hooks ...admissionregistrationv1.MutatingWebhook) {
	s.t.Helper()
	s.createConfig(mutatingConfigsPath, admissionregistrationv1.MutatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: name}, Webhooks: hooks,
	})
}

// deny answers every request with a denial carrying msg.
func deny(msg string) webhooktest.ReviewFunc {
	return func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: msg}}
	}
}

func TestValidatingWebhookDenies(t *testing.T) {
	s := newTestServer(t)
	var mu sync.Mutex
	var requests []*admissionv1.AdmissionRequest
	srv := webhooktest.New(t, func(_ context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		mu.Lock()
		defer mu.Unlock()
		requests = append(requests, req)
		if strings.Contains(string(req.Object), `"image":"nginx:latest"`) {
			return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: "the latest tag is not allowed"}}
		}
		return webhooktest.Allow()
	})
	s.validatingConfig("image-policy", newValidatingHook("tags.images.example.com", urlClientConfig(srv)))

	s.createPod("allowed", nil)
	pod := strings.Replace(podJSON("latest", nil), `"busybox"`, `"nginx:latest"`, 1)
	r := s.mustDo(http.StatusForbidden, "POST", "/api/v1/namespaces/default/pods", pod)
	st := r.status(t)
	assert.Equal(t, metav1.StatusReasonForbidden, st.Reason)
	assert.Equal(t, `pods "latest" is forbidden: admission webhook "tags.images.example.com" denied the request: the latest tag is not allowed`, st.Message)
	s.mustDo(http.StatusNotFound, "GET", "/api/v1/namespaces/default/pods/latest", "")

	mu.Lock()
	defer mu.Unlock()
	require.Len(t, requests, 2)
	req := requests[0]
	assert.Equal(t, admissionv1.Create, req.Operation)
	assert.Equal(t, "allowed", req.Name)
	assert.Equal(t, "admin", req.UserInfo.Username, "the request's user")
	assert.Contains(t, string(req.Object), `"restartPolicy":"Always"`, "validating webhooks see the defaulted object")
}

func TestWebhookFailurePolicy(t *testing.T) {
	s := newTestServer(t)
	// A URL where nothing listens: a port that was free a moment ago.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	down := admissionregistrationv1.WebhookClientConfig{URL: ptrTo("https://" + addr + "/hook")}
	ignore := newValidatingHook("ignore.down.example.com", down)
	ignore.FailurePolicy = ptrTo(admissionregistrationv1.Ignore)
	s.validatingConfig("down-ignore", ignore)
	s.createPod("ignored", nil)

	fail := newValidatingHook("fail.down.example.com", down)
	s.validatingConfig("down-fail", fail)
	r := s.mustDo(http.StatusInternalServerError, "POST", "/api/v1/namespaces/default/pods", podJSON("failed", nil))
	st := r.status(t)
	assert.Equal(t, metav1.StatusReasonInternalError, st.Reason)
	assert.True(t, strings.HasPrefix(st.Message, `Internal error occurred: failed calling webhook "fail.down.example.com": failed to call webhook: Post "`+*down.URL+`?timeout=10s": dial tcp `+addr), st.Message)
}

// A webhook that does not answer within its timeoutSeconds fails like one
// that is down. The handler blocks until the API server gives up.
func TestWebhookTimeout(t *testing.T) {
	s := newTestServer(t)
	srv := webhooktest.New(t, func(ctx context.Context, _ *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		<-ctx.Done()
		return nil
	})
	hook := newValidatingHook("slow.example.com", urlClientConfig(srv))
	hook.TimeoutSeconds = ptrTo(int32(1))
	s.validatingConfig("slow", hook)
	r := s.mustDo(http.StatusInternalServerError, "POST", "/api/v1/namespaces/default/pods", podJSON("slow", nil))
	// The deadline usually ends the call ("context deadline exceeded"); on
	// a loaded machine the webhook's server may see the connection go and
	// answer first. Either way the call failed and Fail applies.
	assert.Contains(t, r.status(t).Message, `failed calling webhook "slow.example.com": failed to call webhook: `)
}

func TestWebhookSelectors(t *testing.T) {
	s := newTestServer(t)
	srv := webhooktest.New(t, deny("selected"))
	nsHook := newValidatingHook("ns.selectors.example.com", urlClientConfig(srv))
	nsHook.NamespaceSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"policy": "strict"}}
	objHook := newValidatingHook("obj.selectors.example.com", urlClientConfig(srv))
	objHook.ObjectSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"policy": "strict"}}
	s.validatingConfig("selectors", nsHook, objHook)

	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"metadata":{"name":"strict","labels":{"policy":"strict"}}}`)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces", `{"metadata":{"name":"lax"}}`)

	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/lax/pods", podJSON("plain", nil))
	r := s.mustDo(http.StatusForbidden, "POST", "/api/v1/namespaces/strict/pods", podJSON("plain", nil))
	assert.Contains(t, r.status(t).Message, `admission webhook "ns.selectors.example.com" denied the request: selected`)
	r = s.mustDo(http.StatusForbidden, "POST", "/api/v1/namespaces/lax/pods", podJSON("labelled", map[string]string{"policy": "strict"}))
	assert.Contains(t, r.status(t).Message, `admission webhook "obj.selectors.example.com" denied the request: selected`)
}

func TestMutatingWebhookAddsLabel(t *testing.T) {
	s := newTestServer(t)
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return webhooktest.JSONPatch([]map[string]any{{"op": "add", "path": "/metadata/labels", "value": map[string]string{"injected": "yes"}}})
	})
	s.mutatingConfig("labels", newMutatingHook("labels.example.com", urlClientConfig(srv)))

	created := s.createPod("web", nil)
	assert.Equal(t, map[string]string{"injected": "yes"}, created.Labels)
	stored := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/web", "").pod(t)
	assert.Equal(t, map[string]string{"injected": "yes"}, stored.Labels, "the patched object is what is stored")
}

// A mutating webhook with reinvocationPolicy IfNeeded is called again when
// a later webhook changed the object, and sees that change.
func TestMutatingWebhookReinvocation(t *testing.T) {
	s := newTestServer(t)
	var mu sync.Mutex
	var seen []string // the "second" label as the first webhook saw it, per call
	first := webhooktest.New(t, func(_ context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		var p corev1.Pod
		if json.Unmarshal(req.Object, &p) != nil {
			return nil
		}
		mu.Lock()
		seen = append(seen, p.Labels["second"])
		mu.Unlock()
		return webhooktest.JSONPatch([]map[string]any{{"op": "add", "path": "/metadata/labels/first", "value": "yes"}})
	})
	second := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return webhooktest.JSONPatch([]map[string]any{{"op": "add", "path": "/metadata/labels/second", "value": "yes"}})
	})
	hook := newMutatingHook("first.example.com", urlClientConfig(first))
	hook.ReinvocationPolicy = ptrTo(admissionregistrationv1.IfNeededReinvocationPolicy)
	// Configurations are called in the order of their names.
	s.mutatingConfig("a-first", hook)
	s.mutatingConfig("b-second", newMutatingHook("second.example.com", urlClientConfig(second)))

	pod := s.createPod("web", map[string]string{"app": "web"})
	assert.Equal(t, map[string]string{"app": "web", "first": "yes", "second": "yes"}, pod.Labels)
	mu.Lock()
	defer mu.Unlock()
	assert.Equal(t, []string{"", "yes"}, seen, "called once before and once after the second webhook")
}

// A dry-run request that matches a webhook with possible side effects is
// rejected with 400 and the webhook is not called. Such webhooks can no
// longer be created through v1 (sideEffects must be None or NoneOnDryRun),
// but objects stored earlier keep their value: this one is written to
// storage directly, as v1beta1 once stored it.
func TestWebhookDryRunWithSideEffects(t *testing.T) {
	s := newTestServer(t)
	var mu sync.Mutex
	calls := 0
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		mu.Lock()
		calls++
		mu.Unlock()
		return webhooktest.Allow()
	})
	hook := newValidatingHook("audit.example.com", urlClientConfig(srv))
	hook.SideEffects = ptrTo(admissionregistrationv1.SideEffectClassUnknown)
	cfg := &admissionregistrationv1.ValidatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: "legacy", UID: "legacy-uid"},
		Webhooks:   []admissionregistrationv1.ValidatingWebhook{hook},
	}
	admissionregistrationv1.SetDefaults(cfg)
	store, ok := s.api.Store(admissionregistrationv1.SchemeGroupVersion.WithResource("validatingwebhookconfigurations"))
	require.True(t, ok)
	stored, err := store.Storage.Create(t.Context(), store.Key("", "legacy"), cfg)
	require.NoError(t, err)
	s.mustDo(http.StatusOK, "GET", validatingConfigsPath+"?resourceVersion="+metav1.MustAccessor(stored).ResourceVersion, "")

	r := s.mustDo(http.StatusBadRequest, "POST", "/api/v1/namespaces/default/pods?dryRun=All", podJSON("dry", nil))
	assert.Equal(t, `admission webhook "audit.example.com" does not support dry run`, r.status(t).Message)
	mu.Lock()
	assert.Zero(t, calls, "the webhook is not called")
	mu.Unlock()

	s.createPod("wet", nil)
	mu.Lock()
	assert.Equal(t, 1, calls, "a request that is not a dry run calls it")
	mu.Unlock()
}

// A webhook behind a Service is called at the address of the Service's
// endpoint: here a Service without selector whose Endpoints, written by
// hand, point at the webhook in the test process. The certificate is
// checked against the Service's DNS name.
func TestWebhookServiceReference(t *testing.T) {
	s := newTestServer(t)
	srv := webhooktest.New(t, deny("called through the service"), "policy.default.svc")
	svc := corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Name: "policy"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{
			Name: "https", Port: 8443, TargetPort: intstr.FromInt32(srv.Port), Protocol: corev1.ProtocolTCP,
		}}},
	}
	body, _ := json.Marshal(svc)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/services", string(body))
	ep := corev1.Endpoints{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Endpoints"},
		ObjectMeta: metav1.ObjectMeta{Name: "policy"},
		Subsets: []corev1.EndpointSubset{{
			Addresses: []corev1.EndpointAddress{{IP: "127.0.0.1"}},
			Ports:     []corev1.EndpointPort{{Name: "https", Port: srv.Port, Protocol: corev1.ProtocolTCP}},
		}},
	}
	body, _ = json.Marshal(ep)
	s.mustDo(http.StatusCreated, "POST", "/api/v1/namespaces/default/endpoints", string(body))

	cc := admissionregistrationv1.WebhookClientConfig{
		Service:  &admissionregistrationv1.ServiceReference{Namespace: "default", Name: "policy", Path: ptrTo("/validate"), Port: ptrTo(int32(8443))},
		CABundle: srv.CABundle,
	}
	s.validatingConfig("service", newValidatingHook("svc.policy.example.com", cc))
	r := s.mustDo(http.StatusForbidden, "POST", "/api/v1/namespaces/default/pods", podJSON("web", nil))
	assert.Contains(t, r.status(t).Message, `admission webhook "svc.policy.example.com" denied the request: called through the service`)

	missing := cc
	missing.Service = &admissionregistrationv1.ServiceReference{Namespace: "default", Name: "nowhere"}
	s.validatingConfig("missing-service", newValidatingHook("missing.policy.example.com", missing))
	r = s.mustDo(http.StatusInternalServerError, "POST", "/api/v1/namespaces/default/pods", podJSON("web", nil))
	assert.Contains(t, r.status(t).Message, `failed calling webhook "missing.policy.example.com": failed to call webhook: Post "https://nowhere.default.svc:443/?timeout=10s": services "nowhere" not found`)
}

// The configurations are ordinary resources: validated (422), defaulted,
// printed as kubectl prints them, and never subject to webhooks, so a
// webhook that denies everything can still be deleted.
func TestWebhookConfigurationResources(t *testing.T) {
	s := newTestServer(t)
	bad := newValidatingHook("two.segments", admissionregistrationv1.WebhookClientConfig{URL: ptrTo("http://127.0.0.1/")})
	body, _ := json.Marshal(admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "bad"}, Webhooks: []admissionregistrationv1.ValidatingWebhook{bad}})
	r := s.mustDo(http.StatusUnprocessableEntity, "POST", validatingConfigsPath, string(body))
	assert.Contains(t, r.status(t).Message, `ValidatingWebhookConfiguration.admissionregistration.k8s.io "bad" is invalid: [webhooks[0].name: Invalid value: "two.segments": should be a domain with at least three segments separated by dots`)

	srv := webhooktest.New(t, deny("nothing passes"))
	everything := newValidatingHook("all.example.com", urlClientConfig(srv))
	everything.Rules = []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.OperationAll},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*/*"}},
	}}
	s.validatingConfig("wall", everything)
	r = s.mustDo(http.StatusOK, "GET", validatingConfigsPath+"/wall", "")
	var cfg admissionregistrationv1.ValidatingWebhookConfiguration
	require.NoError(t, json.Unmarshal(r.body, &cfg))
	assert.Equal(t, admissionregistrationv1.Fail, *cfg.Webhooks[0].FailurePolicy, "defaulted")
	assert.Equal(t, int32(10), *cfg.Webhooks[0].TimeoutSeconds, "defaulted")

	r = s.mustDo(http.StatusOK, "GET", validatingConfigsPath, "", withHeader("Accept", "application/json;as=Table;v=v1;g=meta.k8s.io"))
	var table metav1.Table
	require.NoError(t, json.Unmarshal(r.body, &table))
	var columns []string
	for _, c := range table.ColumnDefinitions {
		columns = append(columns, c.Name)
	}
	assert.Equal(t, []string{"Name", "Webhooks", "Age"}, columns)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"wall", float64(1)}, table.Rows[0].Cells[:2])

	s.mustDo(http.StatusForbidden, "POST", "/api/v1/namespaces/default/configmaps", `{"metadata":{"name":"x"}}`)
	s.mustDo(http.StatusOK, "DELETE", validatingConfigsPath+"/wall", "")
}
