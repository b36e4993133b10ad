package admission

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
)

// PriorityClasses reads the priority classes, for the Priority plugin.
type PriorityClasses interface {
	// GetPriorityClass returns the class called name; a missing one is an
	// error satisfying apierrors.IsNotFound.
	GetPriorityClass(ctx context.Context, name string) (*schedulingv1.PriorityClass, error)
	// ListPriorityClasses returns every class. The result is shared:
	// callers must not modify it.
	ListPriorityClasses(ctx context.Context) ([]*schedulingv1.PriorityClass, error)
}

// Priority turns a pod's priorityClassName into its priority: on create,
// spec.priority and spec.preemptionPolicy come from the class it names,
// or from the global default class when it names none (priority 0 when
// there is none), and a pod that names a missing class, or sets a
// priority other than its class's, is refused (403). On update the values
// set at create are kept. It also refuses a second globalDefault
// PriorityClass.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/priority.
type Priority struct {
	Classes PriorityClasses
}

var (
	_ MutationInterface   = (*Priority)(nil)
	_ ValidationInterface = (*Priority)(nil)
)

// Name implements Plugin.
func (*Priority) Name() string { return "Priority" }

// Handles implements Plugin: creates and updates.
func (*Priority) Handles(op Operation) bool { return op == Create || op == Update }

// Admit implements MutationInterface: the pod's priority.
func (p *Priority) Admit(ctx context.Context, a *Attributes) error {
	if a.Resource.Group != "" || a.Resource.Resource != "pods" || a.Subresource != "" {
		return nil
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return apierrors.NewBadRequest(fmt.Sprintf("expected a Pod, got %T", a.Object))
	}
	if a.Operation == Update {
		// A client's full replacement may leave out what create set.
		if old, ok := a.OldObject.(*corev1.Pod); ok {
			if pod.Spec.Priority == nil {
				pod.Spec.Priority = old.Spec.Priority
			}
			if pod.Spec.PreemptionPolicy == nil {
				pod.Spec.PreemptionPolicy = old.Spec.PreemptionPolicy
			}
		}
		return nil
	}
	forbidden := func(err error) error { return apierrors.NewForbidden(a.Resource.GroupResource(), a.Name, err) }
	var priority int32
	var policy *corev1.PreemptionPolicy
	if pod.Spec.PriorityClassName == "" {
		def, err := p.globalDefault(ctx)
		if err != nil {
			return apierrors.NewInternalError(fmt.Errorf("failed to get default priority class: %w", err))
		}
		if def != nil {
			pod.Spec.PriorityClassName, priority, policy = def.Name, def.Value, def.PreemptionPolicy
		} else {
			lower := corev1.PreemptLowerPriority
			priority, policy = schedulingv1.DefaultPriorityWhenNoDefaultClassExists, &lower
		}
	} else {
		pc, err := p.Classes.GetPriorityClass(ctx, pod.Spec.PriorityClassName)
		switch {
		case apierrors.IsNotFound(err):
			return forbidden(fmt.Errorf("no PriorityClass with name %v was found", pod.Spec.PriorityClassName))
		case err != nil:
			return apierrors.NewInternalError(fmt.Errorf("failed to get PriorityClass with name %s: %w", pod.Spec.PriorityClassName, err))
		}
		priority, policy = pc.Value, pc.PreemptionPolicy
	}
	if pod.Spec.Priority != nil && *pod.Spec.Priority != priority {
		return forbidden(fmt.Errorf("the integer value of priority (%d) must not be provided in pod spec; priority admission controller computed %d from the given PriorityClass name", *pod.Spec.Priority, priority))
	}
	pod.Spec.Priority = &priority
	if policy != nil {
		if pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy != *policy {
			return forbidden(fmt.Errorf("the string value of PreemptionPolicy (%s) must not be provided in pod spec; priority admission controller computed %s from the given PriorityClass name", *pod.Spec.PreemptionPolicy, *policy))
		}
		p := *policy
		pod.Spec.PreemptionPolicy = &p
	}
	return nil
}

// Validate implements ValidationInterface: at most one class is the
// global default.
func (p *Priority) Validate(ctx context.Context, a *Attributes) error {
	if a.Resource != schedulingv1.Resource().GVR || a.Subresource != "" {
		return nil
	}
	pc, ok := a.Object.(*schedulingv1.PriorityClass)
	if !ok || !pc.GlobalDefault {
		return nil
	}
	classes, err := p.Classes.ListPriorityClasses(ctx)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("failed to list PriorityClasses: %w", err))
	}
	for _, other := range classes {
		if other.GlobalDefault && other.Name != pc.Name {
			return apierrors.NewForbidden(a.Resource.GroupResource(), a.Name,
				fmt.Errorf("PriorityClass %v is already marked as default. Only one default can exist", other.Name))
		}
	}
	return nil
}

// globalDefault is the default class: of several (created at once,
// before this plugin could refuse one), the lowest, as upstream; nil
// when there is none.
func (p *Priority) globalDefault(ctx context.Context) (*schedulingv1.PriorityClass, error) {
	classes, err := p.Classes.ListPriorityClasses(ctx)
	if err != nil {
		return nil, err
	}
	var def *schedulingv1.PriorityClass
	for _, pc := range classes {
		if pc.GlobalDefault && (def == nil || pc.Value < def.Value) {
			def = pc
		}
	}
	return def, nil
}
