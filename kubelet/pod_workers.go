package kubelet

import (
	"context"
	"sync"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/wait"
)

// syncFunc brings one pod's containers towards what its spec asks for and
// reports its status. pod is the latest copy from the API, or the last
// one seen when deleted is set (the API no longer has the pod). It
// returns when the pod wants to be synced again by the clock (zero for
// never), and whether the kubelet is done with the pod for good.
type syncFunc func(ctx context.Context, w *podWorker, pod *corev1.Pod, deleted bool) syncResult

// syncResult is what a sync asks of the pod workers.
type syncResult struct {
	// wakeAt is when to sync the pod again (a backoff that ends, a probe
	// that is due); zero for only when something changes.
	wakeAt time.Time
	// forget drops the worker: the pod is gone and cleaned up.
	forget bool
}

// wakeAtOrEarlier keeps the earlier of r.wakeAt and t (ignoring zero).
func (r *syncResult) wakeAtOrEarlier(t time.Time) {
	if !t.IsZero() && (r.wakeAt.IsZero() || t.Before(r.wakeAt)) {
		r.wakeAt = t
	}
}

// podWorker is one pod's place in the pod workers.
type podWorker struct {
	uid string

	// These fields are guarded by podWorkers.mu.
	//
	// pod is the latest copy from the API (the last one seen once deleted
	// is set); statusPod the newest copy the kubelet wrote status to.
	pod       *corev1.Pod
	statusPod *corev1.Pod
	// status is the status the kubelet last generated, recorded before
	// it is written: what the kubelet knows of the pod's containers is
	// never behind the API's copy, which a client may already have read.
	status  *corev1.PodStatus
	deleted bool
	// working: a goroutine runs the pod's syncs. pending: something
	// changed since that sync read the pod, so it syncs once more.
	working, pending bool
	// parked: the running sync waits for the clock alone (a container's
	// grace period), so the worker has no work now; see park.
	parked bool

	// state belongs to the goroutine running the pod's sync. Only one
	// runs at a time, and each starts under mu after the last one ended
	// under mu, so it needs no lock of its own.
	state podState
}

// podWorkers runs each pod's syncs one at a time, on a goroutine that
// exists only while the pod has work: an update from the API, a runtime
// change, or a wake-up time that came. An idle pod costs its podWorker
// and nothing else; its wake-up time is an entry in a wait.DeadlineQueue
// served by one clock timer (runWakeups, on the kubelet's syncLoop).
//
//	update/enqueue --> [working] --sync--> nothing pending --> [idle]
//	                     ^    |                                   |
//	                     +----+ pending: sync again               +-- wakeAt due --> [working]
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (podWorkers), which keeps one
// goroutine per pod for the pod's whole life.
type podWorkers struct {
	clock  clock.Clock
	sync   syncFunc
	notify func()
	// wakeups holds the workers that want a sync by the clock, at that
	// time. It is changed only under mu (it has a lock of its own too).
	wakeups *wait.DeadlineQueue[*podWorker]

	// mu guards the fields below and every podWorker's guarded fields.
	mu      sync.Mutex
	workers map[string]*podWorker
	// runCtx is start's context; nil before start. No worker starts once
	// stopped is set.
	runCtx  context.Context
	stopped bool
	// wg counts worker goroutines; Add only under mu and before stopped,
	// Wait only after stopped.
	wg sync.WaitGroup
}

func newPodWorkers(clk clock.Clock, sync syncFunc, notify func()) *podWorkers {
	p := &podWorkers{
		clock:   clk,
		sync:    sync,
		notify:  notify,
		wakeups: wait.NewDeadlineQueue(wait.DeadlineOptions[*podWorker]{Clock: clk}),
		workers: map[string]*podWorker{},
	}
	return p
}

// start lets workers run under ctx; work queued before start runs now.
func (p *podWorkers) start(ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.runCtx = ctx
	for _, w := range p.workers {
		if w.pending && !w.working {
			p.runLocked(w)
		}
	}
}

// stop waits for the running workers, whose ctx must be done, and lets no
// new one start.
func (p *podWorkers) stop() {
	p.mu.Lock()
	p.stopped = true
	p.wakeups.Stop()
	p.mu.Unlock()
	p.wg.Wait()
}

// update records the API's latest copy of a pod. A change of anything
// but status (and resourceVersion) syncs the pod: the kubelet's own
// status writes come back as updates and need no sync.
func (p *podWorkers) update(pod *corev1.Pod) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.workers[pod.UID]
	if !ok {
		w = &podWorker{uid: pod.UID}
		p.workers[pod.UID] = w
	}
	old := w.pod
	w.pod = pod
	if old == nil || specOrDeletionChanged(old, pod) {
		p.enqueueLocked(w)
	}
}

func specOrDeletionChanged(old, pod *corev1.Pod) bool {
	return old.Generation != pod.Generation ||
		(old.DeletionTimestamp == nil) != (pod.DeletionTimestamp == nil) ||
		ptrValue(old.DeletionGracePeriodSeconds) != ptrValue(pod.DeletionGracePeriodSeconds)
}

func ptrValue(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// delete records that the API no longer has the pod.
func (p *podWorkers) delete(uid string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.workers[uid]; ok {
		w.deleted = true
		p.enqueueLocked(w)
	}
}

// enqueue syncs the pod again (a runtime change); unknown pods are
// ignored.
func (p *podWorkers) enqueue(uid string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if w, ok := p.workers[uid]; ok {
		p.enqueueLocked(w)
	}
}

func (p *podWorkers) enqueueLocked(w *podWorker) {
	w.pending = true
	if !w.working {
		p.runLocked(w)
	}
}

// runLocked starts w's goroutine, unless the workers are not running.
func (p *podWorkers) runLocked(w *podWorker) {
	if p.runCtx == nil || p.stopped {
		return
	}
	w.working = true
	ctx := p.runCtx
	p.wg.Go(func() { p.run(ctx, w) })
}

// run syncs w until nothing is pending.
func (p *podWorkers) run(ctx context.Context, w *podWorker) {
	for {
		p.mu.Lock()
		pod, deleted := w.pod, w.deleted
		w.pending = false
		p.mu.Unlock()

		res := p.sync(ctx, w, pod, deleted)

		p.mu.Lock()
		p.setWakeLocked(w, res.wakeAt)
		if res.forget && w.deleted {
			p.setWakeLocked(w, time.Time{})
			delete(p.workers, w.uid)
			w.pending = false
		}
		if !w.pending || ctx.Err() != nil {
			w.working = false
			p.mu.Unlock()
			p.notify()
			return
		}
		p.mu.Unlock()
	}
}

// park runs wait, which w's sync calls to wait for what only the clock
// ends (containers given a grace period to exit), with w counted as
// idle: on a fake clock the grace period passes only when the test steps
// the clock, which it does once the kubelet is idle.
func (p *podWorkers) park(w *podWorker, wait func()) {
	p.mu.Lock()
	w.parked = true
	p.mu.Unlock()
	p.notify()
	wait()
	p.mu.Lock()
	w.parked = false
	p.mu.Unlock()
	p.notify()
}

// setStatus records a status generated for w's pod, before it is
// written.
func (p *podWorkers) setStatus(w *podWorker, status corev1.PodStatus) {
	p.mu.Lock()
	w.status = &status
	p.mu.Unlock()
}

// setStatusPod records the answer to a status write.
func (p *podWorkers) setStatusPod(w *podWorker, pod *corev1.Pod) {
	p.mu.Lock()
	w.statusPod = pod
	p.mu.Unlock()
}

// newest returns the newest copy of w's pod: the API's, or the one w's
// last status write returned.
func (p *podWorkers) newest(w *podWorker) *corev1.Pod {
	p.mu.Lock()
	defer p.mu.Unlock()
	return newerPod(w.pod, w.statusPod)
}

// latest returns the newest copy of the pod with uid the kubelet has (the
// API's, or the one its last status write returned) with the status the
// kubelet last generated, written or not: a client that has read a
// status from the API server and asks the kubelet about it (the logs of
// the run it shows) is never answered from an older one.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/status (manager.GetPodStatus).
func (p *podWorkers) latest(uid string) (*corev1.Pod, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	w, ok := p.workers[uid]
	if !ok || w.pod == nil {
		return nil, false
	}
	pod := newerPod(w.pod, w.statusPod)
	if w.status != nil {
		// A shallow copy: the copies latest returns are read only.
		withStatus := *pod
		withStatus.Status = *w.status
		pod = &withStatus
	}
	return pod, true
}

// idle reports whether no worker runs or has work, and no wake-up is due.
// A parked worker is idle even with an update pending: it gets to it only
// once the clock has moved.
func (p *podWorkers) idle() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, w := range p.workers {
		if (w.working || w.pending) && !w.parked {
			return false
		}
	}
	return !p.wakeups.Due()
}

// runWakeups starts the workers whose wake-up time came, until ctx is
// done.
func (p *podWorkers) runWakeups(ctx context.Context) {
	p.wakeups.Run(ctx, p.fireDue)
}

// fireDue starts the workers whose wake-up time came.
func (p *podWorkers) fireDue() {
	p.mu.Lock()
	now := p.clock.Now()
	for {
		w, _, ok := p.wakeups.PopDue(now)
		if !ok {
			break
		}
		p.enqueueLocked(w)
	}
	p.mu.Unlock()
	p.notify()
}

// setWakeLocked sets (or with zero, clears) w's wake-up time.
func (p *podWorkers) setWakeLocked(w *podWorker, at time.Time) {
	if at.IsZero() {
		p.wakeups.Remove(w)
		return
	}
	p.wakeups.SetAt(w, at)
}
