package main

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/tracing"
)

// printer prints a Job's steps from the trace of its create.
type printer struct {
	out    io.Writer
	vt     *virtualTime
	rec    *tracing.Recorder
	writes *flowtrace.Writes
	// start is the virtual time the Jobs were created at.
	start time.Time
}

// jobState is what print has said about one Job so far.
type jobState struct {
	job *batchv1.Job
	t   *flowtrace.Trace
	// exited holds the pods whose exit was printed; failed counts the
	// failures among them.
	exited map[string]bool
	failed int
	// counted is the Job's status.failed last printed.
	counted int32
	done    bool
}

// print writes the steps of job, created by runJobs, in causal order.
func (p *printer) print(ctx context.Context, job *batchv1.Job) error {
	spans := p.rec.Spans()
	create, ok := tracing.FindRequest(spans, "create", "jobs", "default", job.Name)
	if !ok {
		return fmt.Errorf("no trace of the create of job %s", job.Name)
	}
	st := &jobState{job: job, t: flowtrace.New(spans, create), exited: map[string]bool{}}
	fmt.Fprintf(p.out, "Job %q\n", job.Name)
	for _, step := range st.t.Steps {
		if err := p.step(ctx, st, step.Span); err != nil {
			return err
		}
	}
	if !st.done {
		return fmt.Errorf("the trace of job %s has no final condition", job.Name)
	}
	fmt.Fprintln(p.out)
	return nil
}

// line prints one step at s's virtual time; number 0 is a note between
// steps.
func (p *printer) line(s sdktrace.ReadOnlySpan, number int, format string, args ...any) {
	at := fmt.Sprintf("+%.0fs", p.vt.Of(s).Sub(p.start).Seconds())
	label := "      "
	if number > 0 {
		label = fmt.Sprintf("step %d", number)
	}
	fmt.Fprintf(p.out, "  %7s  %s  %s\n", at, label, fmt.Sprintf(format, args...))
}

// step prints what span s of the Job's trace shows, if anything.
func (p *printer) step(ctx context.Context, st *jobState, s sdktrace.ReadOnlySpan) error {
	t := st.t
	switch s.Name() {
	case tracing.HopSchedulerBind:
		p.line(s, 4, "scheduler binds %s to %s", flowtrace.Attr(s, "name"), flowtrace.Attr(s, "node"))
	case tracing.HopRuntimeContainer:
		sync := t.Parent(s)
		c := st.job.Spec.Template.Spec.Containers[0]
		p.line(s, 5, "%s starts container %s of %s through the CRI (image %s), running %q",
			flowtrace.Component(s), flowtrace.Attr(s, "container"), flowtrace.Attr(sync, "name"), c.Image, strings.Join(c.Command, " "))
	case tracing.HopRequest:
		w, ok := t.WriteOf(s)
		if !ok {
			return nil
		}
		return p.write(ctx, st, w)
	}
	return nil
}

// write prints the steps a write of the Job's trace shows.
func (p *printer) write(ctx context.Context, st *jobState, w flowtrace.Write) error {
	t := st.t
	parent := t.Parent(w.Request)
	switch {
	case parent == nil && w.Resource() == "jobs":
		p.line(w.Request, 1, "%s %s: the API server accepts the Job (%s)",
			flowtrace.Attr(w.Request, "method"), flowtrace.Attr(w.Request, "path"), hops(t, w.Request))
		p.line(w.Txn, 2, "persisted to etcd at revision %d (%s)", w.Rev, flowtrace.Attr(w.Txn, "key"))
	case w.Verb() == "create" && w.Resource() == "pods" && parent != nil && parent.Name() == tracing.HopReconcile:
		if st.failed == 0 {
			p.line(w.Request, 3, "job controller creates pod %s from the template (revision %d)", w.Name(), w.Rev)
			return nil
		}
		wait := ""
		for _, cause := range t.Linked(parent) {
			if d := flowtrace.Attr(cause, "requeueAfter"); d != "" {
				wait = fmt.Sprintf(", its reconcile requeued %s after the one at +%.0fs", d, p.vt.Of(cause).Sub(p.start).Seconds())
			}
		}
		p.line(w.Request, 3, "job controller starts a new pod %s after %d failed (backoff%s)", w.Name(), st.failed, wait)
	case w.Resource() == "pods/status":
		v, err := p.writes.At(ctx, w.Rev)
		if err != nil {
			return err
		}
		pod, ok := v.Object.(*corev1.Pod)
		if !ok || st.exited[pod.Name] {
			return nil
		}
		for _, cs := range pod.Status.ContainerStatuses {
			if term := cs.State.Terminated; term != nil {
				st.exited[pod.Name] = true
				if term.ExitCode != 0 {
					st.failed++
				}
				p.line(w.Request, 6, "kubelet reports exit code %d of %s in the pod's status (phase %s, revision %d)",
					term.ExitCode, pod.Name, pod.Status.Phase, w.Rev)
			}
		}
	case w.Resource() == "jobs/status" && !st.done:
		v, err := p.writes.At(ctx, w.Rev)
		if err != nil {
			return err
		}
		job, ok := v.Object.(*batchv1.Job)
		if !ok {
			return nil
		}
		if c, ok := finalCondition(job); ok {
			st.done = true
			what := fmt.Sprintf("job controller marks the Job %s (succeeded=%d failed=%d)", c.Type, job.Status.Succeeded, job.Status.Failed)
			if c.Reason != "" {
				what += ": " + c.Reason
			}
			p.line(w.Request, 7, "%s, revision %d", what, w.Rev)
			return nil
		}
		if job.Status.Failed > st.counted {
			// The controller's reconcile asked to run again once the
			// backoff has passed: the next pod's reconcile links to it.
			wait := ""
			if d := flowtrace.Attr(parent, "requeueAfter"); d != "" {
				wait = fmt.Sprintf(" and waits %s before a new pod", d)
			}
			st.counted = job.Status.Failed
			p.line(w.Request, 0, "job controller counts the failure (failed=%d, revision %d)%s", job.Status.Failed, w.Rev, wait)
		}
	}
	return nil
}

// hops lists the hops of an API request inside the API server, in the
// order of its trace, a run of admission plugins as one hop; the etcd
// transaction is step 2.
func hops(t *flowtrace.Trace, req sdktrace.ReadOnlySpan) string {
	var out []string
	last := ""
	for _, c := range t.Children(req, "") {
		switch name := c.Name(); {
		case name == tracing.HopEtcdTxn || name == last:
		case name == tracing.HopAuthn:
			out = append(out, "authn as "+flowtrace.Attr(c, string(tracing.KeyUser)))
		default:
			out = append(out, name)
		}
		last = c.Name()
	}
	return strings.Join(out, " → ")
}
