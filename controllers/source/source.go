package source

import (
	"context"

	"github.com/minicp/minicp/controllers/handler"
)

// Source delivers events to a controller's queue through an event
// handler.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/source (Source), whose
// Start returns at once and leaves goroutines behind; minicp's blocks, so
// the controller owns the source's lifetime (STYLE §4, Start(ctx) error).
type Source interface {
	// Start calls the source's handler with q for each event until ctx is
	// done, then unregisters it and returns. It blocks; an error means the
	// source could not start. A source is started once.
	Start(ctx context.Context, q handler.Queue) error
}

// SyncingSource is a Source with an initial state to deliver, such as the
// objects an informer lists first.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/source (SyncingSource).
type SyncingSource interface {
	Source
	// WaitForSync blocks until the source has put its initial state on
	// the queue, and returns Start's error if Start failed, or ctx's if
	// ctx ends first.
	WaitForSync(ctx context.Context) error
}
