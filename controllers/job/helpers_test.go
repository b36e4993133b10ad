package job_test

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/job"
	"github.com/minicp/minicp/controllers/manager"
)

// epoch is where every test's fake clock starts: a whole second, as the
// API's timestamps keep seconds only, an hour before the real time. Why
// not a fixed date: the cluster's certificates are valid from its clock's
// time for a year, while TLS checks them against the real time.
var epoch = clock.Real.Now().Add(-time.Hour).Truncate(time.Second).UTC()

const ns = "default"

// env is a cluster with simulated nodes and no built-in controllers, on a
// fake clock, and a Manager of the test running the job controller.
type env struct {
	t   *testing.T
	c   *clustertest.Cluster
	clk *clocktest.Fake
	cs  *client.Clientset
	mgr *manager.Manager
	// stopMgr stops mgr and waits for it; idempotent.
	stopMgr func()
}

// newEnv starts a cluster of nodes nodes and a Manager running the job
// controller.
func newEnv(t *testing.T, nodes int) *env {
	t.Helper()
	clk := clocktest.NewFake(epoch)
	c := clustertest.New(t, clustertest.WithNodes(nodes), clustertest.WithControllers(), clustertest.WithClock(clk))
	e := &env{t: t, c: c, clk: clk, cs: c.Clientset()}
	e.waitNodesSeen(nodes)
	e.startManager()
	return e
}

// waitNodesSeen waits until the API server's watch cache has every node,
// and so has sent it to the scheduler, and the scheduler is idle: a
// cluster is Ready once its kubelets have registered their nodes, which
// the scheduler may not have received yet. A pod created then would find
// no node and wait for a retry that only a step of the clock brings.
func (e *env) waitNodesSeen(nodes int) {
	e.t.Helper()
	ctx, cancel := clustertest.WaitContext(e.t)
	defer cancel()
	for i := range nodes {
		node, err := e.cs.Nodes().Get(ctx, cluster.NodeName(i), client.GetOptions{})
		require.NoError(e.t, err, "get node %d", i)
		// A watch from the node's resourceVersion starts once the watch
		// cache has reached it.
		w, err := e.cs.Nodes().Watch(ctx, client.ListOptions{ResourceVersion: node.ResourceVersion})
		require.NoError(e.t, err, "watch nodes from %s", node.ResourceVersion)
		w.Stop()
	}
	require.NoError(e.t, e.c.WaitIdle(ctx), "cluster WaitIdle")
}

// startManager runs a new Manager with the job controller until the test
// ends (or stopMgr).
func (e *env) startManager() {
	e.t.Helper()
	mgr, err := manager.New(manager.Options{Client: e.cs.Client(), Clock: e.clk})
	require.NoError(e.t, err, "manager.New")
	require.NoError(e.t, job.Add(mgr), "job.Add")
	e.mgr = mgr
	e.stopMgr = clustertest.Start(e.t, mgr).Stop
}

// waitIdle waits until the controllers, the scheduler and the kubelets
// have nothing left to do that they know of.
func (e *env) waitIdle() {
	e.t.Helper()
	ctx, cancel := clustertest.WaitContext(e.t)
	defer cancel()
	require.NoError(e.t, e.mgr.WaitIdle(ctx), "manager WaitIdle")
	require.NoError(e.t, e.c.WaitIdle(ctx), "cluster WaitIdle")
	require.NoError(e.t, e.mgr.WaitIdle(ctx), "manager WaitIdle")
}

// stepUntil steps the clock by step until cond holds, waiting for idle
// after each step: for a chain of timers the test cannot see,
// such as a kubelet's crash loop backoff, each armed by the work the
// previous one caused. It fails after maxSteps steps.
func (e *env) stepUntil(what string, step time.Duration, maxSteps int, cond func() bool) {
	e.t.Helper()
	for range maxSteps {
		if cond() {
			return
		}
		e.clk.Step(step)
		e.waitIdle()
	}
	require.True(e.t, cond(), "%s: not after %d steps of %v", what, maxSteps, step)
}

// waitFor waits until cond holds, checking it now and after every change
// to a pod or Job of the namespace. cond returns whether it holds and
// what it saw, for the failure message.
func (e *env) waitFor(what string, cond func() (bool, string)) {
	e.t.Helper()
	ctx, cancel := clustertest.WaitContext(e.t)
	defer cancel()
	pods, err := e.cs.Pods(ns).Watch(ctx, client.ListOptions{})
	require.NoError(e.t, err, "watch pods")
	defer pods.Stop()
	jobs, err := e.cs.Jobs(ns).Watch(ctx, client.ListOptions{})
	require.NoError(e.t, err, "watch jobs")
	defer jobs.Stop()
	for {
		ok, seen := cond()
		if ok {
			return
		}
		select {
		case _, open := <-pods.ResultChan():
			require.True(e.t, open, "%s: the pod watch ended; last seen: %s", what, seen)
		case _, open := <-jobs.ResultChan():
			require.True(e.t, open, "%s: the job watch ended; last seen: %s", what, seen)
		case <-ctx.Done():
			e.t.Fatalf("%s: not within %v; last seen: %s", what, clustertest.WaitTimeout, seen)
		}
	}
}

// waitJob waits until the Job name satisfies cond and returns it.
func (e *env) waitJob(name, what string, cond func(*batchv1.Job) bool) *batchv1.Job {
	e.t.Helper()
	var last *batchv1.Job
	e.waitFor("job "+name+": "+what, func() (bool, string) {
		j, err := e.cs.Jobs(ns).Get(e.t.Context(), name, client.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		last = j
		return cond(j), describeJob(j)
	})
	return last
}

// waitPods waits until the pods of Job name satisfy cond and returns
// them.
func (e *env) waitPods(name, what string, cond func([]corev1.Pod) bool) []corev1.Pod {
	e.t.Helper()
	var last []corev1.Pod
	e.waitFor("pods of "+name+": "+what, func() (bool, string) {
		last = e.pods(name)
		return cond(last), describePods(last)
	})
	return last
}

// pods lists the pods of Job name, oldest first.
func (e *env) pods(name string) []corev1.Pod {
	e.t.Helper()
	list, err := e.cs.Pods(ns).List(e.t.Context(), client.ListOptions{LabelSelector: batchv1.JobNameLabel + "=" + name})
	require.NoError(e.t, err, "list pods of %s", name)
	pods := list.Items
	slices.SortStableFunc(pods, func(a, b corev1.Pod) int {
		if c := a.CreationTimestamp.Compare(b.CreationTimestamp.Time); c != 0 {
			return c
		}
		return strings.Compare(a.Name, b.Name)
	})
	return pods
}

// getJob reads the Job name from the API server.
func (e *env) getJob(name string) *batchv1.Job {
	e.t.Helper()
	j, err := e.cs.Jobs(ns).Get(e.t.Context(), name, client.GetOptions{})
	require.NoError(e.t, err, "get job %s", name)
	return j
}

// create creates j.
func (e *env) create(j *batchv1.Job) *batchv1.Job {
	e.t.Helper()
	created, err := e.cs.Jobs(ns).Create(e.t.Context(), j, client.WriteOptions{})
	require.NoError(e.t, err, "create job %s", j.Name)
	return created
}

// events returns the reasons of the Events about the Job name, in order.
func (e *env) eventReasons(name string) []string {
	e.t.Helper()
	list, err := e.cs.Events(ns).List(e.t.Context(), client.ListOptions{})
	require.NoError(e.t, err, "list events")
	var out []string
	for _, ev := range list.Items {
		if ev.InvolvedObject.Kind == "Job" && ev.InvolvedObject.Name == name {
			out = append(out, ev.Reason)
		}
	}
	return out
}

// waitEvents waits until the Events about Job name include every reason.
func (e *env) waitEvents(name string, reasons ...string) []string {
	e.t.Helper()
	ctx, cancel := clustertest.WaitContext(e.t)
	defer cancel()
	w, err := e.cs.Events(ns).Watch(ctx, client.ListOptions{})
	require.NoError(e.t, err, "watch events")
	defer w.Stop()
	for {
		got := e.eventReasons(name)
		missing := false
		for _, r := range reasons {
			if !slices.Contains(got, r) {
				missing = true
			}
		}
		if !missing {
			return got
		}
		select {
		case _, open := <-w.ResultChan():
			require.True(e.t, open, "the event watch ended")
		case <-ctx.Done():
			e.t.Fatalf("events of job %s: want %v within %v, got %v", name, reasons, clustertest.WaitTimeout, got)
		}
	}
}

// newJob is a Job of busybox pods running script, restartPolicy Never.
func newJob(name, script string, mutate ...func(*batchv1.Job)) *batchv1.Job {
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
		Spec: batchv1.JobSpec{
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers: []corev1.Container{{
					Name: "main", Image: "busybox", Command: []string{"sh", "-c", script},
				}},
			}},
		},
	}
	for _, m := range mutate {
		m(j)
	}
	return j
}

func ptrTo[T any](v T) *T { return &v }

// condition returns j's condition of type t, or nil.
func condition(j *batchv1.Job, t batchv1.JobConditionType) *batchv1.JobCondition {
	for i := range j.Status.Conditions {
		if j.Status.Conditions[i].Type == t {
			return &j.Status.Conditions[i]
		}
	}
	return nil
}

// hasCondition reports whether j has condition t with status True.
func hasCondition(j *batchv1.Job, t batchv1.JobConditionType) bool {
	c := condition(j, t)
	return c != nil && c.Status == corev1.ConditionTrue
}

func finished(j *batchv1.Job) bool {
	return hasCondition(j, batchv1.JobComplete) || hasCondition(j, batchv1.JobFailed)
}

// activePods counts the pods that run or will: not finished, not being
// deleted.
func activePods(pods []corev1.Pod) int {
	n := 0
	for _, p := range pods {
		if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed && p.DeletionTimestamp == nil {
			n++
		}
	}
	return n
}

func countPhase(pods []corev1.Pod, phase corev1.PodPhase) int {
	n := 0
	for _, p := range pods {
		if p.Status.Phase == phase {
			n++
		}
	}
	return n
}

func describeJob(j *batchv1.Job) string {
	var conds []string
	for _, c := range j.Status.Conditions {
		conds = append(conds, fmt.Sprintf("%s=%s(%s)", c.Type, c.Status, c.Reason))
	}
	u := j.Status.UncountedTerminatedPods
	uncounted := 0
	if u != nil {
		uncounted = len(u.Succeeded) + len(u.Failed)
	}
	return fmt.Sprintf("active=%d succeeded=%d failed=%d uncounted=%d conditions=%v", j.Status.Active,
		j.Status.Succeeded, j.Status.Failed, uncounted, conds)
}

func describePods(pods []corev1.Pod) string {
	var out []string
	for _, p := range pods {
		s := fmt.Sprintf("%s:%s", p.Name, p.Status.Phase)
		if p.Spec.NodeName == "" {
			s += "(unscheduled"
			for _, c := range p.Status.Conditions {
				if c.Type == corev1.PodScheduled {
					s += ": " + c.Reason + " " + c.Message
				}
			}
			s += ")"
		}
		if p.DeletionTimestamp != nil {
			s += "(deleting)"
		}
		out = append(out, s)
	}
	return fmt.Sprint(out)
}

// logs reads the log of pod's container through the API server.
func (e *env) logs(pod string) string {
	e.t.Helper()
	rc, err := e.cs.Pods(ns).Stream(e.t.Context(), pod, "log", nil)
	require.NoError(e.t, err, "pods/%s/log", pod)
	defer rc.Close()
	body, err := io.ReadAll(rc)
	require.NoError(e.t, err, "read pods/%s/log", pod)
	return string(body)
}

// watchMaxActive watches the pods of Job name from now on, and returns a
// function that stops watching and returns the most pods that were active
// at once: after every event, in the order the API server applied them.
func (e *env) watchMaxActive(name string) func() int {
	e.t.Helper()
	ctx, cancel := context.WithCancel(e.t.Context())
	w, err := e.cs.Pods(ns).Watch(ctx, client.ListOptions{LabelSelector: batchv1.JobNameLabel + "=" + name})
	require.NoError(e.t, err, "watch pods of %s", name)
	var most int
	done := make(chan struct{})
	go func() {
		defer close(done)
		active := map[string]bool{}
		for ev := range w.ResultChan() {
			p, ok := ev.Object.(*corev1.Pod)
			if !ok {
				continue
			}
			active[p.Name] = ev.Type != watch.Deleted && activePods([]corev1.Pod{*p}) == 1
			n := 0
			for _, a := range active {
				if a {
					n++
				}
			}
			most = max(most, n)
		}
	}()
	return func() int {
		cancel()
		w.Stop()
		<-done
		return most
	}
}
