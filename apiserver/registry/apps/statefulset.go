package apps

import (
	"context"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// StatefulSetStrategy is the rules of the statefulsets resource: the spec
// is the client's and the status the statefulset controller's (minicp
// runs none: the status is whatever a client writes to /status).
//
// Upstream: k8s.io/kubernetes/pkg/registry/apps/statefulset (statefulSetStrategy).
type StatefulSetStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: a new StatefulSet has no
// status.
func (StatefulSetStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	obj.(*appsv1.StatefulSet).Status = appsv1.StatefulSetStatus{}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (StatefulSetStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*appsv1.StatefulSet).Status = old.(*appsv1.StatefulSet).Status
}

// Validate implements registry.Strategy.
func (StatefulSetStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateStatefulSet(obj.(*appsv1.StatefulSet))
}

// ValidateUpdate implements registry.Strategy.
func (StatefulSetStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateStatefulSetUpdate(obj.(*appsv1.StatefulSet), old.(*appsv1.StatefulSet))
}

// TracksGeneration implements registry.GenerationStrategy: the
// statefulset controller reports it as status.observedGeneration.
func (StatefulSetStrategy) TracksGeneration() bool { return true }

// StatefulSetStatusStrategy is the rules of statefulsets/status: only
// status changes.
type StatefulSetStatusStrategy struct{ StatefulSetStrategy }

// PrepareForUpdate implements registry.Strategy.
func (StatefulSetStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*appsv1.StatefulSet).Spec = old.(*appsv1.StatefulSet).Spec
}

// ValidateUpdate implements registry.Strategy.
func (StatefulSetStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateStatefulSetStatusUpdate(obj.(*appsv1.StatefulSet), old.(*appsv1.StatefulSet))
}

// StatefulSetScale is where a StatefulSet keeps what statefulsets/scale
// shows: spec.replicas, status.replicas and spec.selector.
var StatefulSetScale = registry.ScaleSubresource{
	SpecReplicas: func(obj runtime.Object) int32 { return replicas(obj.(*appsv1.StatefulSet).Spec.Replicas) },
	SetSpecReplicas: func(obj runtime.Object, n int32) {
		obj.(*appsv1.StatefulSet).Spec.Replicas = &n
	},
	StatusReplicas: func(obj runtime.Object) int32 { return obj.(*appsv1.StatefulSet).Status.Replicas },
	Selector: func(obj runtime.Object) (string, error) {
		return selectorString(obj.(*appsv1.StatefulSet).Spec.Selector)
	},
}

// StatefulSetTable prints stateful sets as `kubectl get statefulsets`
// does: NAME READY AGE, and CONTAINERS IMAGES with -o wide.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printStatefulSet).
var StatefulSetTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Ready", Type: "string", Description: "Number of the pod with ready state"},
		printers.AgeColumn,
		{Name: "Containers", Type: "string", Priority: 1, Description: "Names of each container in the template."},
		{Name: "Images", Type: "string", Priority: 1, Description: "Images referenced by each container in the template."},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		ss := obj.(*appsv1.StatefulSet)
		names, images := printers.ContainerCells(ss.Spec.Template.Spec.Containers)
		return []any{ss.Name, fmt.Sprintf("%d/%d", ss.Status.ReadyReplicas, replicas(ss.Spec.Replicas)),
			printers.Age(obj, now), names, images}
	},
}
