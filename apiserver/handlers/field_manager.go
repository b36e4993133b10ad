package handlers

import (
	"fmt"
	"net/http"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/fieldmanager"
)

// fieldManagerMaxLength is the longest ?fieldManager= kube-apiserver
// accepts: the name is stored in every managedFields entry.
const fieldManagerMaxLength = 128

// writeOptionsKind is the kind upstream names in the 422 of bad write
// options, by verb: PATCH's are PatchOptions.
var (
	createOptionsKind = runtime.GroupVersionKind{Group: "meta.k8s.io", Kind: "CreateOptions"}
	updateOptionsKind = runtime.GroupVersionKind{Group: "meta.k8s.io", Kind: "UpdateOptions"}
	patchOptionsKind  = runtime.GroupVersionKind{Group: "meta.k8s.io", Kind: "PatchOptions"}
)

// fieldManagerErrors validates ?fieldManager=: at most 128 printable
// characters.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1/validation (ValidateFieldManager).
func fieldManagerErrors(manager string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	if len(manager) > fieldManagerMaxLength {
		errs = append(errs, apierrors.TooLong("fieldManager", "", fieldManagerMaxLength))
	}
	for i, r := range manager {
		if !unicode.IsPrint(r) {
			errs = append(errs, apierrors.Invalid("fieldManager", manager, fmt.Sprintf("invalid character %#U (at position %d)", r, i)))
		}
	}
	return errs
}

// managerName is the manager a write is recorded under: ?fieldManager=,
// validated (422 against kind), or else the User-Agent up to its first
// '/' ("kubectl" for "kubectl/v1.33.0 (linux/amd64) ...").
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (managerOrUserAgent).
func managerName(r *http.Request, kind runtime.GroupVersionKind) (string, error) {
	manager := r.URL.Query().Get("fieldManager")
	if errs := fieldManagerErrors(manager); len(errs) > 0 {
		return "", apierrors.NewInvalid(kind, "", errs)
	}
	if manager != "" {
		return manager, nil
	}
	return prefixFromUserAgent(r.UserAgent()), nil
}

// prefixFromUserAgent is the User-Agent up to its first '/', without
// unprintable characters, cut to 128 bytes.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (prefixFromUserAgent).
func prefixFromUserAgent(u string) string {
	prefix, _, _ := strings.Cut(u, "/")
	var b strings.Builder
	for _, r := range prefix {
		if !unicode.IsPrint(r) {
			continue
		}
		if b.Len()+utf8.RuneLen(r) > fieldManagerMaxLength {
			break
		}
		b.WriteRune(r)
	}
	return b.String()
}

// fieldManager is the scope's field manager, nil when the scope does not
// track fields (a scale subresource, a binding) or its schema failed to
// build: writes then go on without managedFields, as upstream's do when
// the field manager fails.
func (s *Scope) fieldManager() *fieldmanager.FieldManager {
	if s.FieldManager == nil || s.Scale != nil {
		return nil
	}
	fm, err := s.FieldManager.Get()
	if err != nil {
		s.Logger.Error("field manager unavailable", "resource", s.Store.Resource.GVR.Resource, "err", err)
		return nil
	}
	return fm
}

// updateManagedFields records a non-apply write by manager that turns
// old (nil for a create) into obj.
func (s *Scope) updateManagedFields(old, obj runtime.Object, manager string) {
	if fm := s.fieldManager(); fm != nil {
		fm.Update(old, obj, manager)
	}
}
