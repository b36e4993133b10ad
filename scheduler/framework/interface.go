package framework

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The range of the score a ScorePlugin gives a node, after NormalizeScore.
const (
	// MaxNodeScore is the best score.
	MaxNodeScore int64 = 100
	// MinNodeScore is the worst score.
	MinNodeScore int64 = 0
)

// Plugin is the parent of every plugin interface. Name is the name the
// configuration uses ("NodeResourcesFit") and the name recorded in the
// Status of a rejection.
//
// A plugin instance serves one Framework and is called concurrently for
// different nodes; it must not keep per-pod state in its own fields (put it
// in the CycleState).
type Plugin interface {
	Name() string
}

// PreFilterPlugin is an optional companion of a FilterPlugin: the
// framework calls PreFilter once per cycle, before Filter runs on any node,
// so the plugin can compute what depends only on the pod (its requests, its
// parsed affinity) and Write it to the CycleState.
//
// A Status with code Skip means Filter has nothing to check for this pod and
// is not called in this cycle. A rejection (Unschedulable,
// UnschedulableAndUnresolvable) fails the pod on every node without calling
// any Filter.
//
// Upstream's PreFilter also returns a PreFilterResult that narrows the node
// set, and a PreFilterExtensions for preemption; minicp has neither.
type PreFilterPlugin interface {
	Plugin
	PreFilter(ctx context.Context, state *CycleState, pod *corev1.Pod) *Status
}

// FilterPlugin decides whether pod may run on one node (upstream's
// "predicates"). It returns nil (or Success) when it may, and a Status with
// code Unschedulable or UnschedulableAndUnresolvable, and reasons phrased
// for the FailedScheduling event, when it may not. Error means the plugin
// itself failed, and fails the whole cycle.
//
// Filter must only read nodeInfo and state: the framework calls it on many
// nodes at once. It must return a new Status on every call, since the
// framework records the plugin's name in it.
type FilterPlugin interface {
	Plugin
	Filter(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeInfo *NodeInfo) *Status
}

// PreScorePlugin is an optional companion of a ScorePlugin: PreScore runs
// once per cycle with the feasible nodes, before Score runs on any. Skip
// means Score is not called in this cycle and the plugin adds nothing to
// any node's total.
type PreScorePlugin interface {
	Plugin
	PreScore(ctx context.Context, state *CycleState, pod *corev1.Pod, nodes []*NodeInfo) *Status
}

// ScorePlugin ranks a feasible node (upstream's "priorities"). Score must
// only read nodeInfo and state, like Filter. After NormalizeScore (if any)
// every score must be in [MinNodeScore, MaxNodeScore]; the framework then
// multiplies it by the plugin's weight from the configuration.
type ScorePlugin interface {
	Plugin
	Score(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeInfo *NodeInfo) (int64, *Status)
	// ScoreExtensions returns the plugin's NormalizeScore, or nil when its
	// raw scores are already in range.
	ScoreExtensions() ScoreExtensions
}

// ScoreExtensions is the optional second pass of a ScorePlugin.
type ScoreExtensions interface {
	// NormalizeScore rewrites scores in place, once per cycle, after Score
	// ran on every node; it sees all of them, so it can scale relative to
	// the best.
	NormalizeScore(ctx context.Context, state *CycleState, pod *corev1.Pod, scores NodeScoreList) *Status
}

// NodeScore is one node's score from one plugin.
type NodeScore struct {
	Name  string
	Score int64
}

// NodeScoreList is one plugin's scores, one per node, in the order of the
// nodes given to RunScorePlugins.
type NodeScoreList []NodeScore

// PluginScore is one plugin's weighted score for a node.
type PluginScore struct {
	// Name is the plugin's name.
	Name string
	// Score is the normalized score times the plugin's weight.
	Score int64
}

// NodePluginScores is the result of scoring one node.
type NodePluginScores struct {
	// Name is the node's name.
	Name string
	// Scores holds one entry per score plugin that ran, in the order of
	// the configuration.
	Scores []PluginScore
	// TotalScore is the sum of Scores; SelectHost picks the highest.
	TotalScore int64
}
