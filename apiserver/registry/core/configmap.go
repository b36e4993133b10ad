package core

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// ConfigMapStrategy is the rules of the configmaps resource: data that may
// be made immutable.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/configmap (strategy).
type ConfigMapStrategy struct{ registry.DefaultStrategy }

// Validate implements registry.Strategy.
func (ConfigMapStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateConfigMap(obj.(*corev1.ConfigMap))
}

// ValidateUpdate implements registry.Strategy.
func (ConfigMapStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateConfigMapUpdate(obj.(*corev1.ConfigMap), old.(*corev1.ConfigMap))
}

// ConfigMapTable prints config maps as `kubectl get configmaps` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printConfigMap).
var ConfigMapTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Data", "string", "Data contains the configuration data.", 0),
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		cm := obj.(*corev1.ConfigMap)
		return []any{cm.Name, int64(len(cm.Data) + len(cm.BinaryData)), printers.Age(obj, now)}
	},
}
