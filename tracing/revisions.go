package tracing

import (
	"sync"

	"go.opentelemetry.io/otel/trace"
)

// Revisions remembers which span wrote each etcd revision, for the last
// capacity revisions written: a watch event carries its revision but no
// trace context, so whoever receives it (the watch cache, an informer)
// looks the writer up here and links to it. Safe for concurrent use; a
// nil *Revisions records nothing and finds nothing.
//
// The watch event of a write can be handled before the writer learns its
// revision (etcd notifies watchers before it answers the writer), so a
// writer also says, before it commits, which key it writes and at which
// revision it found it (Pending); a watcher that finds no writer for a
// revision asks for the writer of that change (PendingWriter) and
// records it for the watchers after it.
type Revisions struct {
	// mu guards the fields below. byRev holds exactly the revisions in
	// order, which lists them in the order recorded, so the oldest is
	// forgotten first. pending holds the writes in flight.
	mu      sync.Mutex
	byRev   map[int64]trace.SpanContext
	order   []int64
	next    int
	pending map[change][]trace.SpanContext
}

// change names a write by its key and the revision of the state it
// replaces (0 for a create).
type change struct {
	key     string
	prevRev int64
}

// NewRevisions returns a Revisions remembering up to capacity revisions
// (at least one).
func NewRevisions(capacity int) *Revisions {
	capacity = max(capacity, 1)
	return &Revisions{
		byRev:   make(map[int64]trace.SpanContext, capacity),
		order:   make([]int64, 0, capacity),
		pending: map[change][]trace.SpanContext{},
	}
}

// Pending says that the span sc is about to write key, which it found at
// revision prevRev (0: it creates key). The returned func ends the
// pending write, whether it committed or not; call it after Record.
func (r *Revisions) Pending(key string, prevRev int64, sc trace.SpanContext) (done func()) {
	if r == nil || !sc.IsValid() {
		return func() {}
	}
	c := change{key, prevRev}
	r.mu.Lock()
	r.pending[c] = append(r.pending[c], sc)
	r.mu.Unlock()
	return func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		scs := r.pending[c]
		for i, p := range scs {
			if p.Equal(sc) {
				scs = append(scs[:i], scs[i+1:]...)
				break
			}
		}
		if len(scs) == 0 {
			delete(r.pending, c)
		} else {
			r.pending[c] = scs
		}
	}
}

// PendingWriter returns the span writing key over revision prevRev now,
// for a watcher that received the event of a revision whose writer is
// not recorded yet; ok is false when there is none. Of two writers of the
// same state, one fails its compare; the first to have said so is
// returned.
func (r *Revisions) PendingWriter(key string, prevRev int64) (sc trace.SpanContext, ok bool) {
	if r == nil {
		return sc, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	scs := r.pending[change{key, prevRev}]
	if len(scs) == 0 {
		return sc, false
	}
	return scs[0], true
}

// Record says that the span sc wrote revision rev. An invalid sc (no
// trace in the writer's context) is not recorded.
func (r *Revisions) Record(rev int64, sc trace.SpanContext) {
	if r == nil || !sc.IsValid() {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, ok := r.byRev[rev]; ok {
		r.byRev[rev] = sc
		return
	}
	if len(r.order) < cap(r.order) {
		r.order = append(r.order, rev)
	} else {
		delete(r.byRev, r.order[r.next])
		r.order[r.next] = rev
		r.next = (r.next + 1) % len(r.order)
	}
	r.byRev[rev] = sc
}

// Writer returns the span that wrote revision rev; ok is false when it
// is not known (written untraced, or forgotten).
func (r *Revisions) Writer(rev int64) (sc trace.SpanContext, ok bool) {
	if r == nil {
		return sc, false
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	sc, ok = r.byRev[rev]
	return sc, ok
}

// Link returns a link to the writer of revision rev, for a span that
// handles the event at rev; ok is false when the writer is not known.
func (r *Revisions) Link(rev int64) (trace.Link, bool) {
	sc, ok := r.Writer(rev)
	if !ok {
		return trace.Link{}, false
	}
	return trace.Link{SpanContext: sc}, true
}
