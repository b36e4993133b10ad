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

// PriorityLevelConfigurationStrategy is the rules of the
// prioritylevelconfigurations resource: defaults as upstream's, a client
// writes the spec, the status is the server's.
//
// Upstream: k8s.io/kubernetes/pkg/registry/flowcontrol/prioritylevelconfiguration.
type PriorityLevelConfigurationStrategy struct{ registry.DefaultStrategy }

// TracksGeneration implements registry.GenerationStrategy.
func (PriorityLevelConfigurationStrategy) TracksGeneration() bool { return true }

// PrepareForCreate implements registry.Strategy: no status, and the
// defaults.
func (PriorityLevelConfigurationStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	pl := obj.(*flowcontrolv1.PriorityLevelConfiguration)
	pl.Status = flowcontrolv1.PriorityLevelConfigurationStatus{}
	SetDefaults(pl)
}

// PrepareForUpdate implements registry.Strategy: the status stays, and
// the defaults.
func (PriorityLevelConfigurationStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	pl := obj.(*flowcontrolv1.PriorityLevelConfiguration)
	pl.Status = old.(*flowcontrolv1.PriorityLevelConfiguration).Status
	SetDefaults(pl)
}

// SetDefaults fills in what a priority level leaves out, as upstream's
// defaulting does: 30 shares (0 for an exempt level), no lendable seats,
// and queues of 64 with hands of 8 and room for 50 requests each.
//
// Upstream: k8s.io/kubernetes/pkg/apis/flowcontrol/v1 (defaults.go).
func SetDefaults(pl *flowcontrolv1.PriorityLevelConfiguration) {
	zero := func(p **int32, v int32) {
		if *p == nil {
			*p = &v
		}
	}
	if e := pl.Spec.Exempt; e != nil {
		zero(&e.NominalConcurrencyShares, 0)
		zero(&e.LendablePercent, 0)
	}
	l := pl.Spec.Limited
	if l == nil {
		return
	}
	zero(&l.NominalConcurrencyShares, 30)
	zero(&l.LendablePercent, 0)
	if q := l.LimitResponse.Queuing; q != nil {
		if q.Queues == 0 {
			q.Queues = 64
		}
		if q.HandSize == 0 {
			q.HandSize = 8
		}
		if q.QueueLengthLimit == 0 {
			q.QueueLengthLimit = 50
		}
	}
}

// Validate implements registry.Strategy.
func (PriorityLevelConfigurationStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePriorityLevelConfiguration(obj.(*flowcontrolv1.PriorityLevelConfiguration))
}

// ValidateUpdate implements registry.Strategy.
func (PriorityLevelConfigurationStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidatePriorityLevelConfigurationUpdate(obj.(*flowcontrolv1.PriorityLevelConfiguration), old.(*flowcontrolv1.PriorityLevelConfiguration))
}

// PriorityLevelConfigurationStatusStrategy is the rules of
// prioritylevelconfigurations/status: only the status changes.
type PriorityLevelConfigurationStatusStrategy struct {
	PriorityLevelConfigurationStrategy
}

// PrepareForUpdate implements registry.Strategy.
func (PriorityLevelConfigurationStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	pl, prev := obj.(*flowcontrolv1.PriorityLevelConfiguration), old.(*flowcontrolv1.PriorityLevelConfiguration)
	pl.Spec = prev.Spec
	pl.Labels, pl.Annotations = prev.Labels, prev.Annotations
}

// ValidateUpdate implements registry.Strategy.
func (PriorityLevelConfigurationStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	pl := obj.(*flowcontrolv1.PriorityLevelConfiguration)
	return validation.ValidateObjectMetaUpdate(&pl.ObjectMeta, &old.(*flowcontrolv1.PriorityLevelConfiguration).ObjectMeta, "metadata")
}

// PriorityLevelConfigurationTable prints priority levels as `kubectl get
// prioritylevelconfigurations` does: NAME TYPE NOMINALCONCURRENCYSHARES
// QUEUES HANDSIZE QUEUELENGTHLIMIT AGE.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printPriorityLevelConfiguration).
var PriorityLevelConfigurationTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Type", Type: "string", Description: "`type` indicates whether this priority level is subject to limitation on request execution.  A value of `\"Exempt\"` means that requests of this priority level are not subject to a limit (and thus are never queued) and do not detract from the capacity made available to other priority levels.  A value of `\"Limited\"` means that (a) requests of this priority level _are_ subject to limits and (b) some of the server's limited capacity is made available exclusively to this priority level. Required."},
		{Name: "NominalConcurrencyShares", Type: "string", Description: "`nominalConcurrencyShares` (NCS) contributes to the computation of the NominalConcurrencyLimit (NominalCL) of this level."},
		{Name: "Queues", Type: "string", Description: "`queues` is the number of queues for this priority level."},
		{Name: "HandSize", Type: "string", Description: "`handSize` is a small positive number that configures the shuffle sharding of requests into queues."},
		{Name: "QueueLengthLimit", Type: "string", Description: "`queueLengthLimit` is the maximum number of requests allowed to be waiting in a given queue of this priority level at a time; excess requests are rejected."},
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		pl := obj.(*flowcontrolv1.PriorityLevelConfiguration)
		var shares, queues, handSize, queueLength any = "<none>", "<none>", "<none>", "<none>"
		if l := pl.Spec.Limited; l != nil {
			if l.NominalConcurrencyShares != nil {
				shares = int64(*l.NominalConcurrencyShares)
			}
			if q := l.LimitResponse.Queuing; q != nil {
				queues, handSize, queueLength = int64(q.Queues), int64(q.HandSize), int64(q.QueueLengthLimit)
			}
		}
		return []any{pl.Name, string(pl.Spec.Type), shares, queues, handSize, queueLength, printers.Age(obj, now)}
	},
}
