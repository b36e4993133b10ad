package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// The users and groups the bootstrap configuration names, spelled as
// Kubernetes spells them.
const (
	systemMasters         = "system:masters"
	systemNodes           = "system:nodes"
	allAuthenticated      = "system:authenticated"
	allUnauthenticated    = "system:unauthenticated"
	allServiceAccounts    = "system:serviceaccounts"
	kubeControllerManager = "system:kube-controller-manager"
	kubeScheduler         = "system:kube-scheduler"
	namespaceSystem       = "kube-system"
)

// MandatoryPriorityLevelConfigurations are the levels every cluster has:
// exempt and catch-all. The API server keeps their spec as given here.
func MandatoryPriorityLevelConfigurations() []*PriorityLevelConfiguration {
	return []*PriorityLevelConfiguration{
		newLevel(PriorityLevelConfigurationNameCatchAll, PriorityLevelConfigurationSpec{
			Type: PriorityLevelEnablementLimited,
			Limited: &LimitedPriorityLevelConfiguration{
				NominalConcurrencyShares: ptr(5), LendablePercent: ptr(0),
				LimitResponse: LimitResponse{Type: LimitResponseTypeReject},
			},
		}),
		newLevel(PriorityLevelConfigurationNameExempt, PriorityLevelConfigurationSpec{
			Type:   PriorityLevelEnablementExempt,
			Exempt: &ExemptPriorityLevelConfiguration{NominalConcurrencyShares: ptr(0), LendablePercent: ptr(0)},
		}),
	}
}

// MandatoryFlowSchemas are the schemas every cluster has: exempt
// (system:masters) and catch-all.
func MandatoryFlowSchemas() []*FlowSchema {
	return []*FlowSchema{
		newSchema(FlowSchemaNameExempt, PriorityLevelConfigurationNameExempt, 1, "", everything(groups(systemMasters))),
		newSchema(FlowSchemaNameCatchAll, PriorityLevelConfigurationNameCatchAll, FlowSchemaMaxMatchingPrecedence,
			FlowDistinguisherMethodByUserType, everything(groups(allUnauthenticated, allAuthenticated))),
	}
}

// SuggestedPriorityLevelConfigurations are the levels a cluster starts
// with besides the mandatory ones; an administrator may change them
// (setting the autoupdate annotation to "false") or delete them.
func SuggestedPriorityLevelConfigurations() []*PriorityLevelConfiguration {
	// The shares, lendable percentages and queue shapes are upstream's.
	return []*PriorityLevelConfiguration{
		queuingLevel("system", 30, 33, 64, 6),
		queuingLevel("node-high", 40, 25, 64, 6),
		queuingLevel("leader-election", 10, 0, 16, 4),
		queuingLevel("workload-high", 40, 50, 128, 6),
		queuingLevel("workload-low", 100, 90, 128, 6),
		queuingLevel("global-default", 20, 50, 128, 6),
	}
}

// SuggestedFlowSchemas are the schemas a cluster starts with besides the
// mandatory ones.
func SuggestedFlowSchemas() []*FlowSchema {
	kubeSystemServiceAccounts := []Subject{{
		Kind: SubjectKindServiceAccount, ServiceAccount: &ServiceAccountSubject{Namespace: namespaceSystem, Name: NameAll},
	}}
	return []*FlowSchema{
		newSchema("system-nodes", "system", 500, FlowDistinguisherMethodByUserType, everything(groups(systemNodes))),
		newSchema("system-node-high", "node-high", 400, FlowDistinguisherMethodByUserType, PolicyRulesWithSubjects{
			Subjects: groups(systemNodes),
			ResourceRules: []ResourcePolicyRule{
				{Verbs: []string{VerbAll}, APIGroups: []string{""}, Resources: []string{"nodes", "nodes/status"}, Namespaces: []string{NamespaceEvery}, ClusterScope: true},
				{Verbs: []string{VerbAll}, APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Namespaces: []string{NamespaceEvery}},
			},
		}),
		newSchema("probes", PriorityLevelConfigurationNameExempt, 2, "", PolicyRulesWithSubjects{
			Subjects: groups(allUnauthenticated, allAuthenticated),
			NonResourceRules: []NonResourcePolicyRule{
				{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/readyz", "/livez"}},
			},
		}),
		newSchema("system-leader-election", "leader-election", 100, FlowDistinguisherMethodByUserType, PolicyRulesWithSubjects{
			Subjects: append(users(kubeControllerManager, kubeScheduler), kubeSystemServiceAccounts...),
			ResourceRules: []ResourcePolicyRule{
				{Verbs: []string{"get", "create", "update"}, APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, Namespaces: []string{NamespaceEvery}},
			},
		}),
		newSchema("kube-controller-manager", "workload-high", 800, FlowDistinguisherMethodByNamespaceType, everything(users(kubeControllerManager))),
		newSchema("kube-scheduler", "workload-high", 800, FlowDistinguisherMethodByNamespaceType, everything(users(kubeScheduler))),
		newSchema("kube-system-service-accounts", "workload-high", 900, FlowDistinguisherMethodByNamespaceType, everything(kubeSystemServiceAccounts)),
		newSchema("service-accounts", "workload-low", 9000, FlowDistinguisherMethodByUserType, everything(groups(allServiceAccounts))),
		newSchema("global-default", "global-default", 9900, FlowDistinguisherMethodByUserType, everything(groups(allUnauthenticated, allAuthenticated))),
	}
}

func ptr(v int32) *int32 { return &v }

func autoUpdate() metav1.ObjectMeta {
	return metav1.ObjectMeta{Annotations: map[string]string{AutoUpdateAnnotationKey: "true"}}
}

func newLevel(name string, spec PriorityLevelConfigurationSpec) *PriorityLevelConfiguration {
	pl := &PriorityLevelConfiguration{ObjectMeta: autoUpdate(), Spec: spec}
	pl.Name = name
	return pl
}

// queuingLevel is a Limited level that queues: every queue holds at most
// 50 requests, upstream's length for all its suggested levels.
func queuingLevel(name string, shares, lendable, queues, handSize int32) *PriorityLevelConfiguration {
	return newLevel(name, PriorityLevelConfigurationSpec{
		Type: PriorityLevelEnablementLimited,
		Limited: &LimitedPriorityLevelConfiguration{
			NominalConcurrencyShares: ptr(shares), LendablePercent: ptr(lendable),
			LimitResponse: LimitResponse{
				Type:    LimitResponseTypeQueue,
				Queuing: &QueuingConfiguration{Queues: queues, HandSize: handSize, QueueLengthLimit: 50},
			},
		},
	})
}

func newSchema(name, level string, precedence int32, method FlowDistinguisherMethodType, rules ...PolicyRulesWithSubjects) *FlowSchema {
	fs := &FlowSchema{ObjectMeta: autoUpdate(), Spec: FlowSchemaSpec{
		PriorityLevelConfiguration: PriorityLevelConfigurationReference{Name: level},
		MatchingPrecedence:         precedence,
		Rules:                      rules,
	}}
	fs.Name = name
	if method != "" {
		fs.Spec.DistinguisherMethod = &FlowDistinguisherMethod{Type: method}
	}
	return fs
}

// everything is a rule that matches every request of subjects.
func everything(subjects []Subject) PolicyRulesWithSubjects {
	return PolicyRulesWithSubjects{
		Subjects: subjects,
		ResourceRules: []ResourcePolicyRule{{
			Verbs: []string{VerbAll}, APIGroups: []string{APIGroupAll}, Resources: []string{ResourceAll},
			Namespaces: []string{NamespaceEvery}, ClusterScope: true,
		}},
		NonResourceRules: []NonResourcePolicyRule{{Verbs: []string{VerbAll}, NonResourceURLs: []string{NonResourceAll}}},
	}
}

func groups(names ...string) []Subject {
	out := make([]Subject, len(names))
	for i, n := range names {
		out[i] = Subject{Kind: SubjectKindGroup, Group: &GroupSubject{Name: n}}
	}
	return out
}

func users(names ...string) []Subject {
	out := make([]Subject, len(names))
	for i, n := range names {
		out[i] = Subject{Kind: SubjectKindUser, User: &UserSubject{Name: n}}
	}
	return out
}
