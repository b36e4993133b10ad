package admissionplugin

import (
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

// TeamLabel names the team that owns a Deployment.
const TeamLabel = "workshop.minicp.io/team"

// ExemptNamespace holds the cluster's own components, which RequireTeam
// lets in without a team.
const ExemptNamespace = "kube-system"

// deploymentsGVR is the resource both plugins act on.
var deploymentsGVR = runtime.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}

// PropagateTeam is a mutating admission plugin: it copies a Deployment's
// TeamLabel into its pod template's labels, so that every pod the
// Deployment makes carries it too.
type PropagateTeam struct{}

// RequireTeam is a validating admission plugin: a Deployment outside
// ExemptNamespace must carry a non-empty TeamLabel.
type RequireTeam struct{}

var (
	_ admission.MutationInterface   = PropagateTeam{}
	_ admission.ValidationInterface = RequireTeam{}
)

// Name implements admission.Plugin.
func (PropagateTeam) Name() string { return "PropagateTeam" }

// Handles implements admission.Plugin: writes that carry an object.
func (PropagateTeam) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Update
}

// Name implements admission.Plugin.
func (RequireTeam) Name() string { return "RequireTeam" }

// Handles implements admission.Plugin: writes that carry an object.
func (RequireTeam) Handles(op admission.Operation) bool {
	return op == admission.Create || op == admission.Update
}
