package main

import (
	"context"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// line is one change seen on a watch.
type line struct {
	// rev is the etcd revision of the change: lines seen on different
	// watches are printed in its order, the order they happened in.
	rev  int64
	text string
}

// observer watches the Databases of the namespace, their children (by
// the label the operator puts on them), their ReplicaSets and pods, and
// the operator's cleanup events, and turns the changes into lines that
// each section of the flow prints.
type observer struct {
	out    io.Writer
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	// mu guards the fields below.
	mu      sync.Mutex
	pending []line
	changed wait.Broadcast // notified at every change
	// The latest state of each object by name; deleted objects are
	// removed.
	databases   map[string]*Database
	deployments map[string]*appsv1.Deployment
	services    map[string]*corev1.Service
	secrets     map[string]*corev1.Secret
	replicaSets map[string]*appsv1.ReplicaSet
	pods        map[string]*corev1.Pod
	// deleted lists the kinds deleted in the section, with their
	// revisions.
	deleted []line
	// cleanedUp holds the Databases whose cleanup event was seen.
	cleanedUp map[string]bool
}

// childSelector selects what the operator created, and the ReplicaSets
// and pods of its Deployments, which carry the pod template's labels.
const childSelector = "databases.example.com/name"

// observe starts the watches in namespace ns.
func observe(ctx context.Context, cl *client.Client, cs *client.Clientset, ns string, out io.Writer) (*observer, error) {
	databases, err := client.NewResource[*Database, *DatabaseList](cl, databasesGVR)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	children := client.ListOptions{LabelSelector: childSelector}
	var ws []watch.Interface
	for _, start := range []func() (watch.Interface, error){
		func() (watch.Interface, error) { return databases.Namespace(ns).Watch(ctx, client.ListOptions{}) },
		func() (watch.Interface, error) { return cs.Deployments(ns).Watch(ctx, children) },
		func() (watch.Interface, error) { return cs.Services(ns).Watch(ctx, children) },
		func() (watch.Interface, error) { return cs.Secrets(ns).Watch(ctx, children) },
		func() (watch.Interface, error) { return cs.ReplicaSets(ns).Watch(ctx, children) },
		func() (watch.Interface, error) { return cs.Pods(ns).Watch(ctx, children) },
		func() (watch.Interface, error) { return cs.Events(ns).Watch(ctx, client.ListOptions{}) },
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
		databases: map[string]*Database{}, deployments: map[string]*appsv1.Deployment{},
		services: map[string]*corev1.Service{}, secrets: map[string]*corev1.Secret{},
		replicaSets: map[string]*appsv1.ReplicaSet{}, pods: map[string]*corev1.Pod{},
		cleanedUp: map[string]bool{},
	}
	for _, w := range ws {
		o.wg.Go(func() { o.loop(ctx, w) })
	}
	return o, nil
}

// stop ends the watches, waits for the observer's goroutines and prints
// what is left.
func (o *observer) stop() {
	o.once.Do(func() {
		o.cancel()
		o.wg.Wait()
		o.flush()
	})
}

func (o *observer) loop(ctx context.Context, w watch.Interface) {
	defer w.Stop()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return
			}
			o.mu.Lock()
			switch obj := ev.Object.(type) {
			case *Database:
				o.database(ev.Type, obj)
			case *appsv1.Deployment:
				o.deployment(ev.Type, obj)
			case *corev1.Service:
				o.service(ev.Type, obj)
			case *corev1.Secret:
				o.secret(ev.Type, obj)
			case *appsv1.ReplicaSet:
				o.replicaSet(ev.Type, obj)
			case *corev1.Pod:
				o.pod(ev.Type, obj)
			case *corev1.Event:
				o.event(ev.Type, obj)
			}
			o.changed.Notify()
			o.mu.Unlock()
		case <-ctx.Done():
			return
		}
	}
}

// The handlers below run with mu held.

func (o *observer) database(typ watch.EventType, db *Database) {
	rev := revision(db.ResourceVersion)
	prev, seen := o.databases[db.Name]
	if typ == watch.Deleted {
		delete(o.databases, db.Name)
		o.deletedKind(rev, "Database")
		o.add(rev, "database %s deleted by the API server: no finalizer left", db.Name)
		return
	}
	o.databases[db.Name] = db
	hasFinalizer := slices.Contains(db.Finalizers, finalizer)
	switch {
	case !seen:
		o.add(rev, "database %s stored: %s %s, %d replicas of %s", db.Name, db.Spec.Engine, db.Spec.Version, db.Spec.Replicas, db.Spec.Storage)
	case db.DeletionTimestamp != nil && prev.DeletionTimestamp == nil:
		o.add(rev, "database %s: deletionTimestamp set; finalizers %v keep it until the operator has cleaned up", db.Name, db.Finalizers)
	case db.DeletionTimestamp != nil && !hasFinalizer && slices.Contains(prev.Finalizers, finalizer):
		o.add(rev, "database %s: the operator removed its finalizer", db.Name)
	case hasFinalizer && !slices.Contains(prev.Finalizers, finalizer):
		o.add(rev, "database %s: the operator added the finalizer %s", db.Name, finalizer)
	case db.Generation != prev.Generation:
		o.add(rev, "database %s: generation %d, spec.replicas %d", db.Name, db.Generation, db.Spec.Replicas)
	}
	if seen && statusLine(db.Status) != statusLine(prev.Status) {
		o.add(rev, "database %s status: %s", db.Name, statusLine(db.Status))
	}
}

// statusLine is what a status says, for the flow.
func statusLine(s DatabaseStatus) string {
	if s.Phase == "" {
		return ""
	}
	text := fmt.Sprintf("phase %s, readyReplicas %d, endpoint %s", s.Phase, s.ReadyReplicas, s.Endpoint)
	for _, c := range s.Conditions {
		text += fmt.Sprintf(", %s=%s (%s: %s)", c.Type, c.Status, c.Reason, c.Message)
	}
	return text
}

func (o *observer) deployment(typ watch.EventType, d *appsv1.Deployment) {
	rev := revision(d.ResourceVersion)
	prev, seen := o.deployments[d.Name]
	if typ == watch.Deleted {
		delete(o.deployments, d.Name)
		o.deletedKind(rev, "Deployment")
		o.add(rev, "deployment %s deleted by the garbage collector: its owner is gone", d.Name)
		return
	}
	o.deployments[d.Name] = d
	switch {
	case !seen:
		o.add(rev, "deployment %s created by the operator: %d replicas of %s, controlled by %s",
			d.Name, replicas(d.Spec.Replicas), image(d.Spec.Template.Spec), controller(d.OwnerReferences))
	case replicas(d.Spec.Replicas) != replicas(prev.Spec.Replicas):
		o.add(rev, "deployment %s scaled %d → %d by the operator", d.Name, replicas(prev.Spec.Replicas), replicas(d.Spec.Replicas))
	case d.Status.ReadyReplicas != prev.Status.ReadyReplicas && d.DeletionTimestamp == nil:
		o.add(rev, "deployment %s: %d/%d replicas ready", d.Name, d.Status.ReadyReplicas, replicas(d.Spec.Replicas))
	}
}

func (o *observer) service(typ watch.EventType, s *corev1.Service) {
	rev := revision(s.ResourceVersion)
	_, seen := o.services[s.Name]
	if typ == watch.Deleted {
		delete(o.services, s.Name)
		o.deletedKind(rev, "Service")
		o.add(rev, "service %s deleted by the garbage collector: its owner is gone", s.Name)
		return
	}
	o.services[s.Name] = s
	if !seen {
		var ports []string
		for _, p := range s.Spec.Ports {
			ports = append(ports, fmt.Sprintf("%d→%s", p.Port, p.TargetPort.String()))
		}
		o.add(rev, "service %s created by the operator: cluster IP %s, port %s, selecting %s, controlled by %s",
			s.Name, s.Spec.ClusterIP, strings.Join(ports, ","), selector(s.Spec.Selector), controller(s.OwnerReferences))
	}
}

func (o *observer) secret(typ watch.EventType, s *corev1.Secret) {
	rev := revision(s.ResourceVersion)
	_, seen := o.secrets[s.Name]
	if typ == watch.Deleted {
		delete(o.secrets, s.Name)
		o.deletedKind(rev, "Secret")
		o.add(rev, "secret %s deleted by the operator's cleanup", s.Name)
		return
	}
	o.secrets[s.Name] = s
	if !seen {
		o.add(rev, "secret %s created by the operator: %s, keys %v, controlled by %s",
			s.Name, s.Type, slices.Sorted(maps.Keys(s.Data)), controller(s.OwnerReferences))
	}
}

func (o *observer) replicaSet(typ watch.EventType, rs *appsv1.ReplicaSet) {
	rev := revision(rs.ResourceVersion)
	_, seen := o.replicaSets[rs.Name]
	if typ == watch.Deleted {
		delete(o.replicaSets, rs.Name)
		o.deletedKind(rev, "ReplicaSet")
		return
	}
	o.replicaSets[rs.Name] = rs
	if !seen {
		o.add(rev, "replicaset %s created by the deployment controller", rs.Name)
	}
}

func (o *observer) pod(typ watch.EventType, p *corev1.Pod) {
	rev := revision(p.ResourceVersion)
	prev, seen := o.pods[p.Name]
	if typ == watch.Deleted {
		delete(o.pods, p.Name)
		o.deletedKind(rev, "Pod")
		return
	}
	o.pods[p.Name] = p
	if p.Status.Phase == corev1.PodRunning && (!seen || prev.Status.Phase != corev1.PodRunning) {
		o.add(rev, "pod %s running on %s (image %s)", p.Name, p.Spec.NodeName, image(p.Spec))
	}
}

func (o *observer) event(typ watch.EventType, ev *corev1.Event) {
	// The operator's Created events repeat what the watches show; a
	// repeated event is the same Event with its count bumped (Modified).
	if typ != watch.Added || ev.InvolvedObject.Kind != "Database" || ev.Reason != "CleanedUp" {
		return
	}
	o.cleanedUp[ev.InvolvedObject.Name] = true
	o.add(revision(ev.ResourceVersion), "event %s on database %s: %s", ev.Reason, ev.InvolvedObject.Name, ev.Message)
}

func (o *observer) add(rev int64, format string, args ...any) {
	o.pending = append(o.pending, line{rev: rev, text: fmt.Sprintf(format, args...)})
}

func (o *observer) deletedKind(rev int64, kind string) {
	o.deleted = append(o.deleted, line{rev: rev, text: kind})
}

// section prints what the last section did and starts another.
func (o *observer) section(title string) {
	o.flush()
	o.mu.Lock()
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
		fmt.Fprintf(o.out, "  rv %-5d %s\n", l.rev, l.text)
	}
}

// deletionOrder returns the kinds deleted in the section, in revision
// order, runs of one kind folded: "Pod×3".
func (o *observer) deletionOrder() string {
	o.mu.Lock()
	dels := slices.Clone(o.deleted)
	o.mu.Unlock()
	slices.SortStableFunc(dels, func(a, b line) int { return int(a.rev - b.rev) })
	var runs []string
	for i := 0; i < len(dels); {
		j := i
		for j < len(dels) && dels[j].text == dels[i].text {
			j++
		}
		runs = append(runs, fmt.Sprintf("%s×%d", dels[i].text, j-i))
		i = j
	}
	return strings.Join(runs, ", ")
}

// waitFor blocks until cond, called with mu held, holds, or ctx ends.
func (o *observer) waitFor(ctx context.Context, what string, cond func() bool) error {
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
			return fmt.Errorf("waiting for %s: %w", what, ctx.Err())
		}
	}
}

// waitReady waits until the operator reports database name Ready with
// replicas ready replicas, for generation or a later one, and the watches
// of the Deployment and its pods have caught up with it, so that the
// section's lines are all there to print.
func (o *observer) waitReady(ctx context.Context, name string, generation int64, replicas int32) error {
	return o.waitFor(ctx, "database "+name+" to be ready", func() bool {
		db, d := o.databases[name], o.deployments[name]
		running := 0
		for _, p := range o.pods {
			if p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
				running++
			}
		}
		return db != nil && db.Status.ObservedGeneration >= generation &&
			db.Status.Phase == PhaseReady && db.Status.ReadyReplicas == replicas &&
			d != nil && d.Status.ReadyReplicas == replicas && running == int(replicas)
	})
}

// waitGone waits until database name and everything it owned are gone,
// and its cleanup event has been seen.
func (o *observer) waitGone(ctx context.Context, name string) error {
	return o.waitFor(ctx, "database "+name+" and its children to be deleted", func() bool {
		return o.cleanedUp[name] &&
			len(o.databases)+len(o.deployments)+len(o.services)+len(o.secrets)+len(o.replicaSets)+len(o.pods) == 0
	})
}

func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// image is the image of a pod's first container.
func image(spec corev1.PodSpec) string {
	if len(spec.Containers) == 0 {
		return ""
	}
	return spec.Containers[0].Image
}

// controller names the controller among refs, "Kind/name".
func controller(refs []metav1.OwnerReference) string {
	for _, r := range refs {
		if r.Controller != nil && *r.Controller {
			return r.Kind + "/" + r.Name
		}
	}
	return "nobody"
}

func selector(labels map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		parts = append(parts, k+"="+labels[k])
	}
	return strings.Join(parts, ",")
}

// revision parses a resourceVersion, which is an etcd revision here.
func revision(rv string) int64 {
	n, _ := strconv.ParseInt(rv, 10, 64)
	return n
}
