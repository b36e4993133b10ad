// Command job-flow plays the seven steps of the Job flow on a fresh
// minicp cluster and prints them, in causal order, for two Jobs:
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
// "fails" runs `echo oops; exit 3` with backoffLimit 2, so its pod is
// retried twice, after the controller's backoff of 10 and then 20
// seconds, and the Job fails with BackoffLimitExceeded.
//
// Every step is read from the cluster's traces (package tracing): the
// Job's create request, and everything it caused, linked through the
// watch events of each write: the job controller's reconcile and the pod
// it creates, the scheduler's binding, the kubelet's sync, the status
// writes, and the reconcile that ran because a backoff had passed, linked
// to the one that decided to wait. What each write wrote (an exit code,
// a condition) is the object at the revision its etcd transaction made.
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

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/tracing"
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
	vt := newVirtualTime(clk)
	tr := tracing.New(tracing.Options{Processors: []sdktrace.SpanProcessor{vt}})
	defer tr.Shutdown(context.WithoutCancel(ctx))
	// The flow never reaches a Service or a pod's address, so the cluster
	// leaves the host's Service network alone: the example runs beside a
	// `minicp up`, which holds it.
	opts := cluster.Options{Nodes: 2, Clock: clk, Tracing: tr, DisableServiceNetwork: true}
	return cluster.Run(ctx, opts, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		return runJobs(ctx, c, cs, clk, &printer{out: out, vt: vt, rec: tr.Recorder()})
	})
}

// runJobs creates the two Jobs on the idle cluster, steps the virtual
// clock until both have finished, and prints their steps.
func runJobs(ctx context.Context, c *cluster.Cluster, cs *client.Clientset, clk *clocktest.Fake, p *printer) error {
	if err := c.WaitIdle(ctx); err != nil {
		return err
	}
	writes, err := flowtrace.Watch(ctx,
		func(ctx context.Context) (watch.Interface, error) {
			return cs.Jobs("default").Watch(ctx, client.ListOptions{})
		},
		func(ctx context.Context) (watch.Interface, error) {
			return cs.Pods("default").Watch(ctx, client.ListOptions{})
		},
	)
	if err != nil {
		return err
	}
	defer writes.Stop()
	p.writes = writes

	jobs := []*batchv1.Job{
		newJob("succeeds", "echo working; sleep 5; echo done", 6),
		newJob("fails", "echo oops; exit 3", 2),
	}
	for _, job := range jobs {
		if _, err := cs.Jobs("default").Create(ctx, job, client.WriteOptions{}); err != nil {
			return fmt.Errorf("create job %s: %w", job.Name, err)
		}
	}

	// Let virtual time pass only while nothing is left to do now, so
	// every step happens at the virtual time it would have happened at:
	// WaitIdle returns once every change written has reached every
	// component and all of them are idle.
	p.start = clk.Now()
	for {
		if err := c.WaitIdle(ctx); err != nil {
			return err
		}
		done, err := finished(ctx, cs)
		if err != nil {
			return err
		}
		if done == len(jobs) {
			break
		}
		if clk.Since(p.start) > maxVirtualTime {
			return fmt.Errorf("jobs not finished after %v of virtual time", maxVirtualTime)
		}
		clk.Step(time.Second)
	}
	for _, job := range jobs {
		if err := p.print(ctx, job); err != nil {
			return err
		}
	}
	return nil
}

// finished counts the Jobs with a Complete or Failed condition.
func finished(ctx context.Context, cs *client.Clientset) (int, error) {
	list, err := cs.Jobs("default").List(ctx, client.ListOptions{})
	if err != nil {
		return 0, fmt.Errorf("list jobs: %w", err)
	}
	n := 0
	for i := range list.Items {
		if _, ok := finalCondition(&list.Items[i]); ok {
			n++
		}
	}
	return n, nil
}

// finalCondition returns the Job's Complete or Failed condition, once
// true.
func finalCondition(job *batchv1.Job) (batchv1.JobCondition, bool) {
	for _, c := range job.Status.Conditions {
		if c.Status == corev1.ConditionTrue && (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) {
			return c, true
		}
	}
	return batchv1.JobCondition{}, false
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
