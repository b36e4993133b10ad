package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"reflect"
	"strings"

	jsonpatch "github.com/evanphx/json-patch/v5"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/strategicpatch"
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

// Patch serves PATCH with a JSON merge patch (RFC 7386), a JSON patch
// (RFC 6902) or a strategic merge patch (what kubectl apply, edit, patch,
// label and set image send). The patch is applied to the current stored
// object inside the storage retry loop, so concurrent writers never lose
// each other's changes; a patch that sets metadata.resourceVersion makes
// the write conditional on it. On a scale subresource the patch applies to
// the Scale. A server-side apply (application/apply-patch+yaml) merges
// the applied configuration by field ownership (see apply.go).
func (s *Scope) Patch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	info, _ := request.RequestInfoFrom(ctx)
	out, err := s.negotiateOutput(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	ct := r.Header.Get("Content-Type")
	mt, _, err := mime.ParseMediaType(ct)
	schema, smpOK := s.strategicMergeSchema()
	applyOK := s.fieldManager() != nil
	if err != nil || (mt != jsonPatchType && mt != mergePatchType && (mt != strategicMergePatchType || !smpOK) && (mt != applyPatchType || !applyOK)) {
		se := apierrors.NewUnsupportedMediaType(ct)
		accepted := []string{jsonPatchType, mergePatchType}
		if smpOK {
			accepted = append(accepted, strategicMergePatchType)
		}
		if applyOK {
			accepted = append(accepted, applyPatchType)
		}
		se.ErrStatus.Message = "the body of the request was in an unknown format - accepted media types include: " + strings.Join(accepted, ", ")
		if mt == strategicMergePatchType {
			se.ErrStatus.Message += fmt.Sprintf("; %s is not supported for %s, which has no Go type to read patch strategies from", mt, s.Store.GroupResource())
		}
		responsewriters.WriteError(w, r, se)
		return
	}
	manager, err := s.patchManager(r, mt == applyPatchType)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	patch, err := readBody(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if mt == applyPatchType {
		s.apply(w, r, info, out, patch, manager)
		return
	}
	var jp jsonpatch.Patch
	if mt == jsonPatchType {
		if jp, err = decodeJSONPatch(patch); err != nil {
			responsewriters.WriteError(w, r, apierrors.NewBadRequest("decode json patch: "+err.Error()))
			return
		}
		if len(jp) > maxJSONPatchOperations {
			responsewriters.WriteError(w, r, apierrors.NewRequestEntityTooLarge(fmt.Sprintf(
				"The allowed maximum operations in a JSON patch is %d, got %d", maxJSONPatchOperations, len(jp))))
			return
		}
	} else if !json.Valid(patch) {
		kind := "merge"
		if mt == strategicMergePatchType {
			kind = "strategic merge"
		}
		responsewriters.WriteError(w, r, apierrors.NewBadRequest(fmt.Sprintf("the %s patch is not valid JSON", kind)))
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
		switch {
		case jp != nil:
			patched, err = jp.ApplyWithOptions(current, jsonPatchOptions())
		case mt == strategicMergePatchType:
			if patched, err = strategicpatch.StrategicMergePatch(current, patch, schema); err != nil {
				return nil, s.strategicMergePatchError(info.Name, patch, err)
			}
		default:
			patched, err = jsonpatch.MergePatch(current, patch)
		}
		if err != nil {
			// A test operation that fails or a path that does not exist is
			// the client's mistake: 422, as kube-apiserver answers.
			return nil, s.invalidPatch(info.Name, patch, err)
		}
		obj := s.newBody()
		unknown, err := runtime.Decode(patched, obj)
		if err != nil {
			if mt == strategicMergePatchType {
				// A patch that gives a field a value of the wrong type
				// merges fine but does not decode: 422, as kube-apiserver
				// answers (applyPatchToObject).
				return nil, s.invalidPatch(info.Name, patch, err)
			}
			return nil, apierrors.NewBadRequest(err.Error())
		}
		pruned, err := s.normalizeDecoded(obj)
		if err != nil {
			return nil, err
		}
		if err := checkUnknownFields(w, mode, append(unknown, pruned...)); err != nil {
			return nil, err
		}
		if err := s.checkKind(obj); err != nil {
			return nil, err
		}
		s.updateManagedFields(old, obj, manager)
		return obj, nil
	}
	s.update(w, r, info, out, s.admitted(newObj, info, dryRun), dryRun, false)
}

// The bounds of a JSON patch, kube-apiserver's: a patch's operations are
// applied one after another to the whole object, so their number bounds
// the work; and each copy may double the object, so a few dozen bytes of
// copies could otherwise build gigabytes.
const (
	maxJSONPatchOperations = 10000
	// maxJSONPatchCopyBytes is what copies may add to an object in all:
	// the default request body limit (--json-patch-max-copy-bytes), so a
	// patch cannot build an object larger than a client could send.
	maxJSONPatchCopyBytes = 3 << 20
)

// decodeJSONPatch decodes a JSON patch and checks that every test
// operation has the value RFC 6902 requires: jsonpatch refuses an add or
// replace without one, but a test of the whole document without one
// dereferenced nil (found by FuzzPatch).
func decodeJSONPatch(patch []byte) (jsonpatch.Patch, error) {
	jp, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		return nil, err
	}
	for i, op := range jp {
		if _, ok := op["value"]; !ok && op.Kind() == "test" {
			return nil, fmt.Errorf("operation %d (test) has no value", i)
		}
	}
	return jp, nil
}

// jsonPatchOptions are jsonpatch's defaults with copies bounded; a patch
// whose copies grow the object by more than maxJSONPatchCopyBytes fails
// with jsonpatch.AccumulatedCopySizeError, a 422.
//
// Upstream: k8s.io/apiserver/pkg/server (Config.JSONPatchMaxCopyBytes).
func jsonPatchOptions() *jsonpatch.ApplyOptions {
	opts := jsonpatch.NewApplyOptions()
	opts.AccumulatedCopySizeLimit = maxJSONPatchCopyBytes
	return opts
}

// strategicMergeSchema returns the Go type a strategic merge patch of this
// resource follows, and whether there is one: a kind whose Go type decodes
// itself (as an unstructured custom resource would) has no patch struct
// tags to read, and, as in Kubernetes, does not take strategic merge
// patches.
func (s *Scope) strategicMergeSchema() (reflect.Type, bool) {
	t := reflect.TypeOf(s.newBody())
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || t.Implements(jsonUnmarshalerType) {
		return nil, false
	}
	return t.Elem(), true
}

var jsonUnmarshalerType = reflect.TypeFor[json.Unmarshaler]()

// strategicMergePatchError maps an error of strategicpatch.StrategicMergePatch
// to a Status: a malformed patch is 400, and a patch that does not fit the
// object is 422. kube-apiserver answers the latter 500 for most of them
// (upstream: interpretStrategicMergePatchError); minicp never answers 500
// for bad input.
func (s *Scope) strategicMergePatchError(name string, patch []byte, err error) error {
	for _, bad := range []error{
		strategicpatch.ErrBadJSONDoc, strategicpatch.ErrBadPatchFormatForPrimitiveList,
		strategicpatch.ErrBadPatchFormatForRetainKeys, strategicpatch.ErrBadPatchFormatForSetElementOrderList,
	} {
		if errors.Is(err, bad) {
			return apierrors.NewBadRequest(err.Error())
		}
	}
	return s.invalidPatch(name, patch, err)
}

// invalidPatch is the 422 of a patch that cannot be applied to the object.
func (s *Scope) invalidPatch(name string, patch []byte, err error) error {
	return apierrors.NewInvalid(s.bodyGVK(), name, apierrors.FieldErrors{
		apierrors.Invalid("patch", string(patch), err.Error())})
}
