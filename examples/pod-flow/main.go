// Command pod-flow creates one pod on a fresh minicp cluster and prints
// every hop of its way, in order, with timestamps: the request through
// authentication, authorization and admission, the etcd write, the watch
// event fanned out to the scheduler, the filter and score results, the
// binding, the watch event to the kubelet, the pause sandbox and its IP,
// the container starting, and the status reported back.
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
	trace := newTracer(podName)
	return cluster.Run(ctx, cluster.Options{Nodes: 2, Logger: trace.logger()}, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		return createAndTrace(ctx, c, cs, trace, out)
	})
}

// createAndTrace creates the pod once the cluster is idle and prints its
// journey once it runs.
func createAndTrace(ctx context.Context, c *cluster.Cluster, cs *client.Clientset, trace *tracer, out io.Writer) error {
	if err := c.WaitIdle(ctx); err != nil {
		return err
	}

	trace.start()
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
	if err := c.WaitIdle(ctx); err != nil {
		return err
	}
	trace.print(out)
	return nil
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
