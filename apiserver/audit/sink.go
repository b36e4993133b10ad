package audit

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"sync"
)

// Sink receives the audit Events of completed requests. The audit filter
// calls ProcessEvents on the request's goroutine once the response is
// sent, so a slow Sink slows requests down. Implementations must be safe
// for concurrent use and must not keep or modify the Events after
// returning.
//
// Upstream: k8s.io/apiserver/pkg/audit (Sink).
type Sink interface {
	// ProcessEvents records events and reports whether all of them were
	// recorded. A Sink that fails cannot fail the request: it is done.
	ProcessEvents(events ...*Event) bool
}

// SinkFunc adapts a function to a Sink.
type SinkFunc func(events ...*Event) bool

// ProcessEvents calls f.
func (f SinkFunc) ProcessEvents(events ...*Event) bool { return f(events...) }

// NewLogSink returns a Sink that logs one Debug record per Event to log,
// under the constant message "audit", with the Event's essentials as
// attributes: what the API server does when no other Sink is configured,
// so `minicp up -v 4` shows every request next to the hops it made.
func NewLogSink(log *slog.Logger) Sink {
	return SinkFunc(func(events ...*Event) bool {
		ctx := context.Background()
		if !log.Enabled(ctx, slog.LevelDebug) {
			return true
		}
		for _, ev := range events {
			attrs := []slog.Attr{
				slog.String("auditID", ev.AuditID),
				slog.String("verb", ev.Verb),
				slog.String("uri", ev.RequestURI),
				slog.String("user", ev.User.Username),
				slog.String("userAgent", ev.UserAgent),
				slog.Duration("latency", ev.StageTimestamp.Sub(ev.RequestReceivedTimestamp.Time)),
			}
			if ev.ResponseStatus != nil {
				attrs = append(attrs, slog.Int("code", int(ev.ResponseStatus.Code)))
			}
			if ref := ev.ObjectRef; ref != nil {
				attrs = append(attrs, slog.String("resource", ref.Resource),
					slog.String("namespace", ref.Namespace), slog.String("name", ref.Name))
			}
			log.LogAttrs(ctx, slog.LevelDebug, "audit", attrs...)
		}
		return true
	})
}

// NewWriterSink returns a Sink that writes each Event to w as one line of
// JSON, the format of kube-apiserver's audit log file, so tools that read
// that log read this one. Writes are serialized, so lines never
// interleave; the caller owns w and closes it after the API server has
// stopped.
func NewWriterSink(w io.Writer) Sink {
	s := &writerSink{w: w}
	return SinkFunc(s.write)
}

// writerSink is NewWriterSink's state.
type writerSink struct {
	// mu guards w and buf: one Event's line is written in one Write.
	mu  sync.Mutex
	w   io.Writer
	buf []byte
}

func (s *writerSink) write(events ...*Event) bool {
	ok := true
	for _, ev := range events {
		b, err := json.Marshal(ev)
		if err != nil {
			ok = false
			continue
		}
		s.mu.Lock()
		s.buf = append(append(s.buf[:0], b...), '\n')
		_, err = s.w.Write(s.buf)
		s.mu.Unlock()
		if err != nil {
			ok = false
		}
	}
	return ok
}
