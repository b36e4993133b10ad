// Package record writes core/v1 Events about objects, as components report
// what they did: "Scheduled", "Pulling", "Started", "BackOff". Events are
// what `kubectl describe` shows under Events.
//
// Like client-go's recorder, it never blocks the caller: events go through
// a bounded queue to one writer goroutine, and repeats of the same event
// are folded into one Event whose count grows.
//
// Upstream: k8s.io/client-go/tools/record.
package record

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/logging"
)

// EventRecorder records events about objects. Safe for concurrent use;
// never blocks.
type EventRecorder interface {
	// Event records one event; eventType is corev1.EventTypeNormal or
	// corev1.EventTypeWarning.
	Event(obj runtime.Object, eventType, reason, message string)
	// Eventf is Event with a format.
	Eventf(obj runtime.Object, eventType, reason, format string, args ...any)
}

// queueSize bounds the events waiting to be written. A component that
// floods events faster than the API takes them loses the excess (logged),
// rather than slowing down the work the events describe, as in client-go.
const queueSize = 1000

// Options configures a Recorder.
type Options struct {
	// Component is the reporting component, "default-scheduler" or
	// "kubelet". Required.
	Component string
	// Host is the node the component runs on, for kubelets.
	Host string
	// Clock defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
}

// Recorder is an EventRecorder that writes through a Clientset. Start runs
// its writer.
type Recorder struct {
	events *client.Clientset
	opts   Options
	log    *slog.Logger
	queue  chan *corev1.Event

	// mu guards seen and lastSuffix.
	mu sync.Mutex
	// seen maps an event's identity to the Event stored for it, so a
	// repeat bumps the count instead of creating a new Event.
	seen map[string]*corev1.Event
	// lastSuffix is the last name suffix handed out; suffixes strictly
	// increase, so two events in one instant (a fake clock that does not
	// move) still get distinct names.
	lastSuffix int64
}

var _ EventRecorder = (*Recorder)(nil)

// New returns a Recorder writing through cs.
func New(cs *client.Clientset, opts Options) *Recorder {
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	return &Recorder{
		events: cs,
		opts:   opts,
		log:    logging.OrDiscard(opts.Logger).With("component", opts.Component),
		queue:  make(chan *corev1.Event, queueSize),
		seen:   map[string]*corev1.Event{},
	}
}

// Event implements EventRecorder.
func (r *Recorder) Event(obj runtime.Object, eventType, reason, message string) {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		r.log.Warn("event about an object without metadata dropped", "reason", reason, "err", err)
		return
	}
	tm := obj.GetTypeMeta()
	now := metav1.NewTime(r.opts.Clock.Now())
	ev := &corev1.Event{
		ObjectMeta: metav1.ObjectMeta{Namespace: eventNamespace(meta)},
		InvolvedObject: corev1.ObjectReference{
			Kind: tm.Kind, APIVersion: tm.APIVersion, Namespace: meta.Namespace, Name: meta.Name,
			UID: meta.UID, ResourceVersion: meta.ResourceVersion,
		},
		Reason: reason, Message: message, Type: eventType,
		Source:         corev1.EventSource{Component: r.opts.Component, Host: r.opts.Host},
		FirstTimestamp: now, LastTimestamp: now, Count: 1,
		ReportingController: r.opts.Component, ReportingInstance: r.reportingInstance(),
	}
	select {
	case r.queue <- ev:
	default:
		r.log.Warn("event queue full, event dropped", "reason", reason, "name", meta.Name)
	}
}

// Eventf implements EventRecorder.
func (r *Recorder) Eventf(obj runtime.Object, eventType, reason, format string, args ...any) {
	r.Event(obj, eventType, reason, fmt.Sprintf(format, args...))
}

func (r *Recorder) reportingInstance() string {
	if r.opts.Host != "" {
		return r.opts.Component + "-" + r.opts.Host
	}
	return r.opts.Component
}

// eventNamespace is where an event about meta lives: the object's
// namespace, or default for cluster-scoped objects, as in Kubernetes.
func eventNamespace(meta *metav1.ObjectMeta) string {
	if meta.Namespace == "" {
		return metav1.NamespaceDefault
	}
	return meta.Namespace
}

// Start writes queued events until ctx is done.
func (r *Recorder) Start(ctx context.Context) error {
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev := <-r.queue:
			if err := r.write(ctx, ev); err != nil && ctx.Err() == nil {
				r.log.Warn("event not written", "reason", ev.Reason, "name", ev.InvolvedObject.Name, "err", err)
			}
		}
	}
}

// write creates the event, or bumps the count of the Event already stored
// for an identical one.
func (r *Recorder) write(ctx context.Context, ev *corev1.Event) error {
	key := strings.Join([]string{ev.Source.Component, ev.Source.Host, ev.InvolvedObject.Kind, ev.InvolvedObject.Namespace,
		ev.InvolvedObject.Name, string(ev.InvolvedObject.UID), ev.Type, ev.Reason, ev.Message}, "\x00")
	r.mu.Lock()
	prev := r.seen[key]
	r.mu.Unlock()
	events := r.events.Events(ev.Namespace)
	if prev != nil {
		update := prev.DeepCopy()
		update.Count++
		update.LastTimestamp = ev.LastTimestamp
		stored, err := events.Update(ctx, update, client.WriteOptions{})
		if err == nil {
			r.remember(key, stored)
			return nil
		}
		if !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return err
		}
		// The stored event is gone or changed: record afresh.
	}
	// Event names are <object>.<unique suffix>, as Kubernetes names them.
	ev.Name = fmt.Sprintf("%s.%x", ev.InvolvedObject.Name, r.nextSuffix())
	stored, err := events.Create(ctx, ev, client.WriteOptions{})
	if err != nil {
		return err
	}
	r.remember(key, stored)
	return nil
}

// nextSuffix is the clock's time in nanoseconds, or one more than the
// last suffix when the clock has not moved past it.
func (r *Recorder) nextSuffix() int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.lastSuffix = max(r.lastSuffix+1, r.opts.Clock.Now().UnixNano())
	return r.lastSuffix
}

// maxRemembered bounds the folding cache; past it the cache starts over,
// which only costs a new Event for a repeat.
const maxRemembered = 4096

func (r *Recorder) remember(key string, ev *corev1.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.seen) >= maxRemembered {
		r.seen = map[string]*corev1.Event{}
	}
	r.seen[key] = ev
}
