// Package config is the scheduler's configuration file: a
// KubeSchedulerConfiguration (apiVersion kubescheduler.config.k8s.io/v1)
// whose profiles say which plugins run at which extension point and how
// much each score plugin weighs. Load reads one from YAML (or JSON),
// rejecting unknown fields, then fills the defaults and validates it;
// Default returns the configuration used when there is no file.
//
// This is the modern form of Kubernetes' --policy-config-file, which
// made both the predicates and the priorities configurable. Upstream
// replaced that Policy file (removed in v1.23) with these profiles: the
// old predicates became Filter plugins and the old priorities, with their
// weights, Score plugins:
//
//	Policy (--policy-config-file)    KubeSchedulerConfiguration plugin
//	PodFitsResources                 NodeResourcesFit (filter)
//	LeastRequestedPriority           NodeResourcesFit (score, LeastAllocated)
//	BalancedResourceAllocation       NodeResourcesBalancedAllocation (score)
//	PodFitsHost                      NodeName (filter)
//	MatchNodeSelector                NodeAffinity (filter)
//	NodeAffinityPriority             NodeAffinity (score)
//	PodToleratesNodeTaints           TaintToleration (filter)
//	TaintTolerationPriority          TaintToleration (score)
//	CheckNodeUnschedulable           NodeUnschedulable (filter)
//	CheckNodeCondition               NodeReady (filter; minicp's)
//
// A file that enables a plugin the scheduler does not know is valid here;
// framework.New rejects it, because only the plugin registry (which
// workshop code can extend) knows which plugins exist.
//
// What minicp leaves out of upstream's format: pluginConfig (plugin
// arguments), percentageOfNodesToScore (every node is filtered and scored),
// the preFilter and preScore plugin sets (a plugin's PreFilter runs when
// its Filter is enabled, its PreScore when its Score is), and the
// leaderElection and clientConnection sections. They are unknown fields,
// so a file that sets them is rejected rather than half-applied.
//
// Upstream: k8s.io/kube-scheduler/config/v1 (types),
// k8s.io/kubernetes/pkg/scheduler/apis/config (defaults, validation).
package config
