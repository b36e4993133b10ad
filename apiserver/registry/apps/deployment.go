package apps

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// DeploymentStrategy is the rules of the deployments resource: the spec is
// the client's and the status the deployment controller's.
//
// Upstream: k8s.io/kubernetes/pkg/registry/apps/deployment (deploymentStrategy).
type DeploymentStrategy struct{ registry.DefaultStrategy }

// PrepareForCreate implements registry.Strategy: a new Deployment has no
// status.
func (DeploymentStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	obj.(*appsv1.Deployment).Status = appsv1.DeploymentStatus{}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status. Annotations are copied from a Deployment to its
// ReplicaSets, so changing them is a change the controller must act on:
// it bumps the generation as a spec change does (the store bumps that
// one).
func (DeploymentStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	d, oldD := obj.(*appsv1.Deployment), old.(*appsv1.Deployment)
	d.Status = oldD.Status
	if !maps.Equal(d.Annotations, oldD.Annotations) && reflect.DeepEqual(d.Spec, oldD.Spec) {
		d.Generation = oldD.Generation + 1
	}
}

// Validate implements registry.Strategy.
func (DeploymentStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateDeployment(obj.(*appsv1.Deployment))
}

// ValidateUpdate implements registry.Strategy.
func (DeploymentStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateDeploymentUpdate(obj.(*appsv1.Deployment), old.(*appsv1.Deployment))
}

// TracksGeneration implements registry.GenerationStrategy: the deployment
// controller reports it as status.observedGeneration.
func (DeploymentStrategy) TracksGeneration() bool { return true }

// DeploymentStatusStrategy is the rules of deployments/status: only status
// changes (labels neither, as upstream).
type DeploymentStatusStrategy struct{ DeploymentStrategy }

// PrepareForUpdate implements registry.Strategy.
func (DeploymentStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	d, oldD := obj.(*appsv1.Deployment), old.(*appsv1.Deployment)
	d.Spec = oldD.Spec
	d.Labels = oldD.Labels
}

// ValidateUpdate implements registry.Strategy.
func (DeploymentStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateDeploymentStatusUpdate(obj.(*appsv1.Deployment), old.(*appsv1.Deployment))
}

// DeploymentScale is where a Deployment keeps what deployments/scale shows:
// spec.replicas, status.replicas and spec.selector.
var DeploymentScale = registry.ScaleSubresource{
	SpecReplicas: func(obj runtime.Object) int32 { return replicas(obj.(*appsv1.Deployment).Spec.Replicas) },
	SetSpecReplicas: func(obj runtime.Object, n int32) {
		obj.(*appsv1.Deployment).Spec.Replicas = &n
	},
	StatusReplicas: func(obj runtime.Object) int32 { return obj.(*appsv1.Deployment).Status.Replicas },
	Selector: func(obj runtime.Object) (string, error) {
		return selectorString(obj.(*appsv1.Deployment).Spec.Selector)
	},
}

// replicas reads an optional replica count; nil is the default, 1.
func replicas(n *int32) int32 {
	if n == nil {
		return 1
	}
	return *n
}

// selectorString is the string form of a workload's selector, as a Scale
// carries it.
func selectorString(sel *metav1.LabelSelector) (string, error) {
	if s := printers.SelectorCell(sel); s != "<invalid>" {
		return s, nil
	}
	return "", fmt.Errorf("invalid label selector %v", sel)
}

// DeploymentTable prints deployments as `kubectl get deployments` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printDeployment).
var DeploymentTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Ready", Type: "string", Description: "Number of the pod with ready state"},
		{Name: "Up-to-date", Type: "string", Description: "Total number of non-terminated pods targeted by this deployment that have the desired template spec."},
		{Name: "Available", Type: "string", Description: "Total number of available pods (ready for at least minReadySeconds) targeted by this deployment."},
		printers.AgeColumn,
		{Name: "Containers", Type: "string", Priority: 1, Description: "Names of each container in the template."},
		{Name: "Images", Type: "string", Priority: 1, Description: "Images referenced by each container in the template."},
		{Name: "Selector", Type: "string", Priority: 1, Description: "Label selector for pods. Existing ReplicaSets whose pods are selected by this will be the ones affected by this deployment."},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		d := obj.(*appsv1.Deployment)
		names, images := printers.ContainerCells(d.Spec.Template.Spec.Containers)
		return []any{d.Name, fmt.Sprintf("%d/%d", d.Status.ReadyReplicas, replicas(d.Spec.Replicas)),
			int64(d.Status.UpdatedReplicas), int64(d.Status.AvailableReplicas), printers.Age(obj, now),
			names, images, printers.SelectorCell(d.Spec.Selector)}
	},
}
