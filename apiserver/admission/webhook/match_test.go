package webhook

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

// fakeNamespaces is an admission.NamespaceGetter with a cache that may lag
// etcd: cached answers without Live, live with it.
type fakeNamespaces struct {
	cached, live map[string]map[string]string // name -> labels
}

func (f fakeNamespaces) GetNamespace(_ context.Context, name string, opts admission.GetNamespaceOptions) (*corev1.Namespace, error) {
	from := f.cached
	if opts.Live {
		from = f.live
	}
	l, ok := from[name]
	if !ok {
		return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "namespaces"}, name)
	}
	return &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: l}}, nil
}

func podWithLabels(l map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Labels: l}}
}

// selectorHook is a webhook on everything with the given selectors.
func selectorHook(nsSel, objSel *metav1.LabelSelector) *hook {
	return newHook("c", 0, "h.example.com", &admissionregistrationv1.WebhookClientConfig{},
		[]admissionregistrationv1.RuleWithOperations{rule(anyOp, all, all, []string{"*/*"}, "*")}, nil, nil, nsSel, objSel, nil, nil)
}

func TestNamespaceSelector(t *testing.T) {
	prod := &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
	namespaces := fakeNamespaces{
		cached: map[string]map[string]string{"shop": {"env": "prod"}, "dev": {"env": "dev"}},
		live:   map[string]map[string]string{"shop": {"env": "prod"}, "dev": {"env": "dev"}, "fresh": {"env": "prod"}},
	}
	nsObject := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "new", Labels: map[string]string{"env": "prod"}}}
	tests := []struct {
		name    string
		attrs   *admission.Attributes
		want    bool
		wantErr func(error) bool
	}{
		{name: "labelled namespace", attrs: &admission.Attributes{Operation: admission.Create, Resource: gvrPods, Namespace: "shop"}, want: true},
		{name: "other namespace", attrs: &admission.Attributes{Operation: admission.Create, Resource: gvrPods, Namespace: "dev"}, want: false},
		{name: "not cached yet", attrs: &admission.Attributes{Operation: admission.Create, Resource: gvrPods, Namespace: "fresh"}, want: true},
		{name: "missing namespace", attrs: &admission.Attributes{Operation: admission.Create, Resource: gvrPods, Namespace: "gone"}, wantErr: apierrors.IsNotFound},
		{name: "cluster-scoped object", attrs: &admission.Attributes{Operation: admission.Update, Resource: gvrNodes, Name: "n1"}, want: true},
		{name: "namespace create, own labels", attrs: &admission.Attributes{Operation: admission.Create, Resource: namespaceResource, Name: "new", Object: nsObject}, want: true},
		{name: "namespace delete, stored labels", attrs: &admission.Attributes{Operation: admission.Delete, Resource: namespaceResource, Namespace: "dev", Name: "dev"}, want: false},
		{name: "namespace status, stored labels", attrs: &admission.Attributes{Operation: admission.Update, Resource: namespaceResource, Subresource: "status", Name: "shop"}, want: true},
	}
	m := matcher{namespaces: namespaces}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := m.matchNamespaceSelector(t.Context(), selectorHook(prod, nil), tc.attrs)
			if tc.wantErr != nil {
				assert.True(t, tc.wantErr(err), "error = %v", err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
	got, err := m.matchNamespaceSelector(t.Context(), selectorHook(nil, nil), &admission.Attributes{Resource: gvrPods, Namespace: "gone"})
	require.NoError(t, err)
	assert.True(t, got, "an empty selector needs no lookup")
}

func TestObjectSelector(t *testing.T) {
	sel := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "webhook", Operator: "NotIn", Values: []string{"skip"}}}}
	plain, skip := podWithLabels(nil), podWithLabels(map[string]string{"webhook": "skip"})
	tests := []struct {
		name  string
		attrs *admission.Attributes
		want  bool
	}{
		{"create, matching", &admission.Attributes{Operation: admission.Create, Object: plain}, true},
		{"create, not matching", &admission.Attributes{Operation: admission.Create, Object: skip}, false},
		{"update, old object matches", &admission.Attributes{Operation: admission.Update, Object: skip, OldObject: plain}, true},
		{"update, neither", &admission.Attributes{Operation: admission.Update, Object: skip, OldObject: skip}, false},
		{"delete, as the registry passes it", &admission.Attributes{Operation: admission.Delete, Object: skip}, false},
		{"delete, matching", &admission.Attributes{Operation: admission.Delete, Object: plain}, true},
		{"no object", &admission.Attributes{Operation: admission.Connect}, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := matchObjectSelector(selectorHook(nil, sel), tc.attrs)
			require.NoError(t, err)
			assert.Equal(t, tc.want, got)
		})
	}
}

// fakeResources serves deployments in apps/v1 and a CRD in two versions.
type fakeResources []runtime.ResourceInfo

func (f fakeResources) Resources() []runtime.ResourceInfo { return f }

func TestMatchPolicy(t *testing.T) {
	gvrWidgetsV1 := runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
	gvrWidgetsV2 := runtime.GroupVersionResource{Group: "example.com", Version: "v2", Resource: "widgets"}
	resources := fakeResources{
		{GVR: gvrDeployments, Kind: "Deployment"},
		{GVR: gvrWidgetsV1, Kind: "Widget"},
		{GVR: gvrWidgetsV2, Kind: "Widget"},
	}
	v2Request := &admission.Attributes{Operation: admission.Create, Resource: gvrWidgetsV2, Kind: gvrWidgetsV2.GroupVersion().WithKind("Widget"), Namespace: "default"}
	v1Rule := rule(createOp, []string{"example.com"}, v1, []string{"widgets"}, "*")
	tests := []struct {
		name      string
		policy    admissionregistrationv1.MatchPolicyType
		resources ResourceLister
		attrs     *admission.Attributes
		wantGVR   *runtime.GroupVersionResource
	}{
		{name: "exact", policy: admissionregistrationv1.Exact, resources: resources, attrs: v2Request},
		{name: "equivalent", policy: admissionregistrationv1.Equivalent, resources: resources, attrs: v2Request, wantGVR: &gvrWidgetsV1},
		{name: "equivalent without resources", policy: admissionregistrationv1.Equivalent, attrs: v2Request},
		{name: "equivalent, other resource", policy: admissionregistrationv1.Equivalent, resources: resources,
			attrs: &admission.Attributes{Operation: admission.Create, Resource: gvrDeployments, Namespace: "default"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			h := newHook("c", 0, "h.example.com", &admissionregistrationv1.WebhookClientConfig{},
				[]admissionregistrationv1.RuleWithOperations{v1Rule}, nil, &tc.policy, nil, nil, nil, nil)
			inv, err := matcher{resources: tc.resources}.shouldCall(t.Context(), h, tc.attrs)
			require.NoError(t, err)
			if tc.wantGVR == nil {
				assert.Nil(t, inv)
				return
			}
			require.NotNil(t, inv)
			assert.Equal(t, *tc.wantGVR, inv.resource)
			assert.Equal(t, tc.wantGVR.GroupVersion().WithKind("Widget"), inv.kind, "the object is presented in the matched version")
		})
	}
}

// A selector that cannot be evaluated matters only when everything else
// matches, as in upstream.
func TestShouldCallErrors(t *testing.T) {
	prod := &metav1.LabelSelector{MatchLabels: map[string]string{"env": "prod"}}
	skip := &metav1.LabelSelector{MatchLabels: map[string]string{"webhook": "yes"}}
	m := matcher{namespaces: fakeNamespaces{}}
	missing := &admission.Attributes{Operation: admission.Create, Resource: gvrPods, Namespace: "gone", Object: podWithLabels(nil)}

	_, err := m.shouldCall(t.Context(), selectorHook(prod, nil), missing)
	assert.True(t, apierrors.IsNotFound(err), "namespace lookup error = %v", err)

	inv, err := m.shouldCall(t.Context(), selectorHook(prod, skip), missing)
	require.NoError(t, err, "the object selector already excludes the webhook")
	assert.Nil(t, inv)

	bad := &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "a", Operator: "Sometimes"}}}
	_, err = m.shouldCall(t.Context(), selectorHook(nil, bad), missing)
	assert.True(t, apierrors.IsInternalError(err), "unparsable selector = %v", err)
}
