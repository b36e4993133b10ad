package flowcontrol

import (
	"context"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
	"github.com/minicp/minicp/apiserver/registry"
)

// FlowSchemaStrategy is the rules of the flowschemas resource: a client
// writes the spec, the status is the configuration controller's.
//
// Upstream: k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema (flowSchemaStrategy).
type FlowSchemaStrategy struct{ registry.DefaultStrategy }

// TracksGeneration implements registry.GenerationStrategy.
func (FlowSchemaStrategy) TracksGeneration() bool { return true }

// PrepareForCreate implements registry.Strategy: a new schema has no
// status.
func (FlowSchemaStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	obj.(*flowcontrolv1.FlowSchema).Status = flowcontrolv1.FlowSchemaStatus{}
}

// PrepareForUpdate implements registry.Strategy: the status stays.
func (FlowSchemaStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	obj.(*flowcontrolv1.FlowSchema).Status = old.(*flowcontrolv1.FlowSchema).Status
}

// Validate implements registry.Strategy.
func (FlowSchemaStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateFlowSchema(obj.(*flowcontrolv1.FlowSchema))
}

// ValidateUpdate implements registry.Strategy.
func (FlowSchemaStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateFlowSchemaUpdate(obj.(*flowcontrolv1.FlowSchema), old.(*flowcontrolv1.FlowSchema))
}

// FlowSchemaStatusStrategy is the rules of flowschemas/status: only the
// status changes.
//
// Upstream: k8s.io/kubernetes/pkg/registry/flowcontrol/flowschema (flowSchemaStatusStrategy).
type FlowSchemaStatusStrategy struct{ FlowSchemaStrategy }

// PrepareForUpdate implements registry.Strategy: spec and metadata but
// for resourceVersion stay as stored.
func (FlowSchemaStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	fs, prev := obj.(*flowcontrolv1.FlowSchema), old.(*flowcontrolv1.FlowSchema)
	fs.Spec = prev.Spec
	fs.Labels, fs.Annotations = prev.Labels, prev.Annotations
}

// ValidateUpdate implements registry.Strategy.
func (FlowSchemaStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	fs := obj.(*flowcontrolv1.FlowSchema)
	errs := validation.ValidateObjectMetaUpdate(&fs.ObjectMeta, &old.(*flowcontrolv1.FlowSchema).ObjectMeta, "metadata")
	return append(errs, validation.ValidateFlowSchemaStatus(fs)...)
}

// FlowSchemaTable prints flow schemas as `kubectl get flowschemas` does:
// NAME PRIORITYLEVEL MATCHINGPRECEDENCE DISTINGUISHERMETHOD AGE MISSINGPL.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printFlowSchema).
var FlowSchemaTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "PriorityLevel", Type: "string", Description: "`name` is the name of the priority level configuration being referenced Required."},
		{Name: "MatchingPrecedence", Type: "string", Description: "`matchingPrecedence` is used to choose among the FlowSchemas that match a given request. The chosen FlowSchema is among those with the numerically lowest (which we take to be logically highest) MatchingPrecedence.  Each MatchingPrecedence value must be ranged in [1,10000]. Note that if the precedence is not specified, it will be set to 1000 as default."},
		{Name: "DistinguisherMethod", Type: "string", Description: "`distinguisherMethod` defines how to compute the flow distinguisher for requests that match this schema. `nil` specifies that the distinguisher is disabled and thus will always be the empty string."},
		printers.AgeColumn,
		{Name: "MissingPL", Type: "string", Description: "references a broken or non-existent PriorityLevelConfiguration"},
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		fs := obj.(*flowcontrolv1.FlowSchema)
		method := "<none>"
		if fs.Spec.DistinguisherMethod != nil {
			method = string(fs.Spec.DistinguisherMethod.Type)
		}
		missing := "?"
		for _, c := range fs.Status.Conditions {
			if c.Type == flowcontrolv1.FlowSchemaConditionDangling {
				missing = string(c.Status)
				break
			}
		}
		return []any{fs.Name, fs.Spec.PriorityLevelConfiguration.Name, int64(fs.Spec.MatchingPrecedence), method, printers.Age(obj, now), missing}
	},
}
