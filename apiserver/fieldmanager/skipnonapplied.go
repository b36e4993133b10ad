package fieldmanager

import "fmt"

// skipNonAppliedManager starts tracking an object's fields at its
// creation: an update of an object that has no managed fields (written
// before tracking, or reset by a client) records nothing, and the first
// apply to such an object first gives its existing fields to the
// "before-first-apply" manager, so the applier does not silently own
// fields someone else set.
//
// Upstream tracks on create with a configurable probability, always 1 in
// kube-apiserver; minicp always tracks.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (skipNonAppliedManager).
type skipNonAppliedManager struct {
	next Manager
}

// beforeFirstApply owns the fields an object had before its first apply.
const beforeFirstApply = "before-first-apply"

// Update implements Manager.
func (f *skipNonAppliedManager) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	if len(managed.Fields) == 0 && objectUID(live) != "" {
		return obj, managed, nil
	}
	return f.next.Update(live, obj, managed, manager)
}

// Apply implements Manager.
func (f *skipNonAppliedManager) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	if len(managed.Fields) == 0 {
		empty := map[string]any{"apiVersion": applied["apiVersion"], "kind": applied["kind"]}
		var err error
		live, managed, err = f.next.Update(empty, live, managed, beforeFirstApply)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to create manager for existing fields: %w", err)
		}
	}
	return f.next.Apply(live, applied, managed, manager, force)
}

// objectUID reads metadata.uid, "" for an object not stored yet.
func objectUID(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	uid, _ := meta["uid"].(string)
	return uid
}
