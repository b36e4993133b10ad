package handlers

import (
	"net/http"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/admission"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// CreateSubresource serves a POST to a subresource (or a resource whose
// objects are not stored): it decodes the body, runs both admission
// phases on it and calls fn. 201 with a Success Status, as kube-apiserver answers a
// binding.
func (s *Scope) CreateSubresource(w http.ResponseWriter, r *http.Request, fn registry.NamedCreater) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	dryRun, err := isDryRun(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	sub := *s
	sub.Subresource = info.Subresource
	sub.creater = &fn
	body := fn.New()
	if err := sub.decodeBody(w, r, body); err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if meta, err := metav1.Accessor(body); err == nil {
		if err := sub.bindNamespace(meta, info.Namespace); err != nil {
			responsewriters.WriteError(w, r, err)
			return
		}
	}
	attrs := sub.attributes(ctx, admission.Create, info.Namespace, info.Name, body, nil, dryRun)
	if err := sub.Admission.Admit(ctx, attrs); err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if err := sub.Admission.Validate(ctx, attrs); err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	result, err := fn.Create(ctx, info.Namespace, info.Name, body, registry.CreateOptions{DryRun: dryRun})
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if st, ok := result.(*metav1.Status); ok && !fn.ReturnObject {
		// The creater words the answer itself, as upstream's handler lets
		// a REST storage return a Status with its own code.
		code := int(st.Code)
		if code == 0 {
			code = http.StatusCreated
		}
		st.TypeMeta = metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}
		st.Code = int32(code)
		s.writeResult(w, r, out, code, st)
		return
	}
	if fn.ReturnObject {
		s.writeResult(w, r, out, http.StatusCreated, result)
		return
	}
	s.writeResult(w, r, out, http.StatusCreated, &metav1.Status{
		TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"},
		Status:   metav1.StatusSuccess,
		Code:     http.StatusCreated,
	})
}
