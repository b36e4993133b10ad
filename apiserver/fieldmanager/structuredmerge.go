package fieldmanager

import (
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/minicp/minicp/api/apierrors"
)

// structuredMergeManager is the end of the chain: structured-merge-diff
// computes who owns what after an update, and merges an apply.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (structuredMergeManager).
type structuredMergeManager struct {
	typeConverter *TypeConverter
	// apiVersion is the version the resource is served at, which the
	// managers' field sets are recorded at.
	apiVersion string
	updater    merge.Updater
}

func newStructuredMergeManager(tc *TypeConverter, apiVersion string, resetFields map[fieldpath.APIVersion]fieldpath.Filter) *structuredMergeManager {
	return &structuredMergeManager{
		typeConverter: tc,
		apiVersion:    apiVersion,
		updater:       merge.Updater{Converter: versionConverter{tc: tc}, IgnoreFilter: resetFields},
	}
}

// Update implements Manager.
func (f *structuredMergeManager) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	objTyped, err := f.typeConverter.ObjectToTyped(obj, typed.AllowDuplicates)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to convert new object (%s) to smd typed: %w", describe(obj), err)
	}
	liveTyped, err := f.typeConverter.ObjectToTyped(live, typed.AllowDuplicates)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to convert live object (%s) to smd typed: %w", describe(live), err)
	}
	_, fields, err := f.updater.Update(liveTyped, objTyped, fieldpath.APIVersion(f.apiVersion), managed.Fields, manager)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to update ManagedFields (%s): %w", describe(obj), err)
	}
	return obj, &Managed{Fields: fields, Times: managed.Times}, nil
}

// Apply implements Manager.
func (f *structuredMergeManager) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	if v, _ := applied["apiVersion"].(string); v != f.apiVersion {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf(
			"Incorrect version specified in apply patch. Specified patch version: %s, expected: %s", v, f.apiVersion))
	}
	if meta, _ := applied["metadata"].(map[string]any); meta != nil {
		if _, ok := meta["managedFields"]; ok && meta["managedFields"] != nil {
			return nil, nil, apierrors.NewBadRequest("metadata.managedFields must be nil")
		}
	}
	liveTyped, err := f.typeConverter.ObjectToTyped(live, typed.AllowDuplicates)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to create typed live object (%s): %w", describe(live), err)
	}
	// The applied configuration may not repeat a key or a set member.
	appliedTyped, err := f.typeConverter.ObjectToTyped(applied)
	if err != nil {
		return nil, nil, apierrors.NewBadRequest(fmt.Sprintf("failed to create typed patch object (%s): %v", describe(applied), err))
	}
	merged, fields, err := f.updater.Apply(liveTyped, appliedTyped, fieldpath.APIVersion(f.apiVersion), managed.Fields, manager, force)
	if err != nil {
		return nil, nil, err
	}
	managed = &Managed{Fields: fields, Times: managed.Times}
	if merged == nil {
		return nil, managed, nil
	}
	out, ok := merged.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, nil, fmt.Errorf("failed to convert new typed object (%s) to object", describe(applied))
	}
	return out, managed, nil
}

// describe names an object in errors: namespace/name; kind.
func describe(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	ns, _ := meta["namespace"].(string)
	name, _ := meta["name"].(string)
	return fmt.Sprintf("%s/%s; %s", ns, name, objectGVK(obj))
}
