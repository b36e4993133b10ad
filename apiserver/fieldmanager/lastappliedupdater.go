package fieldmanager

import (
	"encoding/json"
	"fmt"
	"maps"
)

// LastAppliedConfigAnnotation is where client-side `kubectl apply` keeps
// the configuration it last applied.
const LastAppliedConfigAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// lastAppliedUpdater keeps client-side apply's annotation in step with a
// server-side apply by kubectl: an object that has the annotation gets
// the configuration just applied in it, so a later client-side apply
// computes its patch from what was really applied last.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (lastAppliedUpdater).
type lastAppliedUpdater struct {
	next Manager
}

// Update implements Manager.
func (f *lastAppliedUpdater) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	return f.next.Update(live, obj, managed, manager)
}

// Apply implements Manager. Only the manager kubectl syncs the
// annotation; another manager name opts out.
func (f *lastAppliedUpdater) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	obj, managed, err := f.next.Apply(live, applied, managed, manager, force)
	if err != nil {
		return nil, nil, err
	}
	if manager != "kubectl" || lastApplied(obj) == "" {
		return obj, managed, nil
	}
	value, err := buildLastApplied(applied)
	if err != nil {
		return nil, nil, fmt.Errorf("failed to build last-applied annotation: %w", err)
	}
	meta := maps.Clone(obj["metadata"].(map[string]any))
	annotations := maps.Clone(meta["annotations"].(map[string]any))
	annotations[LastAppliedConfigAnnotation] = value
	meta["annotations"] = annotations
	obj = maps.Clone(obj)
	obj["metadata"] = meta
	return obj, managed, nil
}

// lastApplied is obj's client-side apply annotation, "" when absent.
func lastApplied(obj map[string]any) string {
	meta, _ := obj["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	v, _ := annotations[LastAppliedConfigAnnotation].(string)
	return v
}

// buildLastApplied is the applied configuration as JSON, without the
// annotation itself.
func buildLastApplied(applied map[string]any) (string, error) {
	obj := applied
	if meta, _ := applied["metadata"].(map[string]any); meta != nil {
		if annotations, _ := meta["annotations"].(map[string]any); annotations != nil {
			if _, ok := annotations[LastAppliedConfigAnnotation]; ok {
				annotations = maps.Clone(annotations)
				delete(annotations, LastAppliedConfigAnnotation)
				meta = maps.Clone(meta)
				meta["annotations"] = annotations
				obj = maps.Clone(applied)
				obj["metadata"] = meta
			}
		}
	}
	b, err := json.Marshal(obj)
	if err != nil {
		return "", err
	}
	return string(b), nil
}
