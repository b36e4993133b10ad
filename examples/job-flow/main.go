// Command job-flow plays the seven steps of the Job flow on a fresh
// minicp cluster and prints them, in order, for two Jobs:
//
//  1. a Job is created through the API server,
//  2. and persisted to etcd;
//  3. the job controller creates a pod from the Job's template;
//  4. the scheduler assigns the pod a node;
//  5. that node's kubelet starts it through the CRI;
//  6. the container's exit code is reported in the pod's status;
//  7. the job controller marks the Job complete, or failed once the
//     backoff limit is reached, or starts a new pod (back to step 3).
//
// "succeeds" runs `echo working; sleep 5; echo done` and completes;
// "fails" runs `echo oops; exit 3` with backoffLimit 1, so its pod is
// retried once, after the controller's 10-second backoff, and the Job
// fails with BackoffLimitExceeded.
//
// The cluster runs on a virtual clock that the example steps one second
// at a time whenever the cluster is idle: the sleep and the backoff take
// no real time, and the printed times are the cluster's. Run it with:
//
//	go run ./examples/job-flow
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "job-flow:", err)
		os.Exit(1)
	}
}

// maxVirtualTime bounds the virtual time the example lets pass: the two
// Jobs finish in well under a minute of it.
const maxVirtualTime = 5 * time.Minute

func run(ctx context.Context, out io.Writer) error {
	clk := clocktest.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	return cluster.Run(ctx, cluster.Options{Nodes: 2, Clock: clk}, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		return runJobs(ctx, c, cs, clk, out)
	})
}

// runJobs creates the two Jobs on the idle cluster, steps the virtual
// clock until both have finished, and prints their steps.
func runJobs(ctx context.Context, c *cluster.Cluster, cs *client.Clientset, clk *clocktest.Fake, out io.Writer) error {
	if err := c.WaitIdle(ctx); err != nil {
		return err
	}
	obs, err := observe(ctx, cs, clk)
	if err != nil {
		return err
	}
	defer obs.stop()
	jobs := []*batchv1.Job{
		newJob("succeeds", "echo working; sleep 5; echo done", 6),
		newJob("fails", "echo oops; exit 3", 1),
	}
	for _, job := range jobs {
		created, err := cs.Jobs("default").Create(ctx, job, client.WriteOptions{})
		if err != nil {
			return fmt.Errorf("create job %s: %w", job.Name, err)
		}
		obs.created(created)
	}

	// Let virtual time pass only while nothing is left to do now, so
	// every step happens at the virtual time it would have happened at.
	start := clk.Now()
	for !obs.finished(len(jobs)) {
		if clk.Since(start) > maxVirtualTime {
			return fmt.Errorf("jobs not finished after %v of virtual time", maxVirtualTime)
		}
		if err := c.WaitIdle(ctx); err != nil {
			return err
		}
		if obs.finished(len(jobs)) {
			break
		}
		// Idle cannot see a change still on its way down a watch: a pod
		// the scheduler bound that its kubelet has not received yet.
		// Time must not pass then, or the container would start late.
		waiting, err := boundNotStarted(ctx, cs)
		if err != nil {
			return err
		}
		if waiting {
			obs.waitChange(ctx, time.Second)
			continue
		}
		clk.Step(time.Second)
	}
	obs.stop()
	for _, job := range jobs {
		obs.print(out, job.Name, start)
	}
	return nil
}

// boundNotStarted reports whether a pod is bound to a node whose kubelet
// has not acted on it yet: Pending, with no container status.
func boundNotStarted(ctx context.Context, cs *client.Clientset) (bool, error) {
	pods, err := cs.Pods("default").List(ctx, client.ListOptions{})
	if err != nil {
		return false, fmt.Errorf("list pods: %w", err)
	}
	for _, p := range pods.Items {
		if p.Spec.NodeName != "" && p.DeletionTimestamp == nil && p.Status.Phase == corev1.PodPending &&
			len(p.Status.ContainerStatuses) == 0 {
			return true, nil
		}
	}
	return false, nil
}

// newJob is a one-completion Job running a busybox shell command.
func newJob(name, script string, backoffLimit int32) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: batchv1.JobSpec{
			BackoffLimit: &backoffLimit,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{
					Name: "main", Image: "busybox", Command: []string{"sh", "-c", script},
				}},
			}},
		},
	}
}
