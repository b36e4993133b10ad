package handlers

import (
	"context"
	"net/http"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// Update serves PUT on an object, its status or its Scale: the body
// replaces the stored object if its resourceVersion is current (409
// otherwise). 200 with the stored object, or 201 when the resource allows
// create-on-update.
func (s *Scope) Update(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	body := s.newBody()
	if err := s.decodeBody(w, r, body); err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	dryRun, err := isDryRun(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	manager, err := managerName(r, updateOptionsKind)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	newObj := func(ctx context.Context, old runtime.Object) (runtime.Object, error) {
		obj := body.DeepCopyObject()
		s.updateManagedFields(old, obj, manager)
		return obj, nil
	}
	s.update(w, r, info, out, s.admitted(newObj, info, dryRun), dryRun, false)
}

// admitted wraps an UpdatedObjectFunc with mutating admission, so admission
// sees (and may change) the object a PUT or PATCH computes, inside the
// storage retry loop.
func (s *Scope) admitted(newObj registry.UpdatedObjectFunc, info *request.RequestInfo, dryRun bool) registry.UpdatedObjectFunc {
	return func(ctx context.Context, old runtime.Object) (runtime.Object, error) {
		obj, err := newObj(ctx, old)
		if err != nil {
			return nil, err
		}
		op := admission.Update
		if old == nil {
			op = admission.Create
		}
		if err := s.bindNamespace(metav1.MustAccessor(obj), info.Namespace); err != nil {
			return nil, err
		}
		if err := s.Admission.Admit(ctx, s.attributes(ctx, op, info.Namespace, info.Name, obj, old, dryRun)); err != nil {
			return nil, err
		}
		return obj, nil
	}
}

// update runs the registry update and writes the result as out says.
// forceAllowCreate creates a missing object even where PUT may not, as a
// server-side apply does.
func (s *Scope) update(w http.ResponseWriter, r *http.Request, info *request.RequestInfo, out negotiation.MediaTypeOptions, newObj registry.UpdatedObjectFunc, dryRun, forceAllowCreate bool) {
	if s.Scale != nil {
		s.updateScale(w, r, info, out, newObj, dryRun)
		return
	}
	stored, created, err := s.Store.Update(r.Context(), info.Namespace, info.Name, newObj,
		s.validating(admission.Create, info.Namespace, info.Name, dryRun),
		s.validating(admission.Update, info.Namespace, info.Name, dryRun),
		registry.UpdateOptions{DryRun: dryRun, ForceAllowCreate: forceAllowCreate})
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	code := http.StatusOK
	if created {
		code = http.StatusCreated
	}
	s.writeResult(w, r, out, code, stored)
}
