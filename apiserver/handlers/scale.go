package handlers

import (
	"net/http"

	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// A scale subresource (deployments/{name}/scale) is served by the same
// Get, Update and Patch as any object: with Scope.Scale set they decode,
// patch, admit and answer autoscaling/v1 Scales, and newBody and update
// below route them through the registry.ScaleStore, which turns a Scale
// write into an update of the object's desired replicas.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers, serving the ScaleREST
// of k8s.io/kubernetes/pkg/registry/apps/deployment/storage.

// newBody returns an empty object of the kind a write to this scope
// carries.
func (s *Scope) newBody() runtime.Object {
	if s.Scale != nil {
		return &autoscalingv1.Scale{}
	}
	return s.Store.New()
}

// getScale serves GET on a scale subresource.
func (s *Scope) getScale(w http.ResponseWriter, r *http.Request, info *request.RequestInfo, out negotiation.MediaTypeOptions) {
	scale, err := s.Scale.Get(r.Context(), info.Namespace, info.Name)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	s.writeResult(w, r, out, http.StatusOK, scale)
}

// updateScale runs a PUT or PATCH of a scale subresource: newScale (which
// includes mutating admission) computes the new Scale from the current
// one, and validating admission sees the new and old Scales. 200 with the
// Scale of the stored object.
func (s *Scope) updateScale(w http.ResponseWriter, r *http.Request, info *request.RequestInfo, out negotiation.MediaTypeOptions, newScale registry.UpdatedObjectFunc, dryRun bool) {
	scale, err := s.Scale.Update(r.Context(), info.Namespace, info.Name, newScale,
		s.validating(admission.Update, info.Namespace, info.Name, dryRun), registry.UpdateOptions{DryRun: dryRun})
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	s.writeResult(w, r, out, http.StatusOK, scale)
}
