package client

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
)

// streamWatcher decodes a watch response body, one
// {"type":...,"object":...} JSON value after another, into watch.Events.
//
// One goroutine, owned by the watcher, reads and sends; it is the only
// sender on resultCh and closes it when it returns: at the end of the
// stream, after an Error event, or when ctx is done (Stop cancels it).
//
// Upstream: k8s.io/apimachinery/pkg/watch (StreamWatcher) and
// k8s.io/client-go/rest/watch (Decoder).
type streamWatcher struct {
	cancel    context.CancelFunc
	body      io.ReadCloser
	newObject func() runtime.Object
	resultCh  chan watch.Event
	wg        sync.WaitGroup
	closeOnce sync.Once
}

var _ watch.Interface = (*streamWatcher)(nil)

// newStreamWatcher starts decoding body. cancel must cancel ctx, the
// context of the request body belongs to.
func newStreamWatcher(ctx context.Context, cancel context.CancelFunc, body io.ReadCloser, newObject func() runtime.Object) *streamWatcher {
	w := &streamWatcher{
		cancel:    cancel,
		body:      body,
		newObject: newObject,
		// Unbuffered, as in client-go: the server and the connection
		// already buffer, and a consumer that stops reading should stop
		// the decoding too.
		resultCh: make(chan watch.Event),
	}
	w.wg.Go(func() {
		defer close(w.resultCh)
		defer w.closeBody()
		w.receive(ctx)
	})
	return w
}

// Stop ends the watch and waits for the decoding goroutine to exit. It is
// idempotent and safe from any goroutine, including while another
// goroutine reads ResultChan.
func (w *streamWatcher) Stop() {
	w.cancel()
	w.closeBody()
	w.wg.Wait()
}

// ResultChan returns the events; the watcher closes it when the watch ends.
func (w *streamWatcher) ResultChan() <-chan watch.Event { return w.resultCh }

func (w *streamWatcher) closeBody() {
	w.closeOnce.Do(func() { w.body.Close() })
}

// receive decodes and sends events until the stream or ctx ends.
func (w *streamWatcher) receive(ctx context.Context) {
	dec := json.NewDecoder(w.body)
	for {
		var raw metav1.WatchEvent
		if err := dec.Decode(&raw); err != nil {
			// The end of the stream, however it ends (EOF, a closed or
			// reset connection, ctx), just closes the channel: the consumer
			// watches again from its last resourceVersion. Only bytes that
			// are not a watch event are reported, as an Error.
			var syntax *json.SyntaxError
			var typ *json.UnmarshalTypeError
			if ctx.Err() == nil && (errors.As(err, &syntax) || errors.As(err, &typ)) {
				w.send(ctx, decodeErrorEvent(err))
			}
			return
		}
		ev, err := w.decode(raw)
		if err != nil {
			ev = decodeErrorEvent(err)
		}
		if !w.send(ctx, ev) || ev.Type == watch.Error {
			return
		}
	}
}

// decode turns one wire event into a watch.Event.
func (w *streamWatcher) decode(raw metav1.WatchEvent) (watch.Event, error) {
	typ := watch.EventType(raw.Type)
	var obj runtime.Object
	switch typ {
	case watch.Added, watch.Modified, watch.Deleted, watch.Bookmark:
		obj = w.newObject()
	case watch.Error:
		obj = &metav1.Status{}
	default:
		return watch.Event{}, fmt.Errorf("unknown watch event type %q", raw.Type)
	}
	if err := json.Unmarshal(raw.Object, obj); err != nil {
		return watch.Event{}, fmt.Errorf("decode %s event: %w", typ, err)
	}
	return watch.Event{Type: typ, Object: obj}, nil
}

// send hands ev to the consumer, or gives up when ctx ends first.
func (w *streamWatcher) send(ctx context.Context, ev watch.Event) bool {
	select {
	case w.resultCh <- ev:
		return true
	case <-ctx.Done():
		return false
	}
}

// decodeErrorEvent reports an undecodable stream as client-go does: an
// Error event carrying a 500 Status.
func decodeErrorEvent(err error) watch.Event {
	st := apierrors.NewInternalError(fmt.Errorf("unable to decode an event from the watch stream: %w", err)).Status()
	return watch.Event{Type: watch.Error, Object: &st}
}
