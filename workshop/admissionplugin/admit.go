//go:build !solution

package admissionplugin

import (
	"context"

	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/workshop/exercise"
)

// Admit copies the Deployment's TeamLabel into its pod template's labels
// (creating the map if needed). It changes nothing for other resources,
// for subresources (a write to deployments/status or deployments/scale
// carries no template to change), or for a Deployment without the label.
//
// TODO(you): check a.Resource against deploymentsGVR and a.Subresource;
// a.Object is then an *appsv1.Deployment that you may change in place.
func (PropagateTeam) Admit(ctx context.Context, a *admission.Attributes) error {
	return exercise.NotDone("PropagateTeam.Admit in workshop/admissionplugin/admit.go")
}

// Validate rejects a Deployment without a non-empty TeamLabel, unless it
// is in ExemptNamespace, with a 403 Forbidden whose message names
// TeamLabel. It lets every other resource and every subresource through.
//
// TODO(you): the same checks as Admit, then
// apierrors.NewForbidden(a.Resource.GroupResource(), a.Name, err).
func (RequireTeam) Validate(ctx context.Context, a *admission.Attributes) error {
	return exercise.NotDone("RequireTeam.Validate in workshop/admissionplugin/admit.go")
}
