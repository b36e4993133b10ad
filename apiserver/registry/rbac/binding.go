package rbac

import (
	"context"
	"strings"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

var (
	roleBindingsResource        = rbacv1.SchemeGroupVersion.WithResource("rolebindings").GroupResource()
	clusterRoleBindingsResource = rbacv1.SchemeGroupVersion.WithResource("clusterrolebindings").GroupResource()
)

// RoleBindingStrategy is the rules of the rolebindings resource.
type RoleBindingStrategy struct {
	base
	Escalation Escalation
}

var (
	_ registry.Strategy           = RoleBindingStrategy{}
	_ registry.AllocatingStrategy = RoleBindingStrategy{}
)

// Validate implements registry.Strategy.
func (RoleBindingStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateRoleBinding(obj.(*rbacv1.RoleBinding))
}

// ValidateUpdate implements registry.Strategy: roleRef is immutable.
func (RoleBindingStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateRoleBindingUpdate(obj.(*rbacv1.RoleBinding), old.(*rbacv1.RoleBinding))
}

// BeginCreate implements registry.AllocatingStrategy: the bind check.
func (s RoleBindingStrategy) BeginCreate(ctx context.Context, obj runtime.Object, _ bool) (registry.FinishFunc, error) {
	b := obj.(*rbacv1.RoleBinding)
	return noFinish, s.Escalation.confirmBinding(ctx, roleBindingsResource, b.Namespace, b.Name, b.RoleRef)
}

// BeginUpdate implements registry.AllocatingStrategy: the bind check, on
// every update but one that changes only metadata (the garbage
// collector's finalizers and owner references).
func (s RoleBindingStrategy) BeginUpdate(ctx context.Context, obj, old runtime.Object, _ bool) (registry.FinishFunc, error) {
	b, o := obj.(*rbacv1.RoleBinding), old.(*rbacv1.RoleBinding)
	if subjectsEqual(b.Subjects, o.Subjects) && b.RoleRef == o.RoleRef {
		return noFinish, nil
	}
	return noFinish, s.Escalation.confirmBinding(ctx, roleBindingsResource, b.Namespace, b.Name, b.RoleRef)
}

// ClusterRoleBindingStrategy is the rules of the clusterrolebindings
// resource.
type ClusterRoleBindingStrategy struct {
	base
	Escalation Escalation
}

var (
	_ registry.Strategy           = ClusterRoleBindingStrategy{}
	_ registry.AllocatingStrategy = ClusterRoleBindingStrategy{}
)

// Validate implements registry.Strategy.
func (ClusterRoleBindingStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateClusterRoleBinding(obj.(*rbacv1.ClusterRoleBinding))
}

// ValidateUpdate implements registry.Strategy: roleRef is immutable.
func (ClusterRoleBindingStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateClusterRoleBindingUpdate(obj.(*rbacv1.ClusterRoleBinding), old.(*rbacv1.ClusterRoleBinding))
}

// BeginCreate implements registry.AllocatingStrategy: the bind check,
// cluster-wide.
func (s ClusterRoleBindingStrategy) BeginCreate(ctx context.Context, obj runtime.Object, _ bool) (registry.FinishFunc, error) {
	b := obj.(*rbacv1.ClusterRoleBinding)
	return noFinish, s.Escalation.confirmBinding(ctx, clusterRoleBindingsResource, "", b.Name, b.RoleRef)
}

// BeginUpdate implements registry.AllocatingStrategy: the bind check,
// unless only metadata changes.
func (s ClusterRoleBindingStrategy) BeginUpdate(ctx context.Context, obj, old runtime.Object, _ bool) (registry.FinishFunc, error) {
	b, o := obj.(*rbacv1.ClusterRoleBinding), old.(*rbacv1.ClusterRoleBinding)
	if subjectsEqual(b.Subjects, o.Subjects) && b.RoleRef == o.RoleRef {
		return noFinish, nil
	}
	return noFinish, s.Escalation.confirmBinding(ctx, clusterRoleBindingsResource, "", b.Name, b.RoleRef)
}

func subjectsEqual(a, b []rbacv1.Subject) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// BindingTable prints role bindings and cluster role bindings as `kubectl
// get rolebindings` does: the role as Kind/name, the age, and with -o
// wide the users, groups and ServiceAccounts.
var BindingTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Role", Type: "string", Description: "RoleRef can reference a Role in the current namespace or a ClusterRole in the global namespace. If the RoleRef cannot be resolved, the Authorizer must return an error. This field is immutable."},
		printers.AgeColumn,
		{Name: "Users", Type: "string", Priority: 1, Description: "Users in the roleBinding"},
		{Name: "Groups", Type: "string", Priority: 1, Description: "Groups in the roleBinding"},
		{Name: "ServiceAccounts", Type: "string", Priority: 1, Description: "ServiceAccounts in the roleBinding"},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		var (
			name     string
			ref      rbacv1.RoleRef
			subjects []rbacv1.Subject
		)
		switch b := obj.(type) {
		case *rbacv1.RoleBinding:
			name, ref, subjects = b.Name, b.RoleRef, b.Subjects
		case *rbacv1.ClusterRoleBinding:
			name, ref, subjects = b.Name, b.RoleRef, b.Subjects
		}
		var users, groups, sas []string
		for _, s := range subjects {
			switch s.Kind {
			case rbacv1.UserKind:
				users = append(users, s.Name)
			case rbacv1.GroupKind:
				groups = append(groups, s.Name)
			case rbacv1.ServiceAccountKind:
				sas = append(sas, s.Namespace+"/"+s.Name)
			}
		}
		return []any{name, ref.Kind + "/" + ref.Name, printers.Age(obj, now),
			strings.Join(users, ", "), strings.Join(groups, ", "), strings.Join(sas, ", ")}
	},
}
