package framework_test

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
)

// fakePlugin is a plugin whose extension points are functions; a nil
// function means the point is not implemented (see the types below).
type fakePlugin struct {
	name      string
	preFilter func(pod *corev1.Pod) *framework.Status
	filter    func(pod *corev1.Pod, n *framework.NodeInfo) *framework.Status
	preScore  func(pod *corev1.Pod) *framework.Status
	score     func(pod *corev1.Pod, n *framework.NodeInfo) (int64, *framework.Status)
	normalize func(scores framework.NodeScoreList) *framework.Status
}

func (p *fakePlugin) Name() string { return p.name }

func (p *fakePlugin) PreFilter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod) *framework.Status {
	if p.preFilter == nil {
		return nil
	}
	return p.preFilter(pod)
}

func (p *fakePlugin) Filter(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, n *framework.NodeInfo) *framework.Status {
	if p.filter == nil {
		return nil
	}
	return p.filter(pod, n)
}

func (p *fakePlugin) PreScore(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, _ []*framework.NodeInfo) *framework.Status {
	if p.preScore == nil {
		return nil
	}
	return p.preScore(pod)
}

func (p *fakePlugin) Score(_ context.Context, _ *framework.CycleState, pod *corev1.Pod, n *framework.NodeInfo) (int64, *framework.Status) {
	if p.score == nil {
		return 0, nil
	}
	return p.score(pod, n)
}

func (p *fakePlugin) ScoreExtensions() framework.ScoreExtensions {
	if p.normalize == nil {
		return nil
	}
	return p
}

func (p *fakePlugin) NormalizeScore(_ context.Context, _ *framework.CycleState, _ *corev1.Pod, scores framework.NodeScoreList) *framework.Status {
	return p.normalize(scores)
}

// The fakes as one kind of plugin only (no embedding, which would
// promote every method), so a registry can offer a plugin that implements
// only some extension points.
type (
	filterOnly struct{ p *fakePlugin }
	scoreOnly  struct{ p *fakePlugin }
)

func (f filterOnly) Name() string { return f.p.name }
func (f filterOnly) Filter(ctx context.Context, s *framework.CycleState, pod *corev1.Pod, n *framework.NodeInfo) *framework.Status {
	return f.p.Filter(ctx, s, pod, n)
}

func (f scoreOnly) Name() string { return f.p.name }
func (f scoreOnly) Score(ctx context.Context, s *framework.CycleState, pod *corev1.Pod, n *framework.NodeInfo) (int64, *framework.Status) {
	return f.p.Score(ctx, s, pod, n)
}
func (f scoreOnly) ScoreExtensions() framework.ScoreExtensions { return f.p.ScoreExtensions() }

// registryOf returns a registry whose factories return the given plugins.
func registryOf(plugins ...framework.Plugin) framework.Registry {
	r := framework.Registry{}
	for _, pl := range plugins {
		r[pl.Name()] = func() (framework.Plugin, error) { return pl, nil }
	}
	return r
}
