package rbac

import (
	"context"
	"reflect"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// RoleStrategy is the rules of the roles resource.
type RoleStrategy struct {
	base
	Escalation Escalation
}

var (
	_ registry.Strategy           = RoleStrategy{}
	_ registry.AllocatingStrategy = RoleStrategy{}
)

// Validate implements registry.Strategy.
func (RoleStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateRole(obj.(*rbacv1.Role))
}

// ValidateUpdate implements registry.Strategy.
func (RoleStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateRoleUpdate(obj.(*rbacv1.Role), old.(*rbacv1.Role))
}

// BeginCreate implements registry.AllocatingStrategy: the escalation
// check.
func (s RoleStrategy) BeginCreate(ctx context.Context, obj runtime.Object, _ bool) (registry.FinishFunc, error) {
	r := obj.(*rbacv1.Role)
	return noFinish, s.Escalation.confirmRoleWrite(ctx, rolesResource, r.Namespace, r.Name, r.Rules)
}

// BeginUpdate implements registry.AllocatingStrategy: the escalation
// check, when the rules change.
func (s RoleStrategy) BeginUpdate(ctx context.Context, obj, old runtime.Object, _ bool) (registry.FinishFunc, error) {
	r := obj.(*rbacv1.Role)
	if reflect.DeepEqual(r.Rules, old.(*rbacv1.Role).Rules) {
		return noFinish, nil
	}
	return noFinish, s.Escalation.confirmRoleWrite(ctx, rolesResource, r.Namespace, r.Name, r.Rules)
}

// ClusterRoleStrategy is the rules of the clusterroles resource.
type ClusterRoleStrategy struct {
	base
	Escalation Escalation
}

var (
	_ registry.Strategy           = ClusterRoleStrategy{}
	_ registry.AllocatingStrategy = ClusterRoleStrategy{}
)

// Validate implements registry.Strategy.
func (ClusterRoleStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateClusterRole(obj.(*rbacv1.ClusterRole))
}

// ValidateUpdate implements registry.Strategy.
func (ClusterRoleStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateClusterRoleUpdate(obj.(*rbacv1.ClusterRole), old.(*rbacv1.ClusterRole))
}

// BeginCreate implements registry.AllocatingStrategy: the escalation
// check, cluster-wide.
func (s ClusterRoleStrategy) BeginCreate(ctx context.Context, obj runtime.Object, _ bool) (registry.FinishFunc, error) {
	r := obj.(*rbacv1.ClusterRole)
	return noFinish, s.Escalation.confirmRoleWrite(ctx, clusterRolesResource, "", r.Name, r.Rules)
}

// BeginUpdate implements registry.AllocatingStrategy: the escalation
// check, when the rules change.
func (s ClusterRoleStrategy) BeginUpdate(ctx context.Context, obj, old runtime.Object, _ bool) (registry.FinishFunc, error) {
	r := obj.(*rbacv1.ClusterRole)
	if reflect.DeepEqual(r.Rules, old.(*rbacv1.ClusterRole).Rules) {
		return noFinish, nil
	}
	return noFinish, s.Escalation.confirmRoleWrite(ctx, clusterRolesResource, "", r.Name, r.Rules)
}

// RoleTable prints roles and cluster roles as `kubectl get roles` does:
// name and creation time.
var RoleTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Created At", Type: "date", Description: "CreationTimestamp is a timestamp representing the server time when this object was created."},
	},
	Cells: func(obj runtime.Object, _ time.Time) []any {
		m, _ := metav1.Accessor(obj)
		return []any{m.Name, m.CreationTimestamp.UTC().Format(time.RFC3339)}
	},
}
