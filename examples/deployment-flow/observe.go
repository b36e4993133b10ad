package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"sync"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// line is one thing a controller did, seen on a watch.
type line struct {
	// rev is the etcd revision of the change: lines from the three watches
	// are printed in its order, which is the order they happened in.
	rev  int64
	text string
}

// observer watches the Deployment, its ReplicaSets and their pods, prints
// what changed section by section, and keeps the rollout's extremes.
type observer struct {
	out    io.Writer
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	// mu guards the fields below.
	mu      sync.Mutex
	pending []line
	changed wait.Broadcast // notified at every change
	deploy  *appsv1.Deployment
	gone    bool // the Deployment was deleted
	// pods are the live pods by name; rsReplicas the ReplicaSets' sizes.
	pods       map[string]*corev1.Pod
	rsReplicas map[string]int32
	// deleted lists the kinds deleted, in revision order of deletion.
	deleted []deletion
	// peakPods and lowReady are the most non-terminating pods and the
	// fewest ready ones seen during the current section.
	peakPods, lowReady int
}

// deletion is one object deleted, for the cascade's order.
type deletion struct {
	rev  int64
	kind string
}

// observe starts watching the default namespace.
func observe(ctx context.Context, cs *client.Clientset, out io.Writer) (*observer, error) {
	ctx, cancel := context.WithCancel(ctx)
	var ws []watch.Interface
	for _, start := range []func() (watch.Interface, error){
		func() (watch.Interface, error) { return cs.Deployments("default").Watch(ctx, client.ListOptions{}) },
		func() (watch.Interface, error) { return cs.ReplicaSets("default").Watch(ctx, client.ListOptions{}) },
		func() (watch.Interface, error) { return cs.Pods("default").Watch(ctx, client.ListOptions{}) },
	} {
		w, err := start()
		if err != nil {
			for _, w := range ws {
				w.Stop()
			}
			cancel()
			return nil, err
		}
		ws = append(ws, w)
	}
	o := &observer{
		out: out, cancel: cancel,
		pods: map[string]*corev1.Pod{}, rsReplicas: map[string]int32{},
	}
	o.wg.Go(func() { o.loop(ctx, ws[0], ws[1], ws[2]) })
	return o, nil
}

// stop ends the watches, waits for the observer and prints what is left.
func (o *observer) stop() {
	o.once.Do(func() {
		o.cancel()
		o.wg.Wait()
		o.flush()
	})
}

func (o *observer) loop(ctx context.Context, deploys, sets, pods watch.Interface) {
	defer deploys.Stop()
	defer sets.Stop()
	defer pods.Stop()
	for {
		var ev watch.Event
		var ok bool
		select {
		case ev, ok = <-deploys.ResultChan():
		case ev, ok = <-sets.ResultChan():
		case ev, ok = <-pods.ResultChan():
		case <-ctx.Done():
			return
		}
		if !ok {
			return
		}
		o.mu.Lock()
		switch obj := ev.Object.(type) {
		case *appsv1.Deployment:
			o.deployment(ev.Type, obj)
		case *appsv1.ReplicaSet:
			o.replicaSet(ev.Type, obj)
		case *corev1.Pod:
			o.pod(ev.Type, obj)
		}
		o.trackRollout()
		o.changed.Notify()
		o.mu.Unlock()
	}
}

func (o *observer) deployment(typ watch.EventType, d *appsv1.Deployment) {
	rev := revision(d.ResourceVersion)
	prev := o.deploy
	o.deploy = d
	switch {
	case typ == watch.Deleted:
		o.gone = true
		o.deleted = append(o.deleted, deletion{rev, "Deployment"})
		o.add(rev, "deployment %s deleted: its finalizer removed once nothing it owns remains", d.Name)
	case d.DeletionTimestamp != nil && (prev == nil || prev.DeletionTimestamp == nil):
		o.add(rev, "deployment %s: deletionTimestamp set, finalizers %v; it stays until its dependents are gone", d.Name, d.Finalizers)
	case prev == nil || d.Status.ObservedGeneration != prev.Status.ObservedGeneration ||
		d.Status.UpdatedReplicas != prev.Status.UpdatedReplicas || d.Status.AvailableReplicas != prev.Status.AvailableReplicas:
		// The controller sets the revision annotation at its first sync:
		// the Deployment as created has none.
		revision := "no revision yet (the controller has not synced it)"
		if r := d.Annotations["deployment.kubernetes.io/revision"]; r != "" {
			revision = "revision " + r
		}
		o.add(rev, "deployment %s: generation %d observed %d, %d updated, %d available, %s",
			d.Name, d.Generation, d.Status.ObservedGeneration, d.Status.UpdatedReplicas, d.Status.AvailableReplicas, revision)
	}
}

func (o *observer) replicaSet(typ watch.EventType, rs *appsv1.ReplicaSet) {
	rev := revision(rs.ResourceVersion)
	want := int32(0)
	if rs.Spec.Replicas != nil {
		want = *rs.Spec.Replicas
	}
	had, seen := o.rsReplicas[rs.Name]
	switch {
	case typ == watch.Deleted:
		delete(o.rsReplicas, rs.Name)
		o.deleted = append(o.deleted, deletion{rev, "ReplicaSet"})
		o.add(rev, "replicaset %s deleted by the garbage collector", rs.Name)
		return
	case !seen:
		o.add(rev, "replicaset %s created by the deployment controller: revision %s, %d replicas",
			rs.Name, rs.Annotations["deployment.kubernetes.io/revision"], want)
	case had != want:
		o.add(rev, "replicaset %s scaled %d → %d by the deployment controller", rs.Name, had, want)
	}
	o.rsReplicas[rs.Name] = want
}

func (o *observer) pod(typ watch.EventType, p *corev1.Pod) {
	rev := revision(p.ResourceVersion)
	prev, seen := o.pods[p.Name]
	owner := "?"
	if ref := p.ControllerRef(); ref != nil {
		owner = ref.Name
	}
	switch {
	case typ == watch.Deleted:
		delete(o.pods, p.Name)
		o.deleted = append(o.deleted, deletion{rev, "Pod"})
		o.add(rev, "pod %s deleted", p.Name)
		return
	case !seen:
		o.add(rev, "pod %s created by replicaset %s", p.Name, owner)
	case p.DeletionTimestamp != nil && prev.DeletionTimestamp == nil:
		o.add(rev, "pod %s terminating (replicaset %s)", p.Name, owner)
	case ready(p) && !ready(prev):
		o.add(rev, "pod %s ready on %s", p.Name, p.Spec.NodeName)
	}
	o.pods[p.Name] = p
}

// trackRollout updates the section's extremes.
func (o *observer) trackRollout() {
	live, readyPods := 0, 0
	for _, p := range o.pods {
		if p.DeletionTimestamp != nil {
			continue
		}
		live++
		if ready(p) {
			readyPods++
		}
	}
	o.peakPods = max(o.peakPods, live)
	o.lowReady = min(o.lowReady, readyPods)
}

func ready(p *corev1.Pod) bool {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// add queues a line; the caller holds mu.
func (o *observer) add(rev int64, format string, args ...any) {
	o.pending = append(o.pending, line{rev: rev, text: fmt.Sprintf(format, args...)})
}

// section prints what the last section did and starts another.
func (o *observer) section(title string) {
	o.flush()
	o.mu.Lock()
	o.peakPods, o.lowReady = 0, len(o.pods)
	o.deleted = nil
	o.mu.Unlock()
	fmt.Fprintf(o.out, "\n%s\n", title)
}

// flush prints the queued lines in revision order.
func (o *observer) flush() {
	o.mu.Lock()
	lines := o.pending
	o.pending = nil
	o.mu.Unlock()
	slices.SortStableFunc(lines, func(a, b line) int { return int(a.rev - b.rev) })
	for _, l := range lines {
		fmt.Fprintf(o.out, "  rv %-6d %s\n", l.rev, l.text)
	}
}

// waitRolledOut blocks until the Deployment's controller has observed
// generation (the one the last write returned: the watch may not have
// shown it yet) and it runs n updated, available pods and no others, as
// `kubectl rollout status` waits.
func (o *observer) waitRolledOut(ctx context.Context, generation int64, n int32) error {
	return o.waitFor(ctx, func() bool {
		d := o.deploy
		// The Deployment's status counts no terminating pod, so an old
		// pod may still be shutting down when it says rolled out: wait
		// for exactly n pods, so the next act starts from a quiet state
		// and its lines (the deletion order above all) do not depend on
		// how fast a kubelet finished the old pods.
		return d != nil && d.Status.ObservedGeneration >= generation && d.Status.ObservedGeneration >= d.Generation &&
			d.Status.UpdatedReplicas == n && d.Status.AvailableReplicas == n && d.Status.Replicas == n &&
			len(o.pods) == int(n)
	})
}

// waitDeploymentGone blocks until the Deployment's deletion is seen.
func (o *observer) waitDeploymentGone(ctx context.Context) error {
	return o.waitFor(ctx, func() bool { return o.gone })
}

// waitFor blocks until cond, called with mu held, holds.
func (o *observer) waitFor(ctx context.Context, cond func() bool) error {
	for {
		o.mu.Lock()
		ok, changed := cond(), o.changed.Wait()
		o.mu.Unlock()
		if ok {
			return nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return fmt.Errorf("waiting for deployment %s: %w", name, ctx.Err())
		}
	}
}

// extremes returns the section's most live pods and fewest ready ones.
func (o *observer) extremes() (peakPods, lowReady int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.peakPods, o.lowReady
}

// deletionOrder returns the kinds deleted in the section, in revision
// order, runs of one kind folded: "Pod×5".
func (o *observer) deletionOrder() []string {
	o.mu.Lock()
	dels := slices.Clone(o.deleted)
	o.mu.Unlock()
	slices.SortStableFunc(dels, func(a, b deletion) int { return int(a.rev - b.rev) })
	var runs []string
	for i := 0; i < len(dels); {
		j := i
		for j < len(dels) && dels[j].kind == dels[i].kind {
			j++
		}
		runs = append(runs, fmt.Sprintf("%s×%d", dels[i].kind, j-i))
		i = j
	}
	return runs
}

// revision parses a resourceVersion, which is an etcd revision here.
func revision(rv string) int64 {
	n, _ := strconv.ParseInt(rv, 10, 64)
	return n
}
