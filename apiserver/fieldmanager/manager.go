package fieldmanager

// Manager is one link of the field manager's chain. Objects are decoded
// JSON without metadata.managedFields; managed carries those. Neither
// call modifies live.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal (Manager).
type Manager interface {
	// Update records that manager changed live into obj (a create,
	// update or non-apply patch, already computed). It returns obj, which
	// it may have modified, and the new managed fields.
	Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error)
	// Apply merges the applied configuration into live on behalf of
	// manager, failing with merge.Conflicts when it would change fields
	// others own, unless force. It returns the merged object, or nil when
	// the apply changes nothing, and the new managed fields.
	Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error)
}
