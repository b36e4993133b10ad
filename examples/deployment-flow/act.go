package main

import (
	"context"
	"fmt"
	"strconv"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/tracing"
)

// act is one act of the flow once played: its request and the revisions
// it spans.
type act struct {
	request sdktrace.ReadOnlySpan
	// fromRev is the revision the request wrote; toRev the cluster's
	// revision once the act was over.
	fromRev, toRev int64
}

// playAct prints title, plays do (one request: verb on the Deployment),
// waits until the Deployment runs n pods (or is gone, for n = 0) and the
// cluster is idle, and prints the trace of the request.
func (p *player) playAct(ctx context.Context, title, verb string, n int32, do func() error) (act, error) {
	fmt.Fprintf(p.out, "\n%s\n", title)
	if err := do(); err != nil {
		return act{}, fmt.Errorf("%s: %w", verb, err)
	}
	toRev, err := p.waitSettled(ctx, n)
	if err != nil {
		return act{}, err
	}
	req, ok := flowtrace.LastRequest(p.rec.Spans(), verb, "deployments", "default", name)
	if !ok {
		return act{}, fmt.Errorf("no trace of the %s of deployment %s", verb, name)
	}
	t := flowtrace.New(p.rec.Spans(), req)
	a := act{request: req, toRev: toRev}
	if w, ok := t.WriteOf(req); ok {
		a.fromRev = w.Rev
	}
	if n := p.rec.Dropped(); n > 0 {
		// A trace with holes would print effects without their causes.
		return act{}, fmt.Errorf("the recorder dropped %d spans: raise tracing.Options.Capacity", n)
	}
	return a, p.printTrace(ctx, t)
}

// waitSettled blocks until the Deployment runs n updated, available pods
// and no others (as `kubectl rollout status` waits), or is gone for
// n = 0, and the cluster is idle; it returns the cluster's revision then.
// Waiting for exactly n pods, terminating ones included, lets the next
// act start from a quiet state, so its lines (the deletion order above
// all) do not depend on how fast a kubelet finished the old pods.
func (p *player) waitSettled(ctx context.Context, n int32) (int64, error) {
	for {
		changed := p.writes.Changed()
		if err := p.c.WaitIdle(ctx); err != nil {
			return 0, err
		}
		done, rev, err := p.settled(ctx, n)
		if err != nil || done {
			return rev, err
		}
		// Idle but not there yet: something waits for time to pass (a
		// pod's grace period); the next write will say.
		select {
		case <-changed:
		case <-ctx.Done():
			return 0, fmt.Errorf("waiting for deployment %s: %w", name, ctx.Err())
		}
	}
}

// settled reports whether the Deployment is as waitSettled waits for,
// and the revision it read that at.
func (p *player) settled(ctx context.Context, n int32) (bool, int64, error) {
	pods, err := p.cs.Pods("default").List(ctx, client.ListOptions{})
	if err != nil {
		return false, 0, fmt.Errorf("list pods: %w", err)
	}
	rev, _ := strconv.ParseInt(pods.ResourceVersion, 10, 64)
	d, err := p.cs.Deployments("default").Get(ctx, name, client.GetOptions{})
	switch {
	case apierrors.IsNotFound(err):
		return n == 0, rev, nil
	case err != nil:
		return false, 0, fmt.Errorf("get deployment: %w", err)
	}
	s := d.Status
	return n > 0 && s.ObservedGeneration >= d.Generation && s.UpdatedReplicas == n && s.AvailableReplicas == n &&
		s.Replicas == n && len(pods.Items) == int(n), rev, nil
}

// printTrace prints the writes and hops of t, one line each, in causal
// order.
func (p *player) printTrace(ctx context.Context, t *flowtrace.Trace) error {
	for _, step := range t.Steps {
		s := step.Span
		switch s.Name() {
		case tracing.HopRuntimeContainer:
			sync := t.Parent(s)
			p.line(0, flowtrace.Component(s), "starts container %s of pod %s", flowtrace.Attr(s, "container"), flowtrace.Attr(sync, "name"))
		case tracing.HopRequest:
			w, ok := t.WriteOf(s)
			if !ok {
				continue
			}
			text, err := p.describe(ctx, w)
			if err != nil {
				return err
			}
			if text != "" {
				p.line(w.Rev, writer(t, w), "%s", text)
			}
		}
	}
	return nil
}

// line prints one line: the revision a write made (blank for a hop that
// wrote nothing), who did it, and what.
func (p *player) line(rev int64, who, format string, args ...any) {
	r := ""
	if rev > 0 {
		r = strconv.FormatInt(rev, 10)
	}
	fmt.Fprintf(p.out, "  rv %-5s %-32s %s\n", r, who, fmt.Sprintf(format, args...))
}

// writer names who made write w: the component whose span the request
// is a child of (a controller's reconcile, the scheduler's binding, a
// kubelet's sync), else the request's user.
func writer(t *flowtrace.Trace, w flowtrace.Write) string {
	if parent := t.Parent(w.Request); parent != nil {
		return flowtrace.Component(parent)
	}
	if a := t.Child(w.Request, tracing.HopAuthn); a != nil {
		return flowtrace.Attr(a, "user")
	}
	return "?"
}
