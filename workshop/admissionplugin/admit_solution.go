//go:build solution

package admissionplugin

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	"github.com/minicp/minicp/apiserver/admission"
)

// deployment returns the Deployment a request writes, or nil when the
// plugins have nothing to do with it.
func deployment(a *admission.Attributes) *appsv1.Deployment {
	if a.Resource != deploymentsGVR || a.Subresource != "" {
		return nil
	}
	d, _ := a.Object.(*appsv1.Deployment)
	return d
}

// Admit copies the Deployment's TeamLabel into its pod template's labels.
func (PropagateTeam) Admit(_ context.Context, a *admission.Attributes) error {
	d := deployment(a)
	if d == nil {
		return nil
	}
	team, ok := d.Labels[TeamLabel]
	if !ok {
		return nil // RequireTeam decides, after schema validation
	}
	if d.Spec.Template.Labels == nil {
		d.Spec.Template.Labels = map[string]string{}
	}
	d.Spec.Template.Labels[TeamLabel] = team
	return nil
}

// Validate rejects a Deployment without a non-empty TeamLabel outside
// ExemptNamespace, with 403 Forbidden.
func (RequireTeam) Validate(_ context.Context, a *admission.Attributes) error {
	d := deployment(a)
	if d == nil || a.Namespace == ExemptNamespace || d.Labels[TeamLabel] != "" {
		return nil
	}
	return apierrors.NewForbidden(a.Resource.GroupResource(), a.Name,
		fmt.Errorf("every Deployment must name its team in the %s label", TeamLabel))
}
