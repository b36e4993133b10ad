package minicpenv_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	admissionv1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/envtest"
	"sigs.k8s.io/controller-runtime/pkg/webhook"
	"sigs.k8s.io/controller-runtime/pkg/webhook/admission"

	"github.com/minicp/minicp/compat/envtest/minicpenv"
)

// webhookLabel selects the ConfigMaps the test's webhooks see, so
// nothing else a test creates calls them.
const webhookLabel = "minicpenv-webhook"

// webhookRule is CREATE and UPDATE of ConfigMaps.
var webhookRule = []admissionv1.RuleWithOperations{{
	Operations: []admissionv1.OperationType{admissionv1.Create, admissionv1.Update},
	Rule: admissionv1.Rule{
		APIGroups: []string{""}, APIVersions: []string{"v1"}, Resources: []string{"configmaps"},
	},
}}

// serviceConfig is a clientConfig as kubebuilder scaffolds it: a Service
// that envtest (and so minicpenv) replaces with the local URL.
func serviceConfig(path string) admissionv1.WebhookClientConfig {
	return admissionv1.WebhookClientConfig{Service: &admissionv1.ServiceReference{
		Namespace: "system", Name: "webhook-service", Path: ptr.To(path),
	}}
}

// TestWebhookInstall installs a mutating and a validating webhook as
// envtest does, serves them with controller-runtime's webhook server on
// the generated host, port and certificates, and checks that minicp calls
// both.
//
// envtest rewrites a Service path p to the URL "https://host:port/" + p,
// so kubebuilder's paths, which start with a slash, become
// "https://host:port//validate-..."; kube-apiserver's webhook client
// cleans the path (its REST client joins it with path.Join), so the call
// reaches "/validate-...". Both spellings are tested.
func TestWebhookInstall(t *testing.T) {
	tests := []struct {
		name                      string
		mutatePath, validatePath  string
		wantValidateURLPathSuffix string
	}{
		{name: "kubebuilder path", mutatePath: "/mutate-configmap", validatePath: "/validate-configmap",
			wantValidateURLPathSuffix: "//validate-configmap"},
		{name: "relative path", mutatePath: "mutate-configmap", validatePath: "validate-configmap",
			wantValidateURLPathSuffix: "/validate-configmap"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			testWebhookInstall(t, tc.mutatePath, tc.validatePath, tc.wantValidateURLPathSuffix)
		})
	}
}

func testWebhookInstall(t *testing.T, mutatePath, validatePath, wantURLPath string) {
	selector := &metav1.LabelSelector{MatchLabels: map[string]string{webhookLabel: "true"}}
	env := &minicpenv.Environment{WebhookInstallOptions: envtest.WebhookInstallOptions{
		MutatingWebhooks: []*admissionv1.MutatingWebhookConfiguration{{
			ObjectMeta: metav1.ObjectMeta{Name: "mutating"},
			TypeMeta:   metav1.TypeMeta{Kind: "MutatingWebhookConfiguration", APIVersion: "admissionregistration.k8s.io/v1"},
			Webhooks: []admissionv1.MutatingWebhook{{
				Name: "mconfigmap.example.minicp.io", ClientConfig: serviceConfig(mutatePath),
				Rules: webhookRule, ObjectSelector: selector,
				SideEffects: ptr.To(admissionv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
			}},
		}},
		ValidatingWebhooks: []*admissionv1.ValidatingWebhookConfiguration{{
			ObjectMeta: metav1.ObjectMeta{Name: "validating"},
			TypeMeta:   metav1.TypeMeta{Kind: "ValidatingWebhookConfiguration", APIVersion: "admissionregistration.k8s.io/v1"},
			Webhooks: []admissionv1.ValidatingWebhook{{
				Name: "vconfigmap.example.minicp.io", ClientConfig: serviceConfig(validatePath),
				Rules: webhookRule, ObjectSelector: selector,
				SideEffects: ptr.To(admissionv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1"},
			}},
		}},
	}}
	cfg := start(t, env)
	opts := env.WebhookInstallOptions
	require.NotEmpty(t, opts.LocalServingHost, "LocalServingHost")
	require.NotZero(t, opts.LocalServingPort, "LocalServingPort")
	require.DirExists(t, opts.LocalServingCertDir, "LocalServingCertDir")
	require.NotEmpty(t, opts.LocalServingCAData, "LocalServingCAData")

	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := client.New(cfg, client.Options{})
	require.NoError(t, err, "client.New")

	// The installed configuration points at the local server, trusting
	// the generated CA, as envtest rewrites it.
	installed := &admissionv1.ValidatingWebhookConfiguration{}
	require.NoError(t, c.Get(ctx, client.ObjectKey{Name: "validating"}, installed), "get ValidatingWebhookConfiguration")
	cc := installed.Webhooks[0].ClientConfig
	assert.Nil(t, cc.Service, "clientConfig.service")
	want := fmt.Sprintf("https://%s:%d%s", opts.LocalServingHost, opts.LocalServingPort, wantURLPath)
	if assert.NotNil(t, cc.URL, "clientConfig.url") {
		assert.Equal(t, want, *cc.URL, "clientConfig.url")
	}
	assert.Equal(t, opts.LocalServingCAData, cc.CABundle, "clientConfig.caBundle")

	server := webhook.NewServer(webhook.Options{
		Host: opts.LocalServingHost, Port: opts.LocalServingPort, CertDir: opts.LocalServingCertDir,
	})
	server.Register("/mutate-configmap", &webhook.Admission{Handler: admission.HandlerFunc(mutateConfigMap)})
	server.Register("/validate-configmap", &webhook.Admission{Handler: admission.HandlerFunc(validateConfigMap)})
	startWebhookServer(t, server)

	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "hooked", Labels: map[string]string{webhookLabel: "true"}},
		Data:       map[string]string{"a": "1"},
	}
	require.NoError(t, c.Create(ctx, cm), "create ConfigMap")
	assert.Equal(t, "true", cm.Data["mutated"], "the mutating webhook's patch")

	denied := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "denied", Labels: map[string]string{webhookLabel: "true"}},
		Data:       map[string]string{"forbidden": "yes"},
	}
	err = c.Create(ctx, denied)
	require.Error(t, err, "create a ConfigMap the validating webhook denies")
	assert.Contains(t, err.Error(), "the key forbidden is not allowed", "denial message")
}

// mutateConfigMap adds data.mutated=true.
func mutateConfigMap(_ context.Context, req admission.Request) admission.Response {
	cm := &corev1.ConfigMap{}
	if err := json.Unmarshal(req.Object.Raw, cm); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data["mutated"] = "true"
	patched, err := json.Marshal(cm)
	if err != nil {
		return admission.Errored(http.StatusInternalServerError, err)
	}
	return admission.PatchResponseFromRaw(req.Object.Raw, patched)
}

// validateConfigMap denies a ConfigMap with a data key "forbidden".
func validateConfigMap(_ context.Context, req admission.Request) admission.Response {
	cm := &corev1.ConfigMap{}
	if err := json.Unmarshal(req.Object.Raw, cm); err != nil {
		return admission.Errored(http.StatusBadRequest, err)
	}
	if _, ok := cm.Data["forbidden"]; ok {
		return admission.Denied("the key forbidden is not allowed")
	}
	return admission.Allowed("")
}

// startWebhookServer runs server until t ends and waits until it accepts
// connections. controller-runtime's server has no ready channel, only
// StartedChecker, a TLS dial: it is tried on a ticker until it succeeds.
func startWebhookServer(t *testing.T, server webhook.Server) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- server.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-done, "webhook server")
	})
	waitCtx, cancelWait := context.WithTimeout(ctx, testTimeout)
	defer cancelWait()
	// Why 10ms: a listener is up within microseconds of Start; the tick
	// only bounds how often a dial is attempted.
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	checker := server.StartedChecker()
	for {
		err := checker(nil)
		if err == nil {
			return
		}
		select {
		case <-tick.C:
		case err := <-done:
			t.Fatalf("webhook server stopped: %v", err)
		case <-waitCtx.Done():
			t.Fatalf("webhook server not started: %v", err)
		}
	}
}
