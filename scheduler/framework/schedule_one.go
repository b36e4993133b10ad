package framework

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ScheduleResult is where SchedulePod would put a pod, and how it decided.
type ScheduleResult struct {
	// SuggestedHost is the name of the chosen node.
	SuggestedHost string
	// EvaluatedNodes is how many nodes were filtered.
	EvaluatedNodes int
	// FeasibleNodes is how many of them fit the pod.
	FeasibleNodes int
	// NodeScores are the scores of the feasible nodes, in their order;
	// nil when only one node fit, since it is chosen without scoring.
	NodeScores []NodePluginScores
}

// SchedulePod runs one scheduling cycle for pod over nodes, which it only
// reads and which must all have their Node set: Filter every node, Score
// those that fit, and pick the best with SelectHost(scores, r). It does
// not bind, and does not change nodes.
//
// It returns ErrNoNodesAvailable when nodes is empty, a *FitError (see
// errors.As) when no node fits, and any other error when a plugin failed
// or ctx ended. r is used without locking; give each concurrent caller its
// own.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/schedule_one.go
// (schedulePod).
func (f *Framework) SchedulePod(ctx context.Context, pod *corev1.Pod, nodes []*NodeInfo, r *rand.Rand) (ScheduleResult, error) {
	if len(nodes) == 0 {
		return ScheduleResult{}, ErrNoNodesAvailable
	}
	state := NewCycleState()
	feasible, diagnosis, err := f.FindNodesThatFit(ctx, state, pod, nodes)
	if err != nil {
		return ScheduleResult{}, err
	}
	f.logFiltered(ctx, pod, nodes, len(feasible), diagnosis)
	if len(feasible) == 0 {
		diagnosis.PostFilterMsg = f.preemptionMessage(ctx, state, pod, nodes, diagnosis)
		return ScheduleResult{}, &FitError{Pod: pod, NumAllNodes: len(nodes), Diagnosis: diagnosis}
	}
	result := ScheduleResult{EvaluatedNodes: len(nodes), FeasibleNodes: len(feasible)}
	if len(feasible) == 1 {
		// Scoring one node cannot change the choice.
		result.SuggestedHost = feasible[0].Node().Name
		f.logScored(ctx, pod, result)
		return result, nil
	}
	scores, err := f.prioritizeNodes(ctx, state, pod, feasible)
	if err != nil {
		return ScheduleResult{}, err
	}
	result.NodeScores = scores
	if result.SuggestedHost, err = SelectHost(scores, r); err != nil {
		return ScheduleResult{}, err
	}
	f.logScored(ctx, pod, result)
	return result, nil
}

// FindNodesThatFit runs the filter half of a cycle: RunPreFilterPlugins,
// then RunFilterPlugins on every node, up to Parallelism nodes at once. It
// returns the nodes that fit, in the order given, and a Diagnosis of those
// that did not. A PreFilter rejection rejects every node with the same
// status. An Error status (the first in node order) or the end of ctx is
// returned as err.
//
// Upstream: schedule_one.go (findNodesThatFitPod,
// findNodesThatPassFilters), minus percentageOfNodesToScore: every node is
// filtered.
func (f *Framework) FindNodesThatFit(ctx context.Context, state *CycleState, pod *corev1.Pod, nodes []*NodeInfo) ([]*NodeInfo, Diagnosis, error) {
	var d Diagnosis
	if s := f.RunPreFilterPlugins(ctx, state, pod); !s.IsSuccess() {
		if !s.IsRejected() {
			return nil, d, s.AsError()
		}
		d.NodeToStatus = make(map[string]*Status, len(nodes))
		for _, n := range nodes {
			d.NodeToStatus[n.Node().Name] = s
		}
		d.UnschedulablePlugins = map[string]struct{}{s.Plugin(): {}}
		d.PreFilterMsg = s.Message()
		return nil, d, nil
	}
	statuses := make([]*Status, len(nodes))
	f.parallelize(ctx, len(nodes), func(i int) {
		statuses[i] = f.RunFilterPlugins(ctx, state, pod, nodes[i])
	})
	if err := ctx.Err(); err != nil {
		return nil, d, err
	}
	feasible := make([]*NodeInfo, 0, len(nodes))
	for i, s := range statuses {
		switch {
		case s.IsSuccess():
			feasible = append(feasible, nodes[i])
		case s.IsRejected():
			if d.NodeToStatus == nil {
				d.NodeToStatus = map[string]*Status{}
				d.UnschedulablePlugins = map[string]struct{}{}
			}
			d.NodeToStatus[nodes[i].Node().Name] = s
			d.UnschedulablePlugins[s.Plugin()] = struct{}{}
		default:
			return nil, d, fmt.Errorf("node %q: %w", nodes[i].Node().Name, s.AsError())
		}
	}
	return feasible, d, nil
}

// prioritizeNodes runs PreScore and Score on the feasible nodes. Without
// Score plugins every node scores 1, as upstream, so SelectHost still
// breaks the tie at random.
//
// Upstream: schedule_one.go (prioritizeNodes).
func (f *Framework) prioritizeNodes(ctx context.Context, state *CycleState, pod *corev1.Pod, nodes []*NodeInfo) ([]NodePluginScores, error) {
	if !f.HasScorePlugins() {
		out := make([]NodePluginScores, len(nodes))
		for i, n := range nodes {
			out[i] = NodePluginScores{Name: n.Node().Name, TotalScore: 1}
		}
		return out, nil
	}
	if s := f.RunPreScorePlugins(ctx, state, pod, nodes); !s.IsSuccess() {
		return nil, s.AsError()
	}
	scores, s := f.RunScorePlugins(ctx, state, pod, nodes)
	if !s.IsSuccess() {
		return nil, s.AsError()
	}
	return scores, nil
}

// SelectHost returns the name of the node with the highest TotalScore.
// Ties are broken uniformly at random with r by reservoir sampling (the
// k-th tied node replaces the choice with probability 1/k), as upstream
// does, so a seeded r makes the choice reproducible. A nil r picks the
// first of the tied nodes. It is an error to pass no scores.
//
// Upstream: schedule_one.go (selectHost).
func SelectHost(scores []NodePluginScores, r *rand.Rand) (string, error) {
	if len(scores) == 0 {
		return "", errors.New("empty priorityList")
	}
	best := scores[0]
	tied := 1
	for _, s := range scores[1:] {
		switch {
		case s.TotalScore > best.TotalScore:
			best, tied = s, 1
		case s.TotalScore == best.TotalScore:
			tied++
			if r != nil && r.IntN(tied) == 0 {
				best = s
			}
		}
	}
	return best.Name, nil
}
