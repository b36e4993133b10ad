package fieldmanager

import (
	"encoding/json"
	"errors"
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/value"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/clock"
)

// Options configures New.
type Options struct {
	// TypeConverter has the schema of Kind. Required.
	TypeConverter *TypeConverter
	// Kind is the kind (at the version) the resource is served as.
	// Required.
	Kind runtime.GroupVersionKind
	// Subresource is "" for the resource itself, or "status": a
	// subresource's writers get entries of their own.
	Subresource string
	// ResetFields are the top-level fields this endpoint's writes do not
	// change, so nobody comes to own them through it: status on the main
	// resource of a kind with a status subresource, spec on the status
	// subresource.
	//
	// Upstream: each strategy's GetResetFields.
	ResetFields []string
	// Clock stamps the operations. Defaults to clock.Real.
	Clock clock.Clock
}

// FieldManager maintains the managedFields of the objects of one
// resource (or subresource) and merges server-side applies into them.
// It is safe for concurrent use.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields (FieldManager).
type FieldManager struct {
	manager     Manager
	subresource string
}

// New builds the chain of managers of one resource.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (NewDefaultFieldManager).
func New(opts Options) (*FieldManager, error) {
	switch {
	case opts.TypeConverter == nil:
		return nil, errors.New("fieldmanager: TypeConverter is required")
	case opts.Kind.Kind == "":
		return nil, errors.New("fieldmanager: Kind is required")
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	apiVersion := opts.Kind.GroupVersion().String()
	var resetFields map[fieldpath.APIVersion]fieldpath.Filter
	if len(opts.ResetFields) > 0 {
		set := fieldpath.NewSet()
		for _, f := range opts.ResetFields {
			set.Insert(fieldpath.MakePathOrDie(f))
		}
		resetFields = map[fieldpath.APIVersion]fieldpath.Filter{
			fieldpath.APIVersion(apiVersion): fieldpath.NewExcludeSetFilter(set),
		}
	}
	var m Manager = newStructuredMergeManager(opts.TypeConverter, apiVersion, resetFields)
	m = &stripMetaManager{next: m}
	m = &managedFieldsUpdater{next: m, clock: opts.Clock}
	m = &buildManagerInfoManager{next: m, apiVersion: apiVersion, subresource: opts.Subresource}
	m = &capManagersManager{next: m, max: DefaultMaxUpdateManagers}
	m = &skipNonAppliedManager{next: m}
	m = &lastAppliedUpdater{next: m}
	m = &versionCheckManager{next: m, gvk: opts.Kind}
	return &FieldManager{manager: m, subresource: opts.Subresource}, nil
}

// Update sets obj's managedFields for a write by manager that turns live
// into obj: a create (live nil), an update or a non-apply patch. The
// managedFields obj carries are taken as the client's wish when they
// decode, so a client may edit them; a client that sends none (or ones
// that do not decode) keeps live's, one that sends an empty list or a
// single empty entry clears them, and on a subresource the client's are
// ignored. Update never fails the write: if the fields cannot be
// computed, obj keeps live's managedFields.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields (FieldManager.UpdateNoErrors).
func (f *FieldManager) Update(live, obj runtime.Object, manager string) {
	objMeta, err := metav1.Accessor(obj)
	if err != nil {
		return
	}
	var liveEntries []metav1.ManagedFieldsEntry
	if live != nil {
		if liveMeta, err := metav1.Accessor(live); err == nil {
			liveEntries = liveMeta.ManagedFields
		}
	}
	entries, err := f.update(live, obj, objMeta.ManagedFields, liveEntries, manager)
	if err != nil {
		entries = liveEntries
	}
	objMeta.ManagedFields = entries
}

func (f *FieldManager) update(live, obj runtime.Object, objEntries, liveEntries []metav1.ManagedFieldsEntry, manager string) ([]metav1.ManagedFieldsEntry, error) {
	managed, err := f.decodeLiveOrNew(objEntries, liveEntries)
	if err != nil {
		return nil, err
	}
	liveContent := map[string]any{}
	if live != nil {
		if liveContent, err = ToUnstructured(live); err != nil {
			return nil, err
		}
	}
	objContent, err := ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	if live == nil {
		liveContent["apiVersion"], liveContent["kind"] = objContent["apiVersion"], objContent["kind"]
	}
	_, managed, err = f.manager.Update(liveContent, objContent, managed, manager)
	if err != nil {
		return nil, err
	}
	return EncodeManagedFields(managed)
}

// decodeLiveOrNew picks the managed fields an update starts from.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal (decodeLiveOrNew).
func (f *FieldManager) decodeLiveOrNew(objEntries, liveEntries []metav1.ManagedFieldsEntry) (*Managed, error) {
	if f.subresource == "" {
		if isResetManagedFields(objEntries) {
			return newEmptyManaged(), nil
		}
		if managed, err := DecodeManagedFields(objEntries); err == nil && len(managed.Fields) > 0 {
			return managed, nil
		}
	}
	managed, err := DecodeManagedFields(liveEntries)
	if err != nil {
		return newEmptyManaged(), nil
	}
	return managed, nil
}

// Apply merges applied, a configuration decoded from an apply patch,
// into live (nil or an empty object of the kind when the object does not
// exist yet) on behalf of manager, and returns the merged object and its
// managedFields. A merge that would change fields other managers own
// fails with a Conflict Status (see NewConflictError) unless force, which
// takes the fields over. Errors that are the client's are Status errors.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields (FieldManager.Apply).
func (f *FieldManager) Apply(live runtime.Object, applied map[string]any, manager string, force bool) (map[string]any, []metav1.ManagedFieldsEntry, error) {
	liveContent := map[string]any{"apiVersion": applied["apiVersion"], "kind": applied["kind"]}
	var liveEntries []metav1.ManagedFieldsEntry
	if live != nil {
		var err error
		if liveContent, err = ToUnstructured(live); err != nil {
			return nil, nil, err
		}
		liveEntries = metav1.MustAccessor(live).ManagedFields
	}
	managed, err := DecodeManagedFields(liveEntries)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to decode managed fields: %w", err)
	}
	obj, managed, err := f.manager.Apply(liveContent, applied, managed, manager, force)
	if err != nil {
		var conflicts merge.Conflicts
		if errors.As(err, &conflicts) {
			return nil, nil, NewConflictError(conflicts)
		}
		return nil, nil, err
	}
	entries, err := EncodeManagedFields(managed)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to encode managed fields: %w", err)
	}
	return obj, entries, nil
}

// ToUnstructured is obj as decoded JSON without its managedFields, with
// integers as int64 as structured-merge-diff expects them.
func ToUnstructured(obj runtime.Object) (map[string]any, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, err
	}
	v, err := value.FromJSON(data)
	if err != nil {
		return nil, err
	}
	m, ok := v.Unstructured().(map[string]any)
	if !ok {
		return nil, fmt.Errorf("object is not a JSON object")
	}
	if meta, ok := m["metadata"].(map[string]any); ok {
		delete(meta, "managedFields")
	}
	return m, nil
}
