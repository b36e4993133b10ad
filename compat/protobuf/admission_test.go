package protobuf

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kadmissionv1 "k8s.io/api/admission/v1"
	kadmissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	kprotobuf "k8s.io/apimachinery/pkg/runtime/serializer/protobuf"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// podReview is what the API server sends a webhook for kubectl run: a
// create, so the old object is null.
func podReview() *admissionv1.AdmissionReview {
	gvk := admissionv1.GroupVersionKind{Version: "v1", Kind: "Pod"}
	gvr := admissionv1.GroupVersionResource{Version: "v1", Resource: "pods"}
	return &admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID: "705ab4f5-6393-11e8-b7cc-42010a800002", Kind: gvk, Resource: gvr, RequestKind: &gvk, RequestResource: &gvr,
			Name: "web", Namespace: "default", Operation: admissionv1.Create,
			UserInfo: admissionv1.UserInfo{Username: "admin", Groups: []string{"system:masters", "system:authenticated"}},
			Object:   json.RawMessage(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"web","namespace":"default"},"spec":{"containers":[{"name":"web","image":"nginx"}]}}`),
			DryRun:   ptr(false),
			Options:  json.RawMessage(`{"kind":"CreateOptions","apiVersion":"meta.k8s.io/v1","fieldManager":"kubectl-run"}`),
		},
	}
}

// patchReview is a mutating webhook's answer: a JSON patch and a warning.
func patchReview() *admissionv1.AdmissionReview {
	return &admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Response: &admissionv1.AdmissionResponse{
			UID: "705ab4f5-6393-11e8-b7cc-42010a800002", Allowed: true,
			Patch:     []byte(`[{"op":"add","path":"/metadata/labels/team","value":"payments"}]`),
			PatchType: ptr(admissionv1.PatchTypeJSONPatch),
			Warnings:  []string{"label team was added"},
		},
	}
}

// webhookConfigs are the two configuration kinds as a webhook installer
// applies them (one by URL, one by Service), after the server's defaults.
func webhookConfigs() (*admissionregistrationv1.MutatingWebhookConfiguration, *admissionregistrationv1.ValidatingWebhookConfiguration) {
	rules := []admissionregistrationv1.RuleWithOperations{{
		Operations: []admissionregistrationv1.OperationType{admissionregistrationv1.Create, admissionregistrationv1.Update},
		Rule:       admissionregistrationv1.Rule{APIGroups: []string{"", "apps"}, APIVersions: []string{"v1"}, Resources: []string{"pods", "deployments", "pods/status"}},
	}}
	m := &admissionregistrationv1.MutatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "MutatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: "labels", UID: "6f1c2d3e-0000-4000-8000-000000000009", ResourceVersion: "77", Generation: 1, CreationTimestamp: created},
		Webhooks: []admissionregistrationv1.MutatingWebhook{{
			Name: "labels.example.com", Rules: rules,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{URL: ptr("https://127.0.0.1:8443/mutate"), CABundle: []byte("-----BEGIN CERTIFICATE-----\n...")},
			SideEffects:  ptr(admissionregistrationv1.SideEffectClassNone), AdmissionReviewVersions: []string{"v1", "v1beta1"},
			ReinvocationPolicy: ptr(admissionregistrationv1.IfNeededReinvocationPolicy),
			ObjectSelector:     &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "skip", Operator: "DoesNotExist"}}},
		}},
	}
	v := &admissionregistrationv1.ValidatingWebhookConfiguration{
		TypeMeta:   metav1.TypeMeta{APIVersion: "admissionregistration.k8s.io/v1", Kind: "ValidatingWebhookConfiguration"},
		ObjectMeta: metav1.ObjectMeta{Name: "policy", UID: "6f1c2d3e-0000-4000-8000-000000000010", ResourceVersion: "78", Generation: 1, CreationTimestamp: created},
		Webhooks: []admissionregistrationv1.ValidatingWebhook{{
			Name: "policy.example.com", Rules: rules,
			ClientConfig: admissionregistrationv1.WebhookClientConfig{Service: &admissionregistrationv1.ServiceReference{Namespace: "policy", Name: "webhook", Path: ptr("/validate")}},
			SideEffects:  ptr(admissionregistrationv1.SideEffectClassNoneOnDryRun), AdmissionReviewVersions: []string{"v1"},
			NamespaceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"policy": "strict"}},
			MatchConditions:   []admissionregistrationv1.MatchCondition{{Name: "not-system", Expression: "!request.userInfo.username.startsWith('system:')"}},
		}},
	}
	admissionregistrationv1.SetDefaults(m)
	admissionregistrationv1.SetDefaults(v)
	return m, v
}

// admissionCases pair minicp's admission kinds with Kubernetes'.
func admissionCases() []compatCase {
	k8s := func(obj kruntime.Object) func() kruntime.Object {
		return func() kruntime.Object { return reflect.New(reflect.TypeOf(obj).Elem()).Interface().(kruntime.Object) }
	}
	m, v := webhookConfigs()
	const arv1 = "admissionregistration.k8s.io/v1"
	return []compatCase{
		{name: "MutatingWebhookConfiguration-defaulted", minicp: m, k8s: k8s(&kadmissionregistrationv1.MutatingWebhookConfiguration{})},
		{name: "MutatingWebhookConfiguration-filled", minicp: withTypeMeta(fill(&admissionregistrationv1.MutatingWebhookConfiguration{}), arv1, "MutatingWebhookConfiguration"), k8s: k8s(&kadmissionregistrationv1.MutatingWebhookConfiguration{})},
		{name: "MutatingWebhookConfigurationList-filled", minicp: withTypeMeta(fill(&admissionregistrationv1.MutatingWebhookConfigurationList{}), arv1, "MutatingWebhookConfigurationList"), k8s: k8s(&kadmissionregistrationv1.MutatingWebhookConfigurationList{})},
		{name: "ValidatingWebhookConfiguration-defaulted", minicp: v, k8s: k8s(&kadmissionregistrationv1.ValidatingWebhookConfiguration{})},
		{name: "ValidatingWebhookConfiguration-filled", minicp: withTypeMeta(fill(&admissionregistrationv1.ValidatingWebhookConfiguration{}), arv1, "ValidatingWebhookConfiguration"), k8s: k8s(&kadmissionregistrationv1.ValidatingWebhookConfiguration{})},
		{name: "ValidatingWebhookConfigurationList-filled", minicp: withTypeMeta(fill(&admissionregistrationv1.ValidatingWebhookConfigurationList{}), arv1, "ValidatingWebhookConfigurationList"), k8s: k8s(&kadmissionregistrationv1.ValidatingWebhookConfigurationList{})},
		{name: "AdmissionReview-request", minicp: podReview(), k8s: k8s(&kadmissionv1.AdmissionReview{})},
		{name: "AdmissionReview-response", minicp: patchReview(), k8s: k8s(&kadmissionv1.AdmissionReview{})},
		{name: "AdmissionReview-filled", minicp: withTypeMeta(fill(&admissionv1.AdmissionReview{}), "admission.k8s.io/v1", "AdmissionReview"), k8s: k8s(&kadmissionv1.AdmissionReview{})},
	}
}

// TestAdmissionJSONMatchesKubernetes checks the JSON wire byte for byte:
// Kubernetes' types read minicp's JSON and write it back unchanged, so
// every field has upstream's name, order and omission rule (including the
// null an absent object or oldObject is written as).
func TestAdmissionJSONMatchesKubernetes(t *testing.T) {
	for _, tc := range admissionCases() {
		t.Run(tc.name, func(t *testing.T) {
			minicpJSON, err := json.Marshal(tc.minicp)
			require.NoError(t, err, "json.Marshal(minicp %s)", tc.name)
			k8sObj := tc.k8s()
			require.NoError(t, json.Unmarshal(minicpJSON, k8sObj), "json.Unmarshal(k8s %s)", tc.name)
			k8sJSON, err := json.Marshal(k8sObj)
			require.NoError(t, err, "json.Marshal(k8s %s)", tc.name)
			if !bytes.Equal(k8sJSON, minicpJSON) {
				t.Errorf("JSON of %s differs from Kubernetes':\nkubernetes: %s\nminicp:     %s", tc.name, k8sJSON, minicpJSON)
			}

			// And minicp reads Kubernetes' JSON back to the same value.
			decoded := reflect.New(reflect.TypeOf(tc.minicp).Elem()).Interface().(runtime.Object)
			require.NoError(t, json.Unmarshal(k8sJSON, decoded), "json.Unmarshal(minicp %s)", tc.name)
			again, err := json.Marshal(decoded)
			require.NoError(t, err)
			assert.Equal(t, string(minicpJSON), string(again), "round trip of %s", tc.name)
		})
	}
}

// An AdmissionReview as upstream writes it for a delete: the object is
// null and the old object is there.
func TestAdmissionReviewNullObjects(t *testing.T) {
	review := podReview()
	review.Request.Operation = admissionv1.Delete
	review.Request.OldObject, review.Request.Object, review.Request.Options = review.Request.Object, nil, nil
	data, err := json.Marshal(review)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"object":null,"oldObject":{"apiVersion":"v1"`)
	assert.Contains(t, string(data), `"options":null`)

	var k8sReview kadmissionv1.AdmissionReview
	require.NoError(t, json.Unmarshal(data, &k8sReview))
	k8sData, err := json.Marshal(&k8sReview)
	require.NoError(t, err)
	assert.Equal(t, string(k8sData), string(data))
}

// TestWebhookConfigurationProtobuf checks the configuration kinds'
// protobuf encoding against Kubernetes', both ways, as
// TestEncodeMatchesKubernetes does for the other kinds.
func TestWebhookConfigurationProtobuf(t *testing.T) {
	scheme := kruntime.NewScheme()
	require.NoError(t, kadmissionregistrationv1.AddToScheme(scheme))
	s := kprotobuf.NewSerializer(scheme, scheme)
	for _, tc := range admissionCases() {
		if _, ok := tc.minicp.(*admissionv1.AdmissionReview); ok {
			// Never sent as protobuf: webhooks speak JSON.
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			jsonBytes, err := json.Marshal(tc.minicp)
			require.NoError(t, err)
			k8sObj := tc.k8s()
			require.NoError(t, json.Unmarshal(jsonBytes, k8sObj))
			var k8sBytes bytes.Buffer
			require.NoError(t, s.EncodeWithAllocator(k8sObj, &k8sBytes, &kruntime.SimpleAllocator{}), "k8s Encode(%s)", tc.name)
			minicpBytes, err := runtime.EncodeProtobuf(tc.minicp)
			require.NoError(t, err, "EncodeProtobuf(%s)", tc.name)
			if !bytes.Equal(k8sBytes.Bytes(), minicpBytes) {
				t.Errorf("EncodeProtobuf(%s) differs from Kubernetes' bytes:\n%s", tc.name, diffDumps(k8sBytes.Bytes()[4:], minicpBytes[4:]))
			}
			decoded := reflect.New(reflect.TypeOf(tc.minicp).Elem()).Interface().(runtime.Object)
			require.NoError(t, runtime.DecodeProtobuf(k8sBytes.Bytes(), decoded), "DecodeProtobuf(k8s bytes of %s)", tc.name)
			assert.Equal(t, tc.minicp, decoded, "DecodeProtobuf(k8s bytes of %s)", tc.name)
		})
	}
}

func init() {
	// json.RawMessage for upstream's RawExtension{Raw}, as in WatchEvent:
	// the same JSON, and the same {1: raw} message in protobuf.
	for _, f := range []string{"AdmissionRequest.Object", "AdmissionRequest.OldObject", "AdmissionRequest.Options"} {
		shapeExceptions[f] = true
	}
}

// TestAdmissionTagsMatchKubernetes checks the protobuf tags of the
// admission kinds word for word, as TestTagsMatchKubernetes does for the
// others.
func TestAdmissionTagsMatchKubernetes(t *testing.T) {
	pairs := []struct{ minicp, k8s reflect.Type }{
		{reflect.TypeFor[admissionregistrationv1.MutatingWebhookConfigurationList](), reflect.TypeFor[kadmissionregistrationv1.MutatingWebhookConfigurationList]()},
		{reflect.TypeFor[admissionregistrationv1.ValidatingWebhookConfigurationList](), reflect.TypeFor[kadmissionregistrationv1.ValidatingWebhookConfigurationList]()},
		{reflect.TypeFor[admissionv1.AdmissionReview](), reflect.TypeFor[kadmissionv1.AdmissionReview]()},
	}
	w := tagWalker{t: t, seen: map[reflect.Type]bool{}}
	for _, p := range pairs {
		w.walk(p.minicp, p.k8s, p.minicp.Name())
	}
	if w.fields < 60 {
		t.Errorf("checked only %d fields; the walk is missing types", w.fields)
	}
}
