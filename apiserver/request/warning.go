package request

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
)

// WarningRecorder receives the warnings a request's handling produces,
// for the client to see (kubectl prints them as "Warning: ...").
//
// Upstream: k8s.io/apiserver/pkg/warning (Recorder).
type WarningRecorder interface {
	// AddWarning records one warning. It must be safe for concurrent
	// use.
	AddWarning(text string)
}

type warningRecorderKey struct{}

// WithWarningRecorder returns ctx carrying rec.
func WithWarningRecorder(ctx context.Context, rec WarningRecorder) context.Context {
	return context.WithValue(ctx, warningRecorderKey{}, rec)
}

// AddWarning hands text to the recorder in ctx. Without one (a request
// made in process, a unit test) the warning is dropped: warnings never
// change what a request does.
//
// Upstream: k8s.io/apiserver/pkg/warning (AddWarning).
func AddWarning(ctx context.Context, text string) {
	if rec, ok := ctx.Value(warningRecorderKey{}).(WarningRecorder); ok && text != "" {
		rec.AddWarning(text)
	}
}

// HeaderWarnings records warnings as Warning headers of h, each once, in
// the format every other warning of the API server uses: code 299, no
// agent, the quoted text. Headers must be added before the response is
// written, so it only records what comes before that (admission,
// decoding). It is safe for concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/filters (WithWarningRecorder).
type HeaderWarnings struct {
	h http.Header

	// mu guards seen.
	mu sync.Mutex
	// seen holds the texts already added, so that a warning repeated by
	// two plugins reaches the client once.
	seen []string
}

// NewHeaderWarnings returns a recorder that writes to h.
func NewHeaderWarnings(h http.Header) *HeaderWarnings { return &HeaderWarnings{h: h} }

var _ WarningRecorder = (*HeaderWarnings)(nil)

// AddWarning implements WarningRecorder.
func (w *HeaderWarnings) AddWarning(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if slices.Contains(w.seen, text) {
		return
	}
	w.seen = append(w.seen, text)
	w.h.Add("Warning", fmt.Sprintf("299 - %q", text))
}
