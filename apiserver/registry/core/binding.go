package core

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/clock"
)

// Binding serves pods/{name}/binding and the bindings resource: the
// scheduler's way to assign a pod to a node. It sets spec.nodeName and the
// PodScheduled condition in one write, and refuses (409) a pod that is
// already bound or is being deleted, so two schedulers can never both win.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/storage (BindingREST).
func Binding(clk clock.Clock, pods *registry.Store) registry.NamedCreater {
	return registry.NamedCreater{
		New: func() runtime.Object { return &corev1.Binding{} },
		Create: func(ctx context.Context, ns, name string, body runtime.Object, _ registry.CreateOptions) (runtime.Object, error) {
			return bind(ctx, clk, pods, ns, name, body.(*corev1.Binding))
		},
	}
}

func bind(ctx context.Context, clk clock.Clock, pods *registry.Store, ns, name string, b *corev1.Binding) (runtime.Object, error) {
	if name == "" {
		name = b.Name // POST .../bindings names the pod in the body
	}
	if b.Name != "" && b.Name != name {
		return nil, apierrors.NewBadRequest("the name of the binding (" + b.Name + ") does not match the pod on the URL (" + name + ")")
	}
	b.Name = name
	if errs := validation.ValidateBinding(b); len(errs) > 0 {
		return nil, apierrors.NewInvalid(runtime.GroupVersionKind{Version: "v1", Kind: "Binding"}, name, errs)
	}
	gr := pods.GroupResource()
	return pods.UpdateUnchecked(ctx, ns, name, func(current runtime.Object) (runtime.Object, error) {
		pod := current.(*corev1.Pod)
		switch {
		case pod.DeletionTimestamp != nil:
			return nil, apierrors.NewConflict(gr, name, fmt.Errorf("pod %s is being deleted, cannot be assigned to a host", name))
		case pod.Spec.NodeName != "":
			return nil, apierrors.NewConflict(gr, name, fmt.Errorf("pod %s is already assigned to node %q", name, pod.Spec.NodeName))
		case b.UID != "" && b.UID != pod.UID:
			return nil, apierrors.NewConflict(gr, name, errors.New("the binding's UID does not match the pod's"))
		}
		pod.Spec.NodeName = b.Target.Name
		for k, v := range b.Annotations {
			if pod.Annotations == nil {
				pod.Annotations = map[string]string{}
			}
			pod.Annotations[k] = v
		}
		setCondition(&pod.Status, corev1.PodCondition{
			Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(clk.Now()),
		})
		return pod, nil
	})
}

// setCondition replaces the condition of the same type, or appends it.
func setCondition(status *corev1.PodStatus, c corev1.PodCondition) {
	for i := range status.Conditions {
		if status.Conditions[i].Type == c.Type {
			status.Conditions[i] = c
			return
		}
	}
	status.Conditions = append(status.Conditions, c)
}
