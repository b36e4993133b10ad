package webhook

import (
	"testing"

	"github.com/stretchr/testify/assert"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

func ptr[T any](v T) *T { return &v }

var (
	gvrPods        = runtime.GroupVersionResource{Version: "v1", Resource: "pods"}
	gvrDeployments = runtime.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	gvrNodes       = runtime.GroupVersionResource{Version: "v1", Resource: "nodes"}
)

func rule(ops []admissionregistrationv1.OperationType, groups, versions, resources []string, scope admissionregistrationv1.ScopeType) admissionregistrationv1.RuleWithOperations {
	return admissionregistrationv1.RuleWithOperations{Operations: ops, Rule: admissionregistrationv1.Rule{
		APIGroups: groups, APIVersions: versions, Resources: resources, Scope: ptr(scope),
	}}
}

var (
	anyOp    = []admissionregistrationv1.OperationType{admissionregistrationv1.OperationAll}
	createOp = []admissionregistrationv1.OperationType{admissionregistrationv1.Create}
	all      = []string{"*"}
	core     = []string{""}
	v1       = []string{"v1"}
)

func TestRuleMatches(t *testing.T) {
	podCreate := &admission.Attributes{Operation: admission.Create, Resource: gvrPods, Namespace: "default", Name: "web"}
	podStatus := &admission.Attributes{Operation: admission.Update, Resource: gvrPods, Subresource: "status", Namespace: "default", Name: "web"}
	nodeUpdate := &admission.Attributes{Operation: admission.Update, Resource: gvrNodes, Name: "n1"}
	nsDelete := &admission.Attributes{Operation: admission.Delete, Resource: namespaceResource, Namespace: "shop", Name: "shop"}
	deploy := &admission.Attributes{Operation: admission.Create, Resource: gvrDeployments, Namespace: "default", Name: "web"}
	tests := []struct {
		name  string
		rule  admissionregistrationv1.RuleWithOperations
		attrs *admission.Attributes
		want  bool
	}{
		{"exact", rule(createOp, core, v1, []string{"pods"}, "*"), podCreate, true},
		{"other operation", rule([]admissionregistrationv1.OperationType{"UPDATE", "DELETE"}, core, v1, []string{"pods"}, "*"), podCreate, false},
		{"any operation", rule(anyOp, core, v1, []string{"pods"}, "*"), podCreate, true},
		{"other group", rule(createOp, []string{"apps"}, v1, []string{"pods"}, "*"), podCreate, false},
		{"any group", rule(createOp, all, v1, []string{"pods"}, "*"), podCreate, true},
		{"other version", rule(createOp, core, []string{"v2"}, []string{"pods"}, "*"), podCreate, false},
		{"any version", rule(createOp, core, all, []string{"pods"}, "*"), podCreate, true},
		{"other resource", rule(createOp, core, v1, []string{"services"}, "*"), podCreate, false},
		{"any resource", rule(createOp, core, v1, []string{"*"}, "*"), podCreate, true},
		{"resource does not cover subresource", rule(anyOp, core, v1, []string{"pods"}, "*"), podStatus, false},
		{"any resource does not cover subresource", rule(anyOp, core, v1, []string{"*"}, "*"), podStatus, false},
		{"subresource", rule(anyOp, core, v1, []string{"pods/status"}, "*"), podStatus, true},
		{"subresource does not cover resource", rule(anyOp, core, v1, []string{"pods/status"}, "*"), podCreate, false},
		{"any subresource", rule(anyOp, core, v1, []string{"pods/*"}, "*"), podStatus, true},
		{"any subresource covers the resource too", rule(anyOp, core, v1, []string{"pods/*"}, "*"), podCreate, true},
		{"subresource of any resource", rule(anyOp, core, v1, []string{"*/status"}, "*"), podStatus, true},
		{"everything", rule(anyOp, all, all, []string{"*/*"}, "*"), podStatus, true},
		{"other subresource", rule(anyOp, core, v1, []string{"pods/binding"}, "*"), podStatus, false},
		{"namespaced scope", rule(anyOp, all, all, all, "Namespaced"), podCreate, true},
		{"namespaced scope, cluster object", rule(anyOp, all, all, all, "Namespaced"), nodeUpdate, false},
		{"cluster scope", rule(anyOp, all, all, all, "Cluster"), nodeUpdate, true},
		{"cluster scope, namespaced object", rule(anyOp, all, all, all, "Cluster"), podCreate, false},
		{"a namespace is cluster-scoped", rule(anyOp, all, all, all, "Cluster"), nsDelete, true},
		{"a namespace is not namespaced", rule(anyOp, all, all, all, "Namespaced"), nsDelete, false},
		{"apps group", rule(createOp, []string{"apps"}, v1, []string{"deployments"}, "*"), deploy, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := ruleMatches(&tc.rule, tc.attrs, tc.attrs.Resource)
			assert.Equal(t, tc.want, got, "ruleMatches(%+v, %+v)", tc.rule, tc.attrs)
		})
	}
	nilScope := rule(anyOp, all, all, all, "*")
	nilScope.Scope = nil
	assert.True(t, ruleMatches(&nilScope, nodeUpdate, gvrNodes), "an undefaulted scope is *")
}

func TestExempt(t *testing.T) {
	for kind, want := range map[string]bool{"ValidatingWebhookConfiguration": true, "MutatingWebhookConfiguration": true, "ValidatingAdmissionPolicy": false} {
		a := &admission.Attributes{Kind: admissionregistrationv1.SchemeGroupVersion.WithKind(kind)}
		assert.Equal(t, want, exempt(a), "exempt(%s)", kind)
	}
	assert.False(t, exempt(&admission.Attributes{Kind: runtime.GroupVersionKind{Version: "v1", Kind: "Pod"}}))
}
