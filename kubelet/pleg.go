package kubelet

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/kubelet/cri"
)

// relistPeriod is how often a runtime that cannot say when it changed is
// relisted: upstream's GenericPLEG period, short enough that a container's
// exit shows within a second, long enough that relisting hundreds of
// nodes costs little.
const relistPeriod = time.Second

// The labels the kubelet puts on sandboxes and containers, as upstream
// does, so that the PLEG and the pod workers find a pod's containers by its
// UID.
const (
	labelPodName       = "io.kubernetes.pod.name"
	labelPodNamespace  = "io.kubernetes.pod.namespace"
	labelPodUID        = "io.kubernetes.pod.uid"
	labelContainerName = "io.kubernetes.container.name"
)

// pleg is the pod lifecycle event generator: it relists the runtime's
// containers and syncs every pod one of whose containers appeared,
// changed state or went away, so that a container that exits by itself
// gets its restart and its status.
//
// It relists when the runtime says something changed (changeNotifier);
// a runtime without that capability is relisted every relistPeriod of the
// clock.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/pleg (GenericPLEG, relisting
// every second; EventedPLEG, woken by the runtime's container events).
type pleg struct {
	runtime  cri.RuntimeService
	notifier changeNotifier
	workers  *podWorkers
	log      *slog.Logger
	// timer paces relists without a notifier; nil with one.
	timer clock.Timer
	// states is the containers' state at the last relist, by ID; used by
	// relist only, which runs on syncLoop's goroutine.
	states map[string]containerState

	// mu guards waitCh: the channel that says the runtime changed since
	// the last relist began; closed while a change waits for a relist.
	mu     sync.Mutex
	waitCh <-chan struct{}
}

type containerState struct {
	podUID string
	state  cri.ContainerState
}

func newPLEG(clk clock.Clock, rt cri.RuntimeService, notifier changeNotifier, workers *podWorkers, log *slog.Logger) *pleg {
	closed := make(chan struct{})
	close(closed)
	// waitCh starts closed: nothing was listed yet.
	p := &pleg{runtime: rt, notifier: notifier, workers: workers, log: log, states: map[string]containerState{}, waitCh: closed}
	if notifier == nil {
		p.timer = clk.NewTimer(relistPeriod)
		p.timer.Stop()
		p.waitCh = nil
	}
	return p
}

// stop stops the relist timer; syncLoop calls it when it ends.
func (p *pleg) stop() {
	if p.timer != nil {
		p.timer.Stop()
	}
}

// relist compares the runtime's containers with the last relist and
// syncs the pods that changed. It returns what says when to relist next:
// the runtime's Changed, taken before listing so that no change is
// missed, or without a changeNotifier the relist timer's channel.
func (p *pleg) relist(ctx context.Context) (changed <-chan struct{}, tick <-chan time.Time) {
	if p.notifier != nil {
		changed = p.notifier.Changed()
	} else {
		p.timer.Reset(relistPeriod)
		tick = p.timer.C()
	}
	containers, err := p.runtime.ListContainers(ctx, cri.ContainerFilter{})
	if err != nil && ctx.Err() == nil {
		p.log.Warn("relisting containers failed", "err", err)
	}
	if err == nil {
		p.diff(containers)
	}
	// The pods are enqueued before waitCh moves on: Idle, which checks
	// waitCh and then the workers, never sees neither.
	if p.notifier != nil {
		p.mu.Lock()
		p.waitCh = changed
		p.mu.Unlock()
	}
	return changed, tick
}

// diff syncs the pods whose containers differ from the last relist's.
func (p *pleg) diff(containers []cri.Container) {
	states := make(map[string]containerState, len(containers))
	for _, c := range containers {
		uid := c.Labels[labelPodUID]
		if uid == "" {
			continue // not the kubelet's
		}
		now := containerState{podUID: uid, state: c.State}
		states[c.ID] = now
		if old, ok := p.states[c.ID]; !ok || old != now {
			p.workers.enqueue(uid)
		}
	}
	for id, old := range p.states {
		if _, ok := states[id]; !ok {
			p.workers.enqueue(old.podUID)
		}
	}
	p.states = states
}

// pending reports whether the runtime changed and the change was not
// relisted yet; always false without a changeNotifier.
func (p *pleg) pending() bool {
	p.mu.Lock()
	ch := p.waitCh
	p.mu.Unlock()
	if ch == nil {
		return false
	}
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
