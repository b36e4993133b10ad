package handlers

import (
	"context"
	"encoding/json"
	"fmt"
	"mime"
	"net/http"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// The patch types of the Kubernetes API.
const (
	jsonPatchType           = "application/json-patch+json"
	mergePatchType          = "application/merge-patch+json"
	strategicMergePatchType = "application/strategic-merge-patch+json"
	applyPatchType          = "application/apply-patch+yaml"
)

// Patch serves PATCH with a JSON merge patch (RFC 7386) or a JSON patch
// (RFC 6902). The patch is applied to the current stored object inside the
// storage retry loop, so concurrent writers never lose each other's
// changes; a patch that sets metadata.resourceVersion makes the write
// conditional on it. Strategic merge and server-side apply are not
// supported yet and get 415.
func (s *Scope) Patch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != jsonPatchType && mt != mergePatchType) {
		se := apierrors.NewUnsupportedMediaType(ct)
		se.ErrStatus.Message = fmt.Sprintf("the body of the request was in an unknown format - accepted media types include: %s, %s", jsonPatchType, mergePatchType)
		if mt == strategicMergePatchType || mt == applyPatchType {
			se.ErrStatus.Message += fmt.Sprintf("; %s is not supported by minicp yet", mt)
		}
		responsewriters.WriteError(w, r, se)
		return
	}
	patch, err := readBody(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	var jp jsonpatch.Patch
	if mt == jsonPatchType {
		if jp, err = jsonpatch.DecodePatch(patch); err != nil {
			responsewriters.WriteError(w, r, apierrors.NewBadRequest("decode json patch: "+err.Error()))
			return
		}
	} else if !json.Valid(patch) {
		responsewriters.WriteError(w, r, apierrors.NewBadRequest("the merge patch is not valid JSON"))
		return
	}
	mode, err := parseFieldValidation(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	dryRun, err := isDryRun(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	newObj := func(ctx context.Context, old runtime.Object) (runtime.Object, error) {
		if old == nil {
			return nil, apierrors.NewNotFound(s.Store.GroupResource(), info.Name)
		}
		current, err := json.Marshal(old)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		var patched []byte
		if jp != nil {
			patched, err = jp.Apply(current)
		} else {
			patched, err = jsonpatch.MergePatch(current, patch)
		}
		if err != nil {
			// A test operation that fails or a path that does not exist is
			// the client's mistake: 422, as kube-apiserver answers.
			return nil, apierrors.NewInvalid(s.Store.Resource.GVK(), info.Name, apierrors.FieldErrors{
				apierrors.Invalid("patch", string(patch), err.Error())})
		}
		obj := s.Store.New()
		unknown, err := runtime.Decode(patched, obj)
		if err != nil {
			return nil, apierrors.NewBadRequest(err.Error())
		}
		if err := checkUnknownFields(w, mode, unknown); err != nil {
			return nil, err
		}
		if err := s.checkKind(obj); err != nil {
			return nil, err
		}
		return obj, nil
	}
	s.update(w, r, info, s.admitted(newObj, info, dryRun), dryRun)
}
