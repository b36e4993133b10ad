package main

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait"
)

// step is one of the Job flow's seven steps, seen happen. Its time is the
// one the cluster wrote into the object (on the cluster's clock), not
// when the watch delivered it.
type step struct {
	// rev is the etcd revision of the change that showed the step: every
	// write has one, in one order, so sorting by it orders steps seen on
	// different watches as they happened.
	rev    int64
	at     time.Time
	number int
	what   string
}

// observer watches Jobs and pods and turns their changes into steps.
type observer struct {
	clock  clock.Clock
	cancel context.CancelFunc
	wg     sync.WaitGroup
	once   sync.Once

	// changed is notified after every event the observer handles.
	changed wait.Broadcast

	// mu guards the fields below.
	mu    sync.Mutex
	steps map[string][]step // by Job name
	pods  map[string]*podSeen
	// failedPods counts each Job's pods seen to fail, to tell a retry.
	failedPods map[string]int
	done       map[string]bool
}

// podSeen is what has been printed about one pod already.
type podSeen struct {
	job                        string
	scheduled, started, exited bool
}

// observe starts watching Jobs and pods in the default namespace.
func observe(ctx context.Context, cs *client.Clientset, clk clock.Clock) (*observer, error) {
	ctx, cancel := context.WithCancel(ctx)
	jobs, err := cs.Jobs("default").Watch(ctx, client.ListOptions{})
	if err != nil {
		cancel()
		return nil, err
	}
	pods, err := cs.Pods("default").Watch(ctx, client.ListOptions{})
	if err != nil {
		jobs.Stop()
		cancel()
		return nil, err
	}
	o := &observer{
		clock: clk, cancel: cancel,
		steps: map[string][]step{}, pods: map[string]*podSeen{},
		failedPods: map[string]int{}, done: map[string]bool{},
	}
	o.wg.Go(func() { o.loop(ctx, jobs, pods) })
	return o, nil
}

// stop ends the watches and waits for the observer's goroutine.
func (o *observer) stop() {
	o.once.Do(func() {
		o.cancel()
		o.wg.Wait()
	})
}

func (o *observer) loop(ctx context.Context, jobs, pods watch.Interface) {
	defer jobs.Stop()
	defer pods.Stop()
	for {
		select {
		case ev, ok := <-jobs.ResultChan():
			if !ok {
				return
			}
			if job, ok := ev.Object.(*batchv1.Job); ok {
				o.job(job)
			}
			o.changed.Notify()
		case ev, ok := <-pods.ResultChan():
			if !ok {
				return
			}
			if pod, ok := ev.Object.(*corev1.Pod); ok {
				o.pod(pod)
			}
			o.changed.Notify()
		case <-ctx.Done():
			return
		}
	}
}

// waitChange blocks until the observer handles its next event, for at
// most d of real time (nothing may be on its way), or ctx ends.
func (o *observer) waitChange(ctx context.Context, d time.Duration) {
	ctx, cancel := context.WithTimeout(ctx, d)
	defer cancel()
	select {
	case <-o.changed.Wait():
	case <-ctx.Done():
	}
}

// created records steps 1 and 2 from the create's response.
func (o *observer) created(job *batchv1.Job) {
	rev, at := revision(job.ResourceVersion), job.CreationTimestamp.Time
	o.add(job.Name, step{rev: rev, at: at, number: 1, what: "POST /apis/batch/v1/namespaces/default/jobs: the API server accepts the Job"})
	o.add(job.Name, step{rev: rev, at: at, number: 2, what: fmt.Sprintf("persisted to etcd at revision %d", rev)})
}

// job records step 7 once the Job has a final condition.
func (o *observer) job(job *batchv1.Job) {
	for _, c := range job.Status.Conditions {
		if c.Status != corev1.ConditionTrue || c.Type != batchv1.JobComplete && c.Type != batchv1.JobFailed {
			continue
		}
		o.mu.Lock()
		seen := o.done[job.Name]
		o.done[job.Name] = true
		o.mu.Unlock()
		if seen {
			return
		}
		what := fmt.Sprintf("job controller marks the Job %s (succeeded=%d failed=%d)", c.Type, job.Status.Succeeded, job.Status.Failed)
		if c.Reason != "" {
			what += ": " + c.Reason
		}
		o.add(job.Name, step{rev: revision(job.ResourceVersion), at: c.LastTransitionTime.Time, number: 7, what: what})
		return
	}
}

// pod records steps 3 to 6 of a Job's pod as they first show.
func (o *observer) pod(pod *corev1.Pod) {
	ref := pod.ControllerRef()
	if ref == nil || ref.Kind != "Job" {
		return
	}
	rev := revision(pod.ResourceVersion)
	o.mu.Lock()
	seen, ok := o.pods[string(pod.UID)]
	if !ok {
		seen = &podSeen{job: ref.Name}
		o.pods[string(pod.UID)] = seen
	}
	retry := o.failedPods[ref.Name]
	o.mu.Unlock()

	if !ok {
		what := "job controller creates pod " + pod.Name + " from the template"
		if retry > 0 {
			what = fmt.Sprintf("job controller starts a new pod %s after %d failed (backoff)", pod.Name, retry)
		}
		o.add(ref.Name, step{rev: rev, at: pod.CreationTimestamp.Time, number: 3, what: what})
	}
	if pod.Spec.NodeName != "" && !seen.scheduled {
		seen.scheduled = true
		o.add(ref.Name, step{rev: rev, at: scheduledAt(pod), number: 4, what: "scheduler binds " + pod.Name + " to " + pod.Spec.NodeName})
	}
	for _, cs := range pod.Status.ContainerStatuses {
		if started, ok := startedAt(cs.State); ok && !seen.started {
			seen.started = true
			// The command says how long the container runs: the time to
			// step 6 is its own (a sleep), not the cluster's.
			what := fmt.Sprintf("kubelet on %s starts container %s through the CRI (image %s)", pod.Spec.NodeName, cs.Name, cs.Image)
			if c := containerNamed(pod, cs.Name); c != nil && len(c.Command) > 0 {
				what += fmt.Sprintf(", running %q", strings.Join(append(slices.Clone(c.Command), c.Args...), " "))
			}
			o.add(ref.Name, step{rev: rev, at: started, number: 5, what: what})
		}
		if t := cs.State.Terminated; t != nil && !seen.exited {
			seen.exited = true
			o.add(ref.Name, step{rev: rev, at: t.FinishedAt.Time, number: 6, what: fmt.Sprintf("kubelet reports exit code %d in the pod's status (phase %s)", t.ExitCode, pod.Status.Phase)})
			if t.ExitCode != 0 {
				o.mu.Lock()
				o.failedPods[ref.Name]++
				o.mu.Unlock()
			}
		}
	}
}

func (o *observer) add(job string, s step) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.steps[job] = append(o.steps[job], s)
}

// finished reports whether n Jobs have reached step 7.
func (o *observer) finished(n int) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.done) >= n
}

// print writes a Job's steps in etcd order with their virtual time since
// start.
func (o *observer) print(out io.Writer, job string, start time.Time) {
	o.mu.Lock()
	steps := slices.Clone(o.steps[job])
	o.mu.Unlock()
	slices.SortStableFunc(steps, func(a, b step) int { return int(a.rev - b.rev) })
	fmt.Fprintf(out, "Job %q\n", job)
	for _, s := range steps {
		fmt.Fprintf(out, "  %7s  step %d  %s\n", fmt.Sprintf("+%.0fs", s.at.Sub(start).Seconds()), s.number, s.what)
	}
	fmt.Fprintln(out)
}

// scheduledAt is when the scheduler bound pod: its PodScheduled
// condition's transition.
func scheduledAt(pod *corev1.Pod) time.Time {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionTrue {
			return c.LastTransitionTime.Time
		}
	}
	return pod.CreationTimestamp.Time
}

// startedAt is when the container in state started, once it has.
func startedAt(state corev1.ContainerState) (time.Time, bool) {
	switch {
	case state.Running != nil:
		return state.Running.StartedAt.Time, true
	case state.Terminated != nil:
		return state.Terminated.StartedAt.Time, true
	}
	return time.Time{}, false
}

// revision parses a resourceVersion, which is an etcd revision here.
func revision(rv string) int64 {
	n, _ := strconv.ParseInt(rv, 10, 64)
	return n
}

// containerNamed returns pod's container called name, nil if none.
func containerNamed(pod *corev1.Pod, name string) *corev1.Container {
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i]
		}
	}
	return nil
}
