package admission

import (
	"context"

	"github.com/minicp/minicp/api/runtime"
)

// Defaulting fills the fields Kubernetes defaults when a client leaves
// them out (a pod's restartPolicy, a container's imagePullPolicy...), on
// every create and update, before validation sees the object.
type Defaulting struct {
	// SetDefaults defaults obj in place; kinds it does not know are left
	// alone.
	SetDefaults func(obj runtime.Object)
}

var _ MutationInterface = (*Defaulting)(nil)

// Name implements Plugin.
func (*Defaulting) Name() string { return "Defaulting" }

// Handles implements Plugin.
func (*Defaulting) Handles(op Operation) bool { return op == Create || op == Update }

// Admit implements MutationInterface.
func (d *Defaulting) Admit(_ context.Context, a *Attributes) error {
	if a.Object != nil && d.SetDefaults != nil {
		d.SetDefaults(a.Object)
	}
	return nil
}
