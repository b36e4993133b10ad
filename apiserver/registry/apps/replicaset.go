package apps

import (
	"context"
	"strconv"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	"github.com/minicp/minicp/api/fields"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// ReplicaSetStrategy is the rules of the replicasets resource: the spec is
// the client's (usually the deployment controller) and the status the
// replicaset controller's.
//
// Upstream: k8s.io/kubernetes/pkg/registry/apps/replicaset (rsStrategy).
type ReplicaSetStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: a new ReplicaSet has no
// status.
func (ReplicaSetStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	obj.(*appsv1.ReplicaSet).Status = appsv1.ReplicaSetStatus{}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (ReplicaSetStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*appsv1.ReplicaSet).Status = old.(*appsv1.ReplicaSet).Status
}

// Validate implements registry.Strategy.
func (ReplicaSetStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateReplicaSet(obj.(*appsv1.ReplicaSet))
}

// ValidateUpdate implements registry.Strategy.
func (ReplicaSetStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateReplicaSetUpdate(obj.(*appsv1.ReplicaSet), old.(*appsv1.ReplicaSet))
}

// TracksGeneration implements registry.GenerationStrategy: the replicaset
// controller reports it as status.observedGeneration.
func (ReplicaSetStrategy) TracksGeneration() bool { return true }

// SelectableFields implements registry.Strategy with status.replicas, as
// upstream.
func (ReplicaSetStrategy) SelectableFields(obj runtime.Object) fields.Set {
	return fields.Set{"status.replicas": strconv.Itoa(int(obj.(*appsv1.ReplicaSet).Status.Replicas))}
}

// ReplicaSetStatusStrategy is the rules of replicasets/status: only status
// changes.
type ReplicaSetStatusStrategy struct{ ReplicaSetStrategy }

// PrepareForUpdate implements registry.Strategy.
func (ReplicaSetStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*appsv1.ReplicaSet).Spec = old.(*appsv1.ReplicaSet).Spec
}

// ValidateUpdate implements registry.Strategy.
func (ReplicaSetStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateReplicaSetStatusUpdate(obj.(*appsv1.ReplicaSet), old.(*appsv1.ReplicaSet))
}

// ReplicaSetScale is where a ReplicaSet keeps what replicasets/scale
// shows: spec.replicas, status.replicas and spec.selector.
var ReplicaSetScale = registry.ScaleSubresource{
	SpecReplicas: func(obj runtime.Object) int32 { return replicas(obj.(*appsv1.ReplicaSet).Spec.Replicas) },
	SetSpecReplicas: func(obj runtime.Object, n int32) {
		obj.(*appsv1.ReplicaSet).Spec.Replicas = &n
	},
	StatusReplicas: func(obj runtime.Object) int32 { return obj.(*appsv1.ReplicaSet).Status.Replicas },
	Selector: func(obj runtime.Object) (string, error) {
		return selectorString(obj.(*appsv1.ReplicaSet).Spec.Selector)
	},
}

// ReplicaSetTable prints replica sets as `kubectl get replicasets` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printReplicaSet).
var ReplicaSetTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Desired", Type: "integer", Description: "Replicas is the number of desired pods. This is a pointer to distinguish between explicit zero and unspecified. Defaults to 1."},
		{Name: "Current", Type: "integer", Description: "Replicas is the most recently observed number of non-terminating pods."},
		{Name: "Ready", Type: "integer", Description: "The number of non-terminating pods targeted by this ReplicaSet with a Ready Condition."},
		printers.AgeColumn,
		{Name: "Containers", Type: "string", Priority: 1, Description: "Names of each container in the template."},
		{Name: "Images", Type: "string", Priority: 1, Description: "Images referenced by each container in the template."},
		{Name: "Selector", Type: "string", Priority: 1, Description: "Selector is a label query over pods that should match the replica count."},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		rs := obj.(*appsv1.ReplicaSet)
		names, images := printers.ContainerCells(rs.Spec.Template.Spec.Containers)
		return []any{rs.Name, int64(replicas(rs.Spec.Replicas)), int64(rs.Status.Replicas), int64(rs.Status.ReadyReplicas),
			printers.Age(obj, now), names, images, printers.SelectorCell(rs.Spec.Selector)}
	},
}
