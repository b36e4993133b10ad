package fieldmanager

import (
	"fmt"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// buildManagerInfoManager turns the manager name of a request into its
// identifier: the name, operation, apiVersion (updates only) and
// subresource. An empty name is "unknown".
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (buildManagerInfoManager).
type buildManagerInfoManager struct {
	next        Manager
	apiVersion  string
	subresource string
}

// Update implements Manager.
func (f *buildManagerInfoManager) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	id, err := f.identifier(manager, metav1.ManagedFieldsOperationUpdate)
	if err != nil {
		return nil, nil, err
	}
	return f.next.Update(live, obj, managed, id)
}

// Apply implements Manager.
func (f *buildManagerInfoManager) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	id, err := f.identifier(manager, metav1.ManagedFieldsOperationApply)
	if err != nil {
		return nil, nil, err
	}
	return f.next.Apply(live, applied, managed, id, force)
}

func (f *buildManagerInfoManager) identifier(manager, operation string) (string, error) {
	if manager == "" {
		manager = "unknown"
	}
	id, err := BuildManagerIdentifier(&metav1.ManagedFieldsEntry{
		Manager: manager, Operation: operation, APIVersion: f.apiVersion, Subresource: f.subresource,
	})
	if err != nil {
		return "", fmt.Errorf("failed to build manager identifier: %w", err)
	}
	return id, nil
}
