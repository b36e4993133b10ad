package handlers

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strconv"

	"sigs.k8s.io/structured-merge-diff/v6/value"
	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// apply serves a server-side apply: a PATCH whose body (YAML, or JSON,
// which is YAML too) is the manager's whole intent for the object. The
// field manager merges it into the stored object inside the storage
// retry loop: fields the manager applied before and leaves out now are
// removed unless someone else owns them, and a field another manager
// owns is a 409 Conflict unless ?force=true, which takes it over. A
// missing object is created, whatever the resource's create-on-update
// rule, as kube-apiserver does.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (applyPatcher).
func (s *Scope) apply(w http.ResponseWriter, r *http.Request, info *request.RequestInfo, out negotiation.MediaTypeOptions, patch []byte, manager string) {
	force, err := parseForce(r)
	if err != nil {
		responsewriters.WriteError(w, r, err)
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
	applied, err := decodeApplyPatch(patch)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	fm := s.fieldManager()
	newObj := func(ctx context.Context, old runtime.Object) (runtime.Object, error) {
		merged, managed, err := fm.Apply(old, applied, manager, force)
		if err != nil {
			return nil, applyError(err)
		}
		data, err := json.Marshal(merged)
		if err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		obj := s.newBody()
		unknown, err := runtime.Decode(data, obj)
		if err != nil {
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
		metav1.MustAccessor(obj).ManagedFields = managed
		return obj, nil
	}
	s.update(w, r, info, out, s.admitted(newObj, info, dryRun), dryRun, true)
}

// decodeApplyPatch reads an applied configuration: a YAML (or JSON)
// object, with integers as int64 as the field manager expects them.
func decodeApplyPatch(patch []byte) (map[string]any, error) {
	data, err := yaml.YAMLToJSON(patch)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	v, err := value.FromJSON(data)
	if err != nil {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: %v", err))
	}
	switch obj := v.Unstructured().(type) {
	case map[string]any:
		return obj, nil
	case nil:
		return map[string]any{}, nil
	default:
		return nil, apierrors.NewBadRequest(fmt.Sprintf("error decoding YAML: the applied configuration is a %T, not an object", obj))
	}
}

// applyError turns a field manager failure into a Status: conflicts and
// version mismatches already are; anything else is the applied
// configuration not fitting the schema, the client's mistake.
func applyError(err error) error {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return se
	}
	return apierrors.NewBadRequest(err.Error())
}

// patchManager validates the options of a PATCH as upstream's
// ValidatePatchOptions does (422 PatchOptions): ?force only with apply,
// ?fieldManager required with apply. It returns the manager to record.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidatePatchOptions).
func (s *Scope) patchManager(r *http.Request, apply bool) (string, error) {
	q := r.URL.Query()
	manager := q.Get("fieldManager")
	var errs apierrors.FieldErrors
	switch {
	case !apply && q.Has("force"):
		errs = append(errs, apierrors.Forbidden("force", "may not be specified for non-apply patch"))
	case apply && manager == "":
		// kubectl sends "kubectl" (or --field-manager); controllers must
		// name themselves.
		errs = append(errs, apierrors.Required("fieldManager", "is required for apply patch"))
	}
	errs = append(errs, fieldManagerErrors(manager)...)
	if len(errs) > 0 {
		return "", apierrors.NewInvalid(patchOptionsKind, "", errs)
	}
	if manager == "" {
		manager = prefixFromUserAgent(r.UserAgent())
	}
	return manager, nil
}

// parseForce reads ?force=, false when absent.
func parseForce(r *http.Request) (bool, error) {
	v := r.URL.Query().Get("force")
	if v == "" {
		return false, nil
	}
	force, err := strconv.ParseBool(v)
	if err != nil {
		return false, apierrors.NewBadRequest(fmt.Sprintf("force: invalid boolean %q", v))
	}
	return force, nil
}
