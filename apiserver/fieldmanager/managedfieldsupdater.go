package fieldmanager

import (
	"maps"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/clock"
)

// managedFieldsUpdater stamps the time of a manager's change. An update
// runs under a placeholder manager, so that only a write that took
// fields touches the manager's entry: its new fields are then merged
// into what the manager already owned, and its time set.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (managedFieldsUpdater).
type managedFieldsUpdater struct {
	next  Manager
	clock clock.Clock
}

// currentOperation is the placeholder manager of an update.
const currentOperation = "current-operation"

// Update implements Manager.
func (f *managedFieldsUpdater) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	obj, managed, err := f.next.Update(live, obj, managed, currentOperation)
	if err != nil {
		return nil, nil, err
	}
	if vs, ok := managed.Fields[currentOperation]; ok {
		delete(managed.Fields, currentOperation)
		if previous, ok := managed.Fields[manager]; ok {
			managed.Fields[manager] = fieldpath.NewVersionedSet(vs.Set().Union(previous.Set()), vs.APIVersion(), vs.Applied())
		} else {
			managed.Fields[manager] = vs
		}
		managed.Times[manager] = f.now()
	}
	return obj, managed, nil
}

// Apply implements Manager.
func (f *managedFieldsUpdater) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	obj, managed, err := f.next.Apply(live, applied, managed, manager, force)
	if err != nil {
		return nil, nil, err
	}
	if obj != nil {
		managed.Times[manager] = f.now()
	} else {
		// Nothing changed: the object stays as it is.
		obj = maps.Clone(live)
	}
	return obj, managed, nil
}

// now is the time of an operation, in UTC and to the second, which is
// all managedFields keep on the wire.
func (f *managedFieldsUpdater) now() *metav1.Time {
	t := metav1.NewTime(f.clock.Now().UTC().Truncate(1e9))
	return &t
}
