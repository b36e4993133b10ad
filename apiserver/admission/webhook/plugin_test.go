package webhook_test

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/admission/webhook"
	"github.com/minicp/minicp/apiserver/admission/webhook/webhooktest"
	"github.com/minicp/minicp/apiserver/request"
)

func ptr[T any](v T) *T { return &v }

// configs is a webhook.ConfigurationSource holding fixed configurations.
type configs struct {
	mutating   []*admissionregistrationv1.MutatingWebhookConfiguration
	validating []*admissionregistrationv1.ValidatingWebhookConfiguration
}

func (c configs) MutatingWebhookConfigurations(context.Context) ([]*admissionregistrationv1.MutatingWebhookConfiguration, error) {
	return c.mutating, nil
}

func (c configs) ValidatingWebhookConfigurations(context.Context) ([]*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	return c.validating, nil
}

var podRule = admissionregistrationv1.RuleWithOperations{
	Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.OperationAll},
	Rule:       admissionregistrationv1.Rule{APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"pods"}},
}

func clientConfig(srv *webhooktest.Server, path string) admissionregistrationv1.WebhookClientConfig {
	return admissionregistrationv1.WebhookClientConfig{URL: ptr(srv.URL + path), CABundle: srv.CABundle}
}

func validatingHook(name string, cc admissionregistrationv1.WebhookClientConfig, mutate ...func(*admissionregistrationv1.ValidatingWebhook)) admissionregistrationv1.ValidatingWebhook {
	h := admissionregistrationv1.ValidatingWebhook{
		Name: name, ClientConfig: cc, Rules: []admissionregistrationv1.RuleWithOperations{podRule},
		SideEffects: ptr(admissionregistrationv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
	}
	for _, m := range mutate {
		m(&h)
	}
	return h
}

func validating(hooks ...admissionregistrationv1.ValidatingWebhook) *webhook.Validating {
	c := &admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "policy"}, Webhooks: hooks}
	admissionregistrationv1.SetDefaults(c)
	return &webhook.Validating{Configurations: configs{validating: []*admissionregistrationv1.ValidatingWebhookConfiguration{c}}}
}

func newPod() *corev1.Pod {
	return &corev1.Pod{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx:latest"}}},
	}
}

func podCreate(pod *corev1.Pod) *admission.Attributes {
	return &admission.Attributes{
		Operation: admission.Create, Resource: corev1.SchemeGroupVersion.WithResource("pods"),
		Kind: corev1.SchemeGroupVersion.WithKind("Pod"), Namespace: pod.Namespace, Name: pod.Name, Object: pod,
		User: &request.User{Name: "alice", UID: "u-1", Groups: []string{"devs", "system:authenticated"}},
	}
}

func TestValidatingDenies(t *testing.T) {
	var got *admissionv1.AdmissionRequest
	srv := webhooktest.New(t, func(_ context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		got = req
		return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: "image tag latest is not allowed"}}
	})
	v := validating(validatingHook("tags.policy.example.com", clientConfig(srv, "/validate")))
	err := v.Validate(t.Context(), podCreate(newPod()))

	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err), "denied without a code is 403: %v", err)
	assert.EqualError(t, err, `pods "web" is forbidden: admission webhook "tags.policy.example.com" denied the request: image tag latest is not allowed`)
	status := err.(*apierrors.StatusError).Status()
	assert.Equal(t, &metav1.StatusDetails{Kind: "pods", Name: "web"}, status.Details)

	require.NotNil(t, got, "the webhook was called")
	assert.NotEmpty(t, got.UID)
	assert.Equal(t, admissionv1.GroupVersionKind{Version: "v1", Kind: "Pod"}, got.Kind)
	assert.Equal(t, admissionv1.GroupVersionResource{Version: "v1", Resource: "pods"}, got.Resource)
	assert.Equal(t, &got.Kind, got.RequestKind)
	assert.Equal(t, admissionv1.Create, got.Operation)
	assert.Equal(t, "web", got.Name)
	assert.Equal(t, "default", got.Namespace)
	assert.Equal(t, admissionv1.UserInfo{Username: "alice", UID: "u-1", Groups: []string{"devs", "system:authenticated"}}, got.UserInfo)
	assert.Equal(t, ptr(false), got.DryRun)
	assert.JSONEq(t, `{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1"}`, string(got.Options))
	assert.Equal(t, "null", string(got.OldObject), "a create has no old object")
	var sent corev1.Pod
	require.NoError(t, json.Unmarshal(got.Object, &sent))
	assert.Equal(t, newPod(), &sent, "the object is sent as it is, with its kind")
}

func TestValidatingDenialKeepsTheWebhooksStatus(t *testing.T) {
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return &admissionv1.AdmissionResponse{Result: &metav1.Status{Code: 422, Reason: metav1.StatusReasonInvalid}}
	})
	err := validating(validatingHook("codes.policy.example.com", clientConfig(srv, ""))).Validate(t.Context(), podCreate(newPod()))
	assert.True(t, apierrors.IsInvalid(err), "the webhook's reason and code: %v", err)
	assert.Equal(t, int32(422), apierrors.CodeForError(err))
	assert.EqualError(t, err, `pods "web" is forbidden: admission webhook "codes.policy.example.com" denied the request: Invalid`)
}

// The validating webhooks are called at once: each one here answers only
// after the other has been called, which sequential calls would never
// allow (the first would time out).
func TestValidatingCallsInParallel(t *testing.T) {
	arrived := map[string]chan struct{}{"a": make(chan struct{}), "b": make(chan struct{})}
	handler := func(self, other string) webhooktest.ReviewFunc {
		return func(ctx context.Context, _ *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
			close(arrived[self])
			select {
			case <-arrived[other]:
				return webhooktest.Allow()
			case <-ctx.Done():
				return nil
			}
		}
	}
	a, b := webhooktest.New(t, handler("a", "b")), webhooktest.New(t, handler("b", "a"))
	oneSecond := func(h *admissionregistrationv1.ValidatingWebhook) { h.TimeoutSeconds = ptr(int32(1)) }
	v := validating(validatingHook("a.policy.example.com", clientConfig(a, ""), oneSecond),
		validatingHook("b.policy.example.com", clientConfig(b, ""), oneSecond))
	assert.NoError(t, v.Validate(t.Context(), podCreate(newPod())))
}

// closedAddr returns an address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

func TestFailurePolicy(t *testing.T) {
	down := admissionregistrationv1.WebhookClientConfig{URL: ptr("https://" + closedAddr(t) + "/validate")}
	policy := func(p admissionregistrationv1.FailurePolicyType) func(*admissionregistrationv1.ValidatingWebhook) {
		return func(h *admissionregistrationv1.ValidatingWebhook) { h.FailurePolicy = &p }
	}

	err := validating(validatingHook("down.policy.example.com", down, policy(admissionregistrationv1.Fail))).Validate(t.Context(), podCreate(newPod()))
	assert.True(t, apierrors.IsInternalError(err), "Fail: %v", err)
	assert.Equal(t, int32(http.StatusInternalServerError), apierrors.CodeForError(err))
	assert.Contains(t, err.Error(), `Internal error occurred: failed calling webhook "down.policy.example.com": failed to call webhook: Post "`+*down.URL+`?timeout=10s": dial tcp`)

	var logs bytes.Buffer
	v := validating(validatingHook("down.policy.example.com", down, policy(admissionregistrationv1.Ignore)))
	v.Logger = slog.New(slog.NewTextHandler(&logs, nil))
	assert.NoError(t, v.Validate(t.Context(), podCreate(newPod())), "Ignore")
	assert.Contains(t, logs.String(), `msg="failed calling webhook, failing open" component=admission webhook=down.policy.example.com`)
}

// A webhook that does not answer within timeoutSeconds fails like one that
// is down. The handler never answers while the test runs: had it answered
// when its request's context ended, a loaded machine could deliver that
// answer (a 500) to the API server before its own deadline fired.
func TestTimeout(t *testing.T) {
	hang := t.Context()
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		<-hang.Done()
		return nil
	})
	for _, policy := range []admissionregistrationv1.FailurePolicyType{admissionregistrationv1.Fail, admissionregistrationv1.Ignore} {
		t.Run(string(policy), func(t *testing.T) {
			t.Parallel()
			v := validating(validatingHook("slow.policy.example.com", clientConfig(srv, "/slow"), func(h *admissionregistrationv1.ValidatingWebhook) {
				h.TimeoutSeconds, h.FailurePolicy = ptr(int32(1)), &policy
			}))
			err := v.Validate(t.Context(), podCreate(newPod()))
			if policy == admissionregistrationv1.Ignore {
				assert.NoError(t, err)
				return
			}
			assert.True(t, apierrors.IsInternalError(err), "%v", err)
			assert.Contains(t, err.Error(), `failed calling webhook "slow.policy.example.com": failed to call webhook: Post "`+srv.URL+`/slow?timeout=1s": context deadline exceeded`)
		})
	}
}

func TestInvalidResponses(t *testing.T) {
	tests := []struct {
		name    string
		respond func(req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse
		want    string
	}{
		{name: "uid", respond: func(*admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
			return &admissionv1.AdmissionResponse{UID: "someone-else", Allowed: true}
		}, want: `received invalid webhook response: expected response.uid=`},
		{name: "patch from a validating webhook", respond: func(*admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
			return webhooktest.JSONPatch([]map[string]any{{"op": "remove", "path": "/metadata/labels"}})
		}, want: `received invalid webhook response: validating webhook may not return response.patch`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := webhooktest.New(t, func(_ context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
				return tc.respond(req)
			})
			err := validating(validatingHook("odd.policy.example.com", clientConfig(srv, ""))).Validate(t.Context(), podCreate(newPod()))
			assert.True(t, apierrors.IsInternalError(err), "%v", err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// The webhook's certificate is checked against caBundle.
func TestCABundle(t *testing.T) {
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return webhooktest.Allow()
	})
	other := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse { return nil })
	wrongCA := admissionregistrationv1.WebhookClientConfig{URL: ptr(srv.URL), CABundle: other.CABundle}
	err := validating(validatingHook("tls.policy.example.com", wrongCA)).Validate(t.Context(), podCreate(newPod()))
	assert.True(t, apierrors.IsInternalError(err), "%v", err)
	assert.Contains(t, err.Error(), "x509: certificate signed by unknown authority")

	notPEM := admissionregistrationv1.WebhookClientConfig{URL: ptr(srv.URL), CABundle: []byte("not a certificate")}
	err = validating(validatingHook("tls.policy.example.com", notPEM)).Validate(t.Context(), podCreate(newPod()))
	assert.Contains(t, err.Error(), "could not get REST client: unable to load root certificates: unable to parse bytes as PEM block")
}

// A dry-run request may only call webhooks without side effects; one with
// possible side effects rejects it with 400, whatever its failure policy.
func TestDryRun(t *testing.T) {
	var calls atomic.Int32
	var dryRun atomic.Bool
	srv := webhooktest.New(t, func(_ context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		calls.Add(1)
		dryRun.Store(*req.DryRun)
		return webhooktest.Allow()
	})
	sideEffects := func(s admissionregistrationv1.SideEffectClass) func(*admissionregistrationv1.ValidatingWebhook) {
		return func(h *admissionregistrationv1.ValidatingWebhook) {
			h.SideEffects, h.FailurePolicy = &s, ptr(admissionregistrationv1.Ignore)
		}
	}
	attrs := podCreate(newPod())
	attrs.DryRun = true

	err := validating(validatingHook("audit.policy.example.com", clientConfig(srv, ""), sideEffects(admissionregistrationv1.SideEffectClassUnknown))).Validate(t.Context(), attrs)
	assert.True(t, apierrors.IsBadRequest(err), "%v", err)
	assert.EqualError(t, err, `admission webhook "audit.policy.example.com" does not support dry run`)
	assert.Zero(t, calls.Load(), "the webhook is not called")

	err = validating(validatingHook("audit.policy.example.com", clientConfig(srv, ""), sideEffects(admissionregistrationv1.SideEffectClassNoneOnDryRun))).Validate(t.Context(), attrs)
	assert.NoError(t, err)
	assert.Equal(t, int32(1), calls.Load())
	assert.True(t, dryRun.Load(), "the webhook is told the request is a dry run")
}

// fakeServices resolves every Service to one address.
type fakeServices struct {
	addr string
	err  error
}

func (f fakeServices) ResolveEndpoint(context.Context, string, string, int32) (string, error) {
	return f.addr, f.err
}

func TestServiceReference(t *testing.T) {
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: "called through the service"}}
	}, "policy.webhooks.svc")
	cc := admissionregistrationv1.WebhookClientConfig{
		Service:  &admissionregistrationv1.ServiceReference{Namespace: "webhooks", Name: "policy", Path: ptr("/validate")},
		CABundle: srv.CABundle,
	}
	v := validating(validatingHook("svc.policy.example.com", cc))
	v.Services = fakeServices{addr: srv.Addr}
	err := v.Validate(t.Context(), podCreate(newPod()))
	assert.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.Contains(t, err.Error(), "called through the service")

	// A new plugin: the first one keeps its connection to the webhook,
	// and resolves the service again only for a new connection.
	v = validating(validatingHook("svc.policy.example.com", cc))
	v.Services = fakeServices{err: apierrors.NewNotFound(runtime.GroupResource{Resource: "services"}, "policy")}
	err = v.Validate(t.Context(), podCreate(newPod()))
	assert.True(t, apierrors.IsInternalError(err), "%v", err)
	assert.Contains(t, err.Error(), `failed to call webhook: Post "https://policy.webhooks.svc:443/validate?timeout=10s": services "policy" not found`)
}

func TestDeleteSendsTheOldObject(t *testing.T) {
	var got *admissionv1.AdmissionRequest
	srv := webhooktest.New(t, func(_ context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		got = req
		return webhooktest.Allow()
	})
	attrs := podCreate(newPod())
	// The registry validates a delete with the object being deleted.
	attrs.Operation = admission.Delete
	require.NoError(t, validating(validatingHook("del.policy.example.com", clientConfig(srv, ""))).Validate(t.Context(), attrs))
	require.NotNil(t, got)
	assert.Equal(t, admissionv1.Delete, got.Operation)
	assert.Equal(t, "null", string(got.Object))
	assert.Contains(t, string(got.OldObject), `"name":"web"`)
	assert.JSONEq(t, `{"kind":"DeleteOptions","apiVersion":"meta.k8s.io/v1"}`, string(got.Options))
}

// No webhook is called for the webhook configurations themselves, so a
// webhook that rejects everything can still be removed.
func TestConfigurationsAreExempt(t *testing.T) {
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return &admissionv1.AdmissionResponse{}
	})
	everything := func(h *admissionregistrationv1.ValidatingWebhook) {
		h.Rules[0].Rule = admissionregistrationv1.Rule{APIGroups: []string{"*"}, APIVersions: []string{"*"}, Resources: []string{"*/*"}}
	}
	v := validating(validatingHook("deny.policy.example.com", clientConfig(srv, ""), everything))
	cfg := &admissionregistrationv1.ValidatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "policy"}}
	attrs := &admission.Attributes{
		Operation: admission.Delete, Resource: admissionregistrationv1.SchemeGroupVersion.WithResource("validatingwebhookconfigurations"),
		Kind: admissionregistrationv1.SchemeGroupVersion.WithKind("ValidatingWebhookConfiguration"), Name: "policy", Object: cfg,
	}
	assert.NoError(t, v.Validate(t.Context(), attrs))
	assert.Error(t, v.Validate(t.Context(), podCreate(newPod())), "the webhook does deny other requests")
}

func mutatingHook(name string, cc admissionregistrationv1.WebhookClientConfig, reinvocation admissionregistrationv1.ReinvocationPolicyType) admissionregistrationv1.MutatingWebhook {
	return admissionregistrationv1.MutatingWebhook{
		Name: name, ClientConfig: cc, Rules: []admissionregistrationv1.RuleWithOperations{podRule},
		SideEffects: ptr(admissionregistrationv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
		ReinvocationPolicy: &reinvocation,
	}
}

func mutatingConfigs(cs ...*admissionregistrationv1.MutatingWebhookConfiguration) configs {
	for _, c := range cs {
		admissionregistrationv1.SetDefaults(c)
	}
	return configs{mutating: cs}
}

// addLabel answers with a patch setting one label.
func addLabel(key, value string) webhooktest.ReviewFunc {
	return func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return webhooktest.JSONPatch([]map[string]any{{"op": "add", "path": "/metadata/labels/" + key, "value": value}})
	}
}

func TestMutatingPatchesInPlace(t *testing.T) {
	srv := webhooktest.New(t, addLabel("team", "payments"))
	var defaulted int
	m := &webhook.Mutating{
		Configurations: mutatingConfigs(&admissionregistrationv1.MutatingWebhookConfiguration{
			ObjectMeta: metav1.ObjectMeta{Name: "labels"},
			Webhooks:   []admissionregistrationv1.MutatingWebhook{mutatingHook("team.labels.example.com", clientConfig(srv, ""), admissionregistrationv1.NeverReinvocationPolicy)},
		}),
		SetDefaults: func(obj runtime.Object) { defaulted++ },
	}
	pod := newPod()
	attrs := podCreate(pod)
	require.NoError(t, m.Admit(t.Context(), attrs))
	assert.Same(t, pod, attrs.Object, "the handler's object is the one patched")
	assert.Equal(t, map[string]string{"app": "web", "team": "payments"}, pod.Labels)
	assert.Equal(t, "Pod", pod.Kind)
	assert.Equal(t, 1, defaulted, "the patched object is defaulted again")
}

// A webhook with reinvocationPolicy IfNeeded is called again when a later
// webhook changed the object; one with Never is not.
func TestMutatingReinvocation(t *testing.T) {
	for _, policy := range []admissionregistrationv1.ReinvocationPolicyType{admissionregistrationv1.IfNeededReinvocationPolicy, admissionregistrationv1.NeverReinvocationPolicy} {
		t.Run(string(policy), func(t *testing.T) {
			var mu sync.Mutex
			var seen []map[string]string // labels the first webhook saw, per call
			first := webhooktest.New(t, func(_ context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
				var p corev1.Pod
				if err := json.Unmarshal(req.Object, &p); err != nil {
					return nil
				}
				mu.Lock()
				seen = append(seen, p.Labels)
				mu.Unlock()
				return addLabel("first", "yes")(context.Background(), req)
			})
			second := webhooktest.New(t, addLabel("second", "yes"))
			m := &webhook.Mutating{Configurations: mutatingConfigs(
				// Called in the order of the configurations' names.
				&admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "b-second"},
					Webhooks: []admissionregistrationv1.MutatingWebhook{mutatingHook("second.example.com", clientConfig(second, ""), admissionregistrationv1.NeverReinvocationPolicy)}},
				&admissionregistrationv1.MutatingWebhookConfiguration{ObjectMeta: metav1.ObjectMeta{Name: "a-first"},
					Webhooks: []admissionregistrationv1.MutatingWebhook{mutatingHook("first.example.com", clientConfig(first, ""), policy)}},
			)}
			pod := newPod()
			require.NoError(t, m.Admit(t.Context(), podCreate(pod)))
			assert.Equal(t, map[string]string{"app": "web", "first": "yes", "second": "yes"}, pod.Labels)
			want := []map[string]string{{"app": "web"}}
			if policy == admissionregistrationv1.IfNeededReinvocationPolicy {
				want = append(want, map[string]string{"app": "web", "first": "yes", "second": "yes"})
			}
			assert.Equal(t, want, seen, "what the first webhook saw")
		})
	}
}

func TestMutatingDenies(t *testing.T) {
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return &admissionv1.AdmissionResponse{}
	})
	var called atomic.Bool
	after := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		called.Store(true)
		return webhooktest.Allow()
	})
	m := &webhook.Mutating{Configurations: mutatingConfigs(&admissionregistrationv1.MutatingWebhookConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "deny"},
		Webhooks: []admissionregistrationv1.MutatingWebhook{
			mutatingHook("deny.example.com", clientConfig(srv, ""), admissionregistrationv1.NeverReinvocationPolicy),
			mutatingHook("after.example.com", clientConfig(after, ""), admissionregistrationv1.NeverReinvocationPolicy),
		},
	})}
	err := m.Admit(t.Context(), podCreate(newPod()))
	assert.EqualError(t, err, `pods "web" is forbidden: admission webhook "deny.example.com" denied the request without explanation`)
	assert.False(t, called.Load(), "webhooks after a denial are not called")
}

func TestMutatingBadPatch(t *testing.T) {
	tests := []struct {
		name     string
		response *admissionv1.AdmissionResponse
		check    func(error) bool
		want     string
	}{
		{name: "undecodable", response: &admissionv1.AdmissionResponse{Allowed: true, Patch: []byte(`{"op":"add"}`), PatchType: ptr(admissionv1.PatchTypeJSONPatch)},
			check: apierrors.IsInternalError, want: "received undecodable patch in webhook response"},
		{name: "does not apply", response: webhooktest.JSONPatch([]map[string]any{{"op": "replace", "path": "/spec/nodeName/x", "value": "n"}}),
			check: apierrors.IsInternalError, want: "Internal error occurred"},
		{name: "no patch type", response: &admissionv1.AdmissionResponse{Allowed: true, Patch: []byte(`[]`)},
			check: apierrors.IsInternalError, want: "webhook returned response.patch but not response.patchType"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
				return tc.response
			})
			m := &webhook.Mutating{Configurations: mutatingConfigs(&admissionregistrationv1.MutatingWebhookConfiguration{
				ObjectMeta: metav1.ObjectMeta{Name: "bad"},
				Webhooks:   []admissionregistrationv1.MutatingWebhook{mutatingHook("bad.example.com", clientConfig(srv, ""), admissionregistrationv1.NeverReinvocationPolicy)},
			})}
			pod := newPod()
			err := m.Admit(t.Context(), podCreate(pod))
			assert.True(t, tc.check(err), "%v", err)
			assert.Contains(t, err.Error(), tc.want)
			assert.Equal(t, newPod(), pod, "a failed patch leaves the object alone")
		})
	}
}

// TestURLPathIsCleaned calls a webhook whose url has a doubled slash, as
// envtest writes it for a kubebuilder path: the call goes to the clean
// path, as kube-apiserver's does, not to a redirect.
func TestURLPathIsCleaned(t *testing.T) {
	srv := webhooktest.New(t, func(context.Context, *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse {
		return &admissionv1.AdmissionResponse{Result: &metav1.Status{Message: "called"}}
	})
	cc := admissionregistrationv1.WebhookClientConfig{URL: ptr(srv.URL + "//validate"), CABundle: srv.CABundle}
	err := validating(validatingHook("clean.policy.example.com", cc)).Validate(t.Context(), podCreate(newPod()))
	assert.True(t, apierrors.IsForbidden(err), "%v", err)
}
