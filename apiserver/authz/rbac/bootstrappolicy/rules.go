package bootstrappolicy

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
)

// Verb sets, as upstream names them.
var (
	Read      = []string{"get", "list", "watch"}
	ReadWrite = []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection"}
	Write     = []string{"create", "update", "patch", "delete", "deletecollection"}
)

// API groups, "" being the core group.
const (
	legacyGroup         = ""
	appsGroup           = "apps"
	batchGroup          = "batch"
	autoscalingGroup    = "autoscaling"
	policyGroup         = "policy"
	networkingGroup     = "networking.k8s.io"
	coordinationGroup   = "coordination.k8s.io"
	discoveryGroup      = "discovery.k8s.io"
	eventsGroup         = "events.k8s.io"
	rbacGroup           = rbacv1.GroupName
	authorizationGroup  = "authorization.k8s.io"
	authenticationGroup = "authentication.k8s.io"
	storageGroup        = "storage.k8s.io"
	resourceGroup       = "resource.k8s.io"
)

// ruleBuilder builds one PolicyRule, as upstream's rbacv1helpers.NewRule.
type ruleBuilder struct{ r rbacv1.PolicyRule }

func rule(verbs ...string) *ruleBuilder {
	return &ruleBuilder{r: rbacv1.PolicyRule{Verbs: verbs}}
}

func (b *ruleBuilder) groups(g ...string) *ruleBuilder {
	b.r.APIGroups = append(b.r.APIGroups, g...)
	return b
}
func (b *ruleBuilder) resources(r ...string) *ruleBuilder {
	b.r.Resources = append(b.r.Resources, r...)
	return b
}
func (b *ruleBuilder) names(n ...string) *ruleBuilder {
	b.r.ResourceNames = append(b.r.ResourceNames, n...)
	return b
}
func (b *ruleBuilder) urls(u ...string) *ruleBuilder {
	b.r.NonResourceURLs = append(b.r.NonResourceURLs, u...)
	return b
}
func (b *ruleBuilder) rule() rbacv1.PolicyRule { return b.r }
func rules(bs ...*ruleBuilder) []rbacv1.PolicyRule {
	out := make([]rbacv1.PolicyRule, len(bs))
	for i, b := range bs {
		out[i] = b.rule()
	}
	return out
}

// Labels and annotations of the bootstrap objects.
const (
	// BootstrappingLabel marks every object of the default policy.
	BootstrappingLabel = "kubernetes.io/bootstrapping"
	// aggregateTo is the label prefix that puts a ClusterRole's rules in
	// admin, edit or view: rbac.authorization.k8s.io/aggregate-to-edit.
	aggregateTo = "rbac.authorization.k8s.io/aggregate-to-"
)

// objectMeta is the metadata of a bootstrap object: the bootstrapping
// label, extra labels, and autoupdate=true.
func objectMeta(name string, labels ...string) metav1.ObjectMeta {
	m := metav1.ObjectMeta{
		Name:        name,
		Labels:      map[string]string{BootstrappingLabel: "rbac-defaults"},
		Annotations: map[string]string{rbacv1.AutoUpdateAnnotationKey: "true"},
	}
	for i := 0; i+1 < len(labels); i += 2 {
		m.Labels[labels[i]] = labels[i+1]
	}
	return m
}

func aggregationRule(to string) *rbacv1.AggregationRule {
	return &rbacv1.AggregationRule{ClusterRoleSelectors: []metav1.LabelSelector{
		{MatchLabels: map[string]string{aggregateTo + to: "true"}},
	}}
}
