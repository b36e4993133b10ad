//go:build solution

package configmapcontroller

import (
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/manager"
)

// SetupWithManager registers r with mgr: a change to a ConfigMap queues
// that ConfigMap, and a change to a Deployment queues the ConfigMap that
// controls it (Owns follows the controller ownerReference), so a
// Deployment deleted or edited by hand is put back.
func (r *Reconciler) SetupWithManager(mgr *manager.Manager) error {
	return builder.ControllerManagedBy(mgr).
		For(&corev1.ConfigMap{}).
		Owns(&appsv1.Deployment{}).
		Complete(r)
}
