package replicaset

import (
	"github.com/minicp/minicp/controllers/expectations"
	"github.com/minicp/minicp/controllers/handler"
)

// PodEventHandler returns the handler AddWithOptions puts on the pod
// watch, for tests that feed it events themselves.
func (r *Reconciler) PodEventHandler() handler.EventHandler { return podEventHandler{r: r} }

// Expectations returns r's expectations, for tests.
func (r *Reconciler) Expectations() *expectations.Expectations { return r.expectations }
