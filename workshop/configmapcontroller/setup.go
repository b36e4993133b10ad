//go:build !solution

package configmapcontroller

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/manager"
)

// SetupWithManager registers r with mgr: a change to a ConfigMap queues
// that ConfigMap.
//
// TODO(you): a Deployment deleted or edited by hand should bring its
// ConfigMap back to the queue too. Which builder call maps an event on an
// object to its controller owner?
func (r *Reconciler) SetupWithManager(mgr *manager.Manager) error {
	return builder.ControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Complete(r)
}
