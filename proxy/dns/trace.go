package dns

import (
	"context"
	"strings"

	miekgdns "github.com/miekg/dns"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/trace"

	"github.com/minicp/minicp/tracing"
)

// traced records each query h answers as a dns.query span: who asked
// (the client's address), what, and the answer's code and records. A
// DNS message carries no trace context, so each query is a trace of its
// own.
func traced(tracer trace.Tracer, h miekgdns.HandlerFunc) miekgdns.HandlerFunc {
	return func(w miekgdns.ResponseWriter, req *miekgdns.Msg) {
		attrs := []attribute.KeyValue{
			attribute.String("client", w.RemoteAddr().String()), attribute.String("server", w.LocalAddr().String()),
		}
		if len(req.Question) > 0 {
			q := req.Question[0]
			attrs = append(attrs, attribute.String("question", q.Name), attribute.String("type", miekgdns.TypeToString[q.Qtype]))
		}
		_, span := tracer.Start(context.Background(), tracing.HopDNSQuery, trace.WithSpanKind(trace.SpanKindServer),
			trace.WithAttributes(attrs...))
		rec := &answerRecorder{ResponseWriter: w}
		h(rec, req)
		if m := rec.msg; m != nil {
			answers := make([]string, 0, len(m.Answer))
			for _, rr := range m.Answer {
				answers = append(answers, strings.TrimPrefix(rr.String(), rr.Header().String()))
			}
			span.SetAttributes(attribute.String("rcode", miekgdns.RcodeToString[m.Rcode]), attribute.StringSlice("answer", answers))
		}
		span.End()
	}
}

// answerRecorder keeps the message a handler writes.
type answerRecorder struct {
	miekgdns.ResponseWriter
	msg *miekgdns.Msg
}

func (a *answerRecorder) WriteMsg(m *miekgdns.Msg) error {
	a.msg = m
	return a.ResponseWriter.WriteMsg(m)
}
