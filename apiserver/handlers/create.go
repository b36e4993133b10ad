package handlers

import (
	"net/http"

	"go.opentelemetry.io/otel/trace"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
	"github.com/minicp/minicp/tracing"
)

// Create serves POST on a collection: decode, mutating admission, then the
// registry (server-set fields, validation, validating admission, etcd).
// 201 with the stored object, in the representation the client negotiated
// before anything was stored.
func (s *Scope) Create(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	obj := s.Store.New()
	if err := s.decodeBody(w, r, obj); err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	dryRun, err := isDryRun(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	manager, err := managerName(r, createOptionsKind)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	meta := metav1.MustAccessor(obj)
	if err := s.bindNamespace(meta, info.Namespace); err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	// Field ownership is recorded before mutating admission, as upstream
	// does: what a webhook adds is not the client's.
	s.updateManagedFields(nil, obj, manager)
	attrs := s.attributes(ctx, admission.Create, meta.Namespace, meta.Name, obj, nil, dryRun)
	if err := s.Admission.Admit(ctx, attrs); err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	s.Logger.DebugContext(ctx, "admitted", "hop", "admission.mutating", "namespace", meta.Namespace, "name", meta.Name)
	created, err := s.Store.Create(ctx, obj, s.validating(admission.Create, meta.Namespace, meta.Name, dryRun),
		registry.CreateOptions{DryRun: dryRun})
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	// A create's path has no name; the trace of the request names what
	// it made, so a timeline can be found by the object's name.
	if m, err := metav1.Accessor(created); err == nil {
		trace.SpanFromContext(ctx).SetAttributes(tracing.KeyName.String(m.Name))
	}
	s.writeResult(w, r, out, http.StatusCreated, created)
}
