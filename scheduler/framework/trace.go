package framework

import (
	"context"
	"log/slog"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/tracing"
)

// The per-node results of a cycle go into its Debug records and, in a
// traced cycle, its spans, so a tool following one pod (examples/pod-flow,
// the trace timeline) can print why each node was kept or dropped and how
// each scored. They are built only when someone reads them: a cycle over
// many nodes would otherwise pay for strings nobody reads.

// FilterResultFit is the filter result of a node that fits.
const FilterResultFit = "fit"

// logFiltered records the "scheduler.filter" hop: how many nodes were
// filtered and fit, and the group "results", one attribute per node in
// the order filtered, whose value is FilterResultFit or "<plugin>:
// <reasons>".
// In a traced cycle it is a span too, with one attribute "node.<name>"
// per node.
func (f *Framework) logFiltered(ctx context.Context, pod *corev1.Pod, nodes []*NodeInfo, feasible int, d Diagnosis) {
	debug := f.logger.Enabled(ctx, slog.LevelDebug)
	traced := trace.SpanContextFromContext(ctx).IsValid()
	if !debug && !traced {
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
	if traced {
		attrs := []attribute.KeyValue{attribute.Int("nodes", len(nodes)), attribute.Int("feasible", feasible)}
		for _, r := range results {
			attrs = append(attrs, attribute.String("node."+r.Key, r.Value.String()))
		}
		_, span := tracing.TracerFrom(ctx, "scheduler").Start(ctx, tracing.HopSchedulerFilter, trace.WithAttributes(attrs...))
		span.End()
	}
	if !debug {
		return
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
// In a traced cycle it is a span too, with the chosen node and one
// attribute "node.<name>" per node: "<plugin>=<score> ... total=<sum>".
func (f *Framework) logScored(ctx context.Context, pod *corev1.Pod, result ScheduleResult) {
	debug := f.logger.Enabled(ctx, slog.LevelDebug)
	traced := trace.SpanContextFromContext(ctx).IsValid()
	if !debug && !traced {
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
	if traced {
		attrs := []attribute.KeyValue{tracing.KeyNode.String(result.SuggestedHost), attribute.Int("feasible", result.FeasibleNodes)}
		for _, sc := range scores {
			var b strings.Builder
			for i, ps := range sc.Value.Group() {
				if i > 0 {
					b.WriteByte(' ')
				}
				b.WriteString(ps.Key + "=" + ps.Value.String())
			}
			attrs = append(attrs, attribute.String("node."+sc.Key, b.String()))
		}
		_, span := tracing.TracerFrom(ctx, "scheduler").Start(ctx, tracing.HopSchedulerScore, trace.WithAttributes(attrs...))
		span.End()
	}
	if !debug {
		return
	}
	f.logger.LogAttrs(ctx, slog.LevelDebug, "scored",
		slog.String("hop", "scheduler.score"), slog.String("namespace", pod.Namespace), slog.String("pod", pod.Name),
		slog.String("node", result.SuggestedHost), slog.Int("feasible", result.FeasibleNodes),
		slog.Attr{Key: "scores", Value: slog.GroupValue(scores...)})
}
