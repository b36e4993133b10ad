package schema

import (
	"fmt"
	"reflect"

	"github.com/minicp/minicp/api/apierrors"
)

// ValidateDefaults checks every default in s (except below
// additionalProperties, which upstream does not check either): it must be
// valid against its own node, must result in valid metadata where it
// lands in an embedded resource's apiVersion, kind or metadata, and, with
// requirePrunedDefaults, must not contain fields pruning would drop.
// fldPath is the path of s, as for ValidateStructural; isResourceRoot is
// set for a CRD's root schema. The error is for a default that does not
// fit the schema's shape at all (a non-object default of an object that
// surrounds metadata); it does not happen for structural schemas. Defaults
// inside metadata may be normalized in place. CEL rules are not run on
// defaults.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting (ValidateDefaults).
func ValidateDefaults(fldPath string, s *Structural, isResourceRoot, requirePrunedDefaults bool) (apierrors.FieldErrors, error) {
	if isResourceRoot {
		s = withEmbedded(s)
	}
	f := rootObjectFunc().withTypeMeta("validation/v1", "Validation")
	return validateDefaults(newPath(fldPath), s, s, f, false, requirePrunedDefaults)
}

func validateDefaults(pth path, s, rootSchema *Structural, f surroundingObjectFunc, insideMeta, requirePruned bool) (apierrors.FieldErrors, error) {
	if s == nil {
		return nil, nil
	}
	if s.XEmbeddedResource {
		insideMeta = false
		f = rootObjectFunc().withTypeMeta("validation/v1", "Validation")
		rootSchema = s
	}
	var all apierrors.FieldErrors
	if s.Default.Object != nil {
		validator := fromStructural(s)
		defPath := pth.child("default")
		if insideMeta {
			obj, _, err := f(deepCopyJSON(s.Default.Object))
			if err != nil {
				return nil, fmt.Errorf("failed to validate default value inside metadata: %v", err)
			}
			if err := coerce(path{}, obj, withEmbedded(rootSchema), false); err != nil {
				all = append(all, invalid(defPath, s.Default.Object, fmt.Sprintf("must result in valid metadata: %v", err)))
			} else if errs := validateEmbeddedResources(path{}, obj, rootSchema, true); len(errs) > 0 {
				all = append(all, invalid(defPath, s.Default.Object, fmt.Sprintf("must result in valid metadata: %v", errs)))
			} else if errs := validator.validate("", s.Default.Object).toFieldErrors(defPath); len(errs) > 0 {
				all = append(all, errs...)
			}
		} else {
			if requirePruned {
				pruned := deepCopyJSON(s.Default.Object)
				Prune(pruned, s, s.XEmbeddedResource)
				if !reflect.DeepEqual(pruned, s.Default.Object) {
					all = append(all, invalid(defPath, s.Default.Object, "must not have unknown fields"))
				}
			}
			cs := s
			if s.XEmbeddedResource {
				cs = withEmbedded(s)
			}
			if err := coerce(defPath, s.Default.Object, cs, false); err != nil {
				all = append(all, err)
			} else if errs := validateEmbeddedResources(defPath, s.Default.Object, s, s.XEmbeddedResource); len(errs) > 0 {
				all = append(all, errs...)
			} else if errs := validator.validate("", s.Default.Object).toFieldErrors(defPath); len(errs) > 0 {
				all = append(all, errs...)
			}
		}
	}
	if s.Items != nil {
		errs, err := validateDefaults(pth.child("items"), s.Items, rootSchema, f.index(), insideMeta, requirePruned)
		if err != nil {
			return nil, err
		}
		all = append(all, errs...)
	}
	for _, k := range sortedKeys(s.Properties) {
		sub := s.Properties[k]
		subInsideMeta := insideMeta || (s.XEmbeddedResource && metaFields[k])
		errs, err := validateDefaults(pth.child("properties").key(k), &sub, rootSchema, f.child(k), subInsideMeta, requirePruned)
		if err != nil {
			return nil, err
		}
		all = append(all, errs...)
	}
	return all, nil
}

// PruneDefaults prunes every default in s, in place, as the object it
// would land in would be pruned (and its metadata coerced): a default may
// not bring back fields that pruning drops from requests. The API server
// runs it on each CRD version's schema before serving it. It fails only
// for a default that does not fit the schema's shape at all.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting (PruneDefaults).
func PruneDefaults(s *Structural) error {
	_, err := pruneDefaults(s, s, rootObjectFunc())
	return err
}

func pruneDefaults(s, root *Structural, f surroundingObjectFunc) (bool, error) {
	if s == nil {
		return false, nil
	}
	changed := false
	if s.Default.Object != nil {
		orig := deepCopyJSON(s.Default.Object)
		obj, acc, err := f(s.Default.Object)
		if err != nil {
			return false, fmt.Errorf("failed to prune default value: %v", err)
		}
		if err := Coerce(obj, root, true, true); err != nil {
			return false, fmt.Errorf("failed to prune default value: %v", err)
		}
		Prune(obj, root, true)
		if s.Default.Object, _, err = acc(obj); err != nil {
			return false, fmt.Errorf("failed to prune default value: %v", err)
		}
		changed = !reflect.DeepEqual(orig, s.Default.Object)
	}
	if s.AdditionalProperties != nil && s.AdditionalProperties.Structural != nil {
		c, err := pruneDefaults(s.AdditionalProperties.Structural, root, f.child("*"))
		if err != nil {
			return false, err
		}
		changed = changed || c
	}
	if s.Items != nil {
		c, err := pruneDefaults(s.Items, root, f.index())
		if err != nil {
			return false, err
		}
		changed = changed || c
	}
	for _, k := range sortedKeys(s.Properties) {
		sub := s.Properties[k]
		c, err := pruneDefaults(&sub, root, f.child(k))
		if err != nil {
			return false, err
		}
		if c {
			s.Properties[k] = sub
			changed = true
		}
	}
	return changed, nil
}
