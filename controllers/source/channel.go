package source

import (
	"context"
	"errors"

	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
)

// ChannelSource is a source of events from outside the cluster: whatever
// is sent on its channel goes to its handler's Generic. Make one with
// Channel.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/internal/source (channel),
// which also fans one channel out to several controllers; a
// ChannelSource feeds one.
type ChannelSource struct {
	eventsCh <-chan event.GenericEvent
	handler  handler.EventHandler
}

var _ Source = (*ChannelSource)(nil)

// Channel returns the source of the events sent on ch. The sender owns ch
// and may close it; the source then delivers nothing more.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/source (Channel).
func Channel(ch <-chan event.GenericEvent, h handler.EventHandler) *ChannelSource {
	return &ChannelSource{eventsCh: ch, handler: h}
}

// Start implements Source: it calls the handler for each event received
// until ctx is done, recovering its panics (logged to ctx's logger).
func (c *ChannelSource) Start(ctx context.Context, q handler.Queue) error {
	if c.eventsCh == nil || c.handler == nil {
		return errors.New("source: Channel needs a channel and a handler")
	}
	ch := c.eventsCh
	for {
		select {
		case <-ctx.Done():
			return nil
		case ev, ok := <-ch:
			if !ok {
				// Closed: nothing more will come; wait for the stop.
				ch = nil
				continue
			}
			recoverHandler(ctx, func() { c.handler.Generic(ctx, ev, q) })
		}
	}
}
