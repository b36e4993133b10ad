package fieldmanager

import "sigs.k8s.io/structured-merge-diff/v6/fieldpath"

// stripMetaManager removes from a manager's set the fields nobody owns:
// apiVersion, kind and the metadata the server sets.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (stripMetaManager).
type stripMetaManager struct {
	next Manager
}

// stripSet is the fields that are never part of a manager's set.
var stripSet = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

// Update implements Manager.
func (f *stripMetaManager) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	obj, managed, err := f.next.Update(live, obj, managed, manager)
	if err != nil {
		return nil, nil, err
	}
	stripFields(managed.Fields, manager)
	return obj, managed, nil
}

// Apply implements Manager.
func (f *stripMetaManager) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	obj, managed, err := f.next.Apply(live, applied, managed, manager, force)
	if err != nil {
		return nil, nil, err
	}
	stripFields(managed.Fields, manager)
	return obj, managed, nil
}

// stripFields removes stripSet from manager's set, and the manager when
// nothing is left.
func stripFields(fields fieldpath.ManagedFields, manager string) {
	vs, ok := fields[manager]
	if !ok {
		return
	}
	set := vs.Set().Difference(stripSet)
	if set.Empty() {
		delete(fields, manager)
		return
	}
	fields[manager] = fieldpath.NewVersionedSet(set, vs.APIVersion(), vs.Applied())
}
