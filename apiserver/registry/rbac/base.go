package rbac

import (
	"context"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/runtime"
)

// base is what the four RBAC strategies share: nothing to reset on
// create or update, PUT may create (as upstream), no selectable fields
// beyond metadata, and nothing held to release on delete.
type base struct{}

// PrepareForCreate implements registry.Strategy.
func (base) PrepareForCreate(context.Context, runtime.Object) {}

// PrepareForUpdate implements registry.Strategy.
func (base) PrepareForUpdate(context.Context, runtime.Object, runtime.Object) {}

// AllowCreateOnUpdate implements registry.Strategy: as upstream, PUT may
// create a role or binding.
func (base) AllowCreateOnUpdate() bool { return true }

// AllowUnconditionalUpdate implements registry.Strategy.
func (base) AllowUnconditionalUpdate() bool { return true }

// SelectableFields implements registry.Strategy: only the metadata fields.
func (base) SelectableFields(runtime.Object) fields.Set { return nil }

// AfterDelete implements registry.AllocatingStrategy.
func (base) AfterDelete(context.Context, runtime.Object) {}
