package validation

import (
	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ValidateBinding checks a binding: its target is a node, named. The API
// server checks separately that the binding's name is the pod's.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidatePodBinding).
func ValidateBinding(b *corev1.Binding) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if b.Target.Kind != "" && b.Target.Kind != "Node" {
		errs = append(errs, apierrors.NotSupported("target.kind", b.Target.Kind, []string{"Node", "<empty>"}))
	}
	if b.Target.Name == "" {
		errs = append(errs, apierrors.Required("target.name", ""))
	}
	return errs
}
