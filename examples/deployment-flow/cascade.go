package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"go.opentelemetry.io/otel/trace"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/tracing"
)

// extremes replays the pods' versions up to the end of a: the most live
// (not terminating) pods and the fewest ready ones at any revision within
// a.
func extremes(writes *flowtrace.Writes, a act) (peakPods, lowReady int) {
	pods := map[string]*corev1.Pod{}
	lowReady = -1
	for _, v := range writes.Between(0, a.toRev) {
		pod, ok := v.Object.(*corev1.Pod)
		if !ok {
			continue
		}
		if v.Type == watch.Deleted {
			delete(pods, pod.Name)
		} else {
			pods[pod.Name] = pod
		}
		if v.Rev < a.fromRev {
			continue
		}
		live, readyPods := 0, 0
		for _, p := range pods {
			if p.DeletionTimestamp == nil {
				live++
				if ready(p) {
					readyPods++
				}
			}
		}
		peakPods = max(peakPods, live)
		if lowReady < 0 || readyPods < lowReady {
			lowReady = readyPods
		}
	}
	return peakPods, max(lowReady, 0)
}

// printDeletions prints the foreground cascade of act a as the etcd
// transactions that deleted each object, in revision order: the garbage
// collector's reconciles are traces of their own (it queues objects from
// its graph, not from one write's event), so the order is read from
// every trace recorded during the act.
func (p *player) printDeletions(ctx context.Context, a act) error {
	type deletion struct {
		rev  int64
		kind string
		who  string
		what string
	}
	spans := p.rec.Spans()
	// user[r] is who made request r: its authn hop says.
	user := map[trace.SpanID]string{}
	for _, s := range spans {
		if s.Name() == tracing.HopAuthn {
			user[s.Parent().SpanID()] = flowtrace.Attr(s, string(tracing.KeyUser))
		}
	}
	var dels []deletion
	for _, s := range spans {
		if s.Name() != tracing.HopEtcdTxn || flowtrace.Attr(s, string(tracing.KeyVerb)) != "delete" {
			continue
		}
		rev := flowtrace.Committed(s)
		if rev <= a.fromRev || rev > a.toRev {
			continue
		}
		v, err := p.writes.At(ctx, rev)
		if err != nil {
			return err
		}
		d := deletion{rev: rev, who: component(user[s.Parent().SpanID()])}
		switch obj := v.Object.(type) {
		case *corev1.Pod:
			d.kind, d.what = "Pod", "pod "+obj.Name
		case *appsv1.ReplicaSet:
			d.kind, d.what = "ReplicaSet", "replicaset "+obj.Name
		case *appsv1.Deployment:
			d.kind, d.what = "Deployment", "deployment "+obj.Name
		default:
			continue
		}
		dels = append(dels, d)
	}
	slices.SortFunc(dels, func(a, b deletion) int { return int(a.rev - b.rev) })
	fmt.Fprintln(p.out, "  the cascade, from the etcd transactions that removed each object:")
	for _, d := range dels {
		p.line(d.rev, d.who, "%s removed from etcd", d.what)
	}
	// Fold runs of one kind: "Pod×5".
	var folded []string
	for i := 0; i < len(dels); {
		j := i
		for j < len(dels) && dels[j].kind == dels[i].kind {
			j++
		}
		folded = append(folded, fmt.Sprintf("%s×%d", dels[i].kind, j-i))
		i = j
	}
	fmt.Fprintf(p.out, "  deleted in this order: %s\n", strings.Join(folded, ", "))
	return nil
}

// component names the component a user of the API server is: the
// kubelet of node N, a controller's ServiceAccount.
func component(user string) string {
	if node, ok := strings.CutPrefix(user, "system:node:"); ok {
		return "kubelet/" + node
	}
	if sa, ok := strings.CutPrefix(user, "system:serviceaccount:kube-system:"); ok {
		return sa
	}
	return user
}
