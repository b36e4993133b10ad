package framework

import (
	"context"
	"log/slog"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// The per-node results of a cycle go into its Debug records, so a tool
// following one pod (examples/pod-flow) can print why each node was kept
// or dropped and how each scored. They are built only when Debug is on:
// a cycle over many nodes would otherwise pay for strings nobody reads.

// FilterResultFit is the filter result of a node that fits.
const FilterResultFit = "fit"

// logFiltered records the "scheduler.filter" hop: how many nodes were
// filtered and fit, and the group "results", one attribute per node in
// the order filtered, whose value is FilterResultFit or "<plugin>:
// <reasons>".
func (f *Framework) logFiltered(ctx context.Context, pod *corev1.Pod, nodes []*NodeInfo, feasible int, d Diagnosis) {
	if !f.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	results := make([]slog.Attr, len(nodes))
	for i, n := range nodes {
		name := n.Node().Name
		result := FilterResultFit
		if s, rejected := d.NodeToStatus[name]; rejected {
			result = s.Plugin() + ": " + strings.Join(s.Reasons(), ", ")
		}
		results[i] = slog.String(name, result)
	}
	f.logger.LogAttrs(ctx, slog.LevelDebug, "filtered",
		slog.String("hop", "scheduler.filter"), slog.String("namespace", pod.Namespace), slog.String("pod", pod.Name),
		slog.Int("nodes", len(nodes)), slog.Int("feasible", feasible),
		slog.Attr{Key: "results", Value: slog.GroupValue(results...)})
}

// logScored records the "scheduler.score" hop: the chosen node, how many
// nodes were feasible, and the group "scores", one group per feasible node
// in the order scored, holding each plugin's weighted score and "total".
// A lone feasible node is chosen without scoring, and has no scores.
func (f *Framework) logScored(ctx context.Context, pod *corev1.Pod, result ScheduleResult) {
	if !f.logger.Enabled(ctx, slog.LevelDebug) {
		return
	}
	scores := make([]slog.Attr, len(result.NodeScores))
	for i, ns := range result.NodeScores {
		attrs := make([]slog.Attr, 0, len(ns.Scores)+1)
		for _, ps := range ns.Scores {
			attrs = append(attrs, slog.Int64(ps.Name, ps.Score))
		}
		attrs = append(attrs, slog.Int64("total", ns.TotalScore))
		scores[i] = slog.Attr{Key: ns.Name, Value: slog.GroupValue(attrs...)}
	}
	f.logger.LogAttrs(ctx, slog.LevelDebug, "scored",
		slog.String("hop", "scheduler.score"), slog.String("namespace", pod.Namespace), slog.String("pod", pod.Name),
		slog.String("node", result.SuggestedHost), slog.Int("feasible", result.FeasibleNodes),
		slog.Attr{Key: "scores", Value: slog.GroupValue(scores...)})
}
