package rbac

import (
	"context"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
)

// base is what the four RBAC strategies share: nothing to reset on
// create or update, PUT may create (as upstream), no selectable fields
// beyond metadata, and nothing held to release on delete.
type base struct{ registry.DefaultStrategy }

// AllowCreateOnUpdate implements registry.Strategy: as upstream, PUT may
// create a role or binding.
func (base) AllowCreateOnUpdate() bool { return true }

// AfterDelete implements registry.AllocatingStrategy.
func (base) AfterDelete(context.Context, runtime.Object) {}
