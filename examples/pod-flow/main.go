// Command pod-flow creates one pod on a fresh minicp cluster and prints
// every hop of its way in causal order, with timestamps: the request
// through authentication, authorization, admission and validation, the
// etcd write, the watch event fanned out to the scheduler's informer, the
// filter and score results per node, the binding (a request of its own),
// the kubelet's sync, the pause sandbox and its IP, the container
// starting, and the status reported back. Each line is indented by how
// many causes separate it from the create.
//
// It is the pod creation flow (what happens between `kubectl run` and a
// running container) played live. Run it with:
//
//	go run ./examples/pod-flow
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/tracing"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "pod-flow:", err)
		os.Exit(1)
	}
}

// podName is the pod the example follows.
const podName = "hello"

func run(ctx context.Context, out io.Writer) error {
	tr := tracing.New(tracing.Options{})
	defer tr.Shutdown(context.WithoutCancel(ctx))
	// The flow never reaches a Service or a pod's address, so the cluster
	// leaves the host's Service network alone: the example runs beside a
	// `minicp up`, which holds it.
	opts := cluster.Options{Nodes: 2, Tracing: tr, DisableServiceNetwork: true}
	return cluster.Run(ctx, opts, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		return createAndTrace(ctx, c, cs, tr, out)
	})
}

// createAndTrace creates the pod once the cluster is idle and prints its
// journey once it runs.
func createAndTrace(ctx context.Context, c *cluster.Cluster, cs *client.Clientset, tr *tracing.Tracing, out io.Writer) error {
	if err := c.WaitIdle(ctx); err != nil {
		return err
	}

	pods := cs.Pods("default")
	_, err := pods.Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: podName},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "main", Image: "busybox", Command: []string{"sh", "-c", "echo hello from minicp; sleep 3600"},
		}}},
	}, client.WriteOptions{})
	if err != nil {
		return fmt.Errorf("create pod: %w", err)
	}
	if err := waitRunning(ctx, pods); err != nil {
		return err
	}
	// Idle, the kubelet has finished the sync that started the
	// container, so its span has ended and the timeline is whole.
	if err := c.WaitIdle(ctx); err != nil {
		return err
	}
	spans := tr.Recorder().Spans()
	create, ok := tracing.FindRequest(spans, "create", "pods", "default", podName)
	if !ok {
		return fmt.Errorf("no trace of the create of pod %s", podName)
	}
	fmt.Fprintf(out, "the journey of pod %q\n\n", podName)
	return tracing.Print(out, tracing.Timeline(spans, create.SpanContext().SpanID()))
}

// waitRunning watches the pod until its phase is Running.
func waitRunning(ctx context.Context, pods *client.PodClient) error {
	w, err := pods.Watch(ctx, client.ListOptions{ResourceVersion: "0", FieldSelector: "metadata.name=" + podName})
	if err != nil {
		return err
	}
	defer w.Stop()
	for {
		select {
		case ev, ok := <-w.ResultChan():
			if !ok {
				return fmt.Errorf("watch ended before %s was Running", podName)
			}
			if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == corev1.PodRunning {
				return nil
			}
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}
