package schema

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/validation"
)

// withEmbedded returns s marked as an embedded resource, for the root of
// an object: its apiVersion, kind and metadata are then those of a
// Kubernetes object whatever the schema says.
func withEmbedded(s *Structural) *Structural {
	if s == nil {
		s = &Structural{}
	}
	if !s.XEmbeddedResource {
		clone := *s
		clone.XEmbeddedResource = true
		s = &clone
	}
	return s
}

// validateEmbeddedResources checks apiVersion, kind and metadata of every
// x-kubernetes-embedded-resource object in x (and of x itself when
// isResourceRoot is set). The object's own metadata is the API server's
// business, so Validate calls it with isResourceRoot false.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta (Validate).
func validateEmbeddedResources(pth path, x any, s *Structural, isResourceRoot bool) apierrors.FieldErrors {
	if isResourceRoot {
		s = withEmbedded(s)
	}
	return validateObjectMeta(pth, x, s)
}

func validateObjectMeta(pth path, x any, s *Structural) apierrors.FieldErrors {
	if s == nil {
		return nil
	}
	var all apierrors.FieldErrors
	switch x := x.(type) {
	case map[string]any:
		if s.XEmbeddedResource {
			all = append(all, validateEmbeddedResource(pth, x)...)
		}
		for _, k := range sortedKeys(x) {
			if prop, ok := s.Properties[k]; ok {
				all = append(all, validateObjectMeta(pth.child(k), x[k], &prop)...)
			} else if s.AdditionalProperties != nil {
				all = append(all, validateObjectMeta(pth.key(k), x[k], s.AdditionalProperties.Structural)...)
			}
		}
	case []any:
		for i, v := range x {
			all = append(all, validateObjectMeta(pth.index(i), v, s.Items)...)
		}
	}
	return all
}

func validateEmbeddedResource(pth path, x map[string]any) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if _, ok := x["apiVersion"]; !ok {
		all = append(all, required(pth.child("apiVersion"), ""))
	}
	if _, ok := x["kind"]; !ok {
		all = append(all, required(pth.child("kind"), ""))
	}
	for _, k := range sortedKeys(x) {
		v := x[k]
		switch k {
		case "apiVersion":
			apiVersion, ok := v.(string)
			switch {
			case !ok:
				all = append(all, invalid(pth.child("apiVersion"), v, "must be a string"))
			case apiVersion == "":
				all = append(all, invalid(pth.child("apiVersion"), apiVersion, "must not be empty"))
			default:
				if err := checkGroupVersion(apiVersion); err != nil {
					all = append(all, invalid(pth.child("apiVersion"), apiVersion, err.Error()))
				}
			}
		case "kind":
			kind, ok := v.(string)
			switch {
			case !ok:
				all = append(all, invalid(pth.child("kind"), v, "must be a string"))
			case kind == "":
				all = append(all, invalid(pth.child("kind"), kind, "must not be empty"))
			default:
				if errs := validation.IsDNS1035Label(strings.ToLower(kind)); len(errs) > 0 {
					all = append(all, invalid(pth.child("kind"), kind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
				}
			}
		case "metadata":
			meta, _, err := objectMetaOf(x, false)
			if err != nil {
				all = append(all, invalid(pth.child("metadata"), v, err.Error()))
				continue
			}
			if meta.Name == "" {
				meta.Name = "fakename" // upstream sets a name so that a missing one is no error
			}
			all = append(all, withoutCoreFinalizerRule(validation.ValidateObjectMeta(meta, meta.Namespace != "", validation.NameIsPathSegment, pth.child("metadata").s))...)
		}
	}
	return all
}

// objectMetaOf decodes obj["metadata"] as an ObjectMeta. With
// dropMalformed, fields that do not decode are dropped one by one instead
// of failing the whole.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta (GetObjectMeta).
func objectMetaOf(obj map[string]any, dropMalformed bool) (*metav1.ObjectMeta, bool, error) {
	metadata, found := obj["metadata"]
	if !found {
		return nil, false, nil
	}
	raw, err := json.Marshal(metadata)
	if err != nil {
		return nil, false, err
	}
	meta := &metav1.ObjectMeta{}
	err = json.Unmarshal(raw, meta)
	if err == nil {
		return meta, true, nil
	}
	if !dropMalformed {
		return nil, true, err
	}
	m, ok := metadata.(map[string]any)
	if !ok {
		return nil, false, fmt.Errorf("invalid metadata: expected object, got %T", metadata)
	}
	acc := &metav1.ObjectMeta{}
	for _, k := range sortedKeys(m) {
		single, err := json.Marshal(map[string]any{k: m[k]})
		if err != nil {
			continue
		}
		if json.Unmarshal(single, &metav1.ObjectMeta{}) == nil {
			_ = json.Unmarshal(single, acc)
		}
	}
	return acc, true, nil
}

// setObjectMeta replaces obj["metadata"] with meta's JSON form, which
// drops unknown fields and normalizes the rest.
func setObjectMeta(obj map[string]any, meta *metav1.ObjectMeta) error {
	raw, err := json.Marshal(meta)
	if err != nil {
		return err
	}
	v, err := DecodeJSON(raw)
	if err != nil {
		return err
	}
	obj["metadata"] = v
	return nil
}

// Coerce normalizes the apiVersion, kind and metadata of the embedded
// resources in obj (and of obj itself when isResourceRoot is set), in
// place: metadata is decoded as an ObjectMeta and encoded again, which
// drops unknown fields. A value of the wrong type is an error, or, with
// dropInvalidFields (used when reading from storage), dropped. The API
// server calls it with isResourceRoot false, after Prune, because it
// decodes the object's own metadata into its typed form itself.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/objectmeta (Coerce).
func Coerce(obj any, s *Structural, isResourceRoot, dropInvalidFields bool) *apierrors.FieldError {
	if isResourceRoot {
		s = withEmbedded(s)
	}
	return coerce(path{}, obj, s, dropInvalidFields)
}

func coerce(pth path, x any, s *Structural, dropInvalid bool) *apierrors.FieldError {
	if s == nil {
		return nil
	}
	switch x := x.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			v := x[k]
			if s.XEmbeddedResource {
				switch k {
				case "apiVersion", "kind":
					if _, ok := v.(string); !ok {
						if !dropInvalid {
							return invalid(pth.child(k), v, "must be a string")
						}
						delete(x, k)
					}
				case "metadata":
					meta, found, err := objectMetaOf(x, dropInvalid)
					if err != nil {
						if !dropInvalid {
							return invalid(pth.child("metadata"), v, err.Error())
						}
					} else if found {
						if err := setObjectMeta(x, meta); err != nil {
							return invalid(pth.child("metadata"), v, err.Error())
						}
					}
				}
			}
			if prop, ok := s.Properties[k]; ok {
				if err := coerce(pth.child(k), x[k], &prop, dropInvalid); err != nil {
					return err
				}
			} else if s.AdditionalProperties != nil {
				if err := coerce(pth.key(k), x[k], s.AdditionalProperties.Structural, dropInvalid); err != nil {
					return err
				}
			}
		}
	case []any:
		for i, v := range x {
			if err := coerce(pth.index(i), v, s.Items, dropInvalid); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkGroupVersion fails on an apiVersion with more than one slash.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/schema (ParseGroupVersion).
func checkGroupVersion(gv string) error {
	if gv == "" || gv == "/" || strings.Count(gv, "/") <= 1 {
		return nil
	}
	return fmt.Errorf("unexpected GroupVersion string: %v", gv)
}

// coreFinalizerRule is the detail of the finalizer rule of core kinds,
// which api/validation's ObjectMeta checks apply. Embedded resources are
// held to the generic rule (a qualified name) only, as upstream does.
const coreFinalizerRule = "name is neither a standard finalizer name nor is it fully qualified"

func withoutCoreFinalizerRule(errs apierrors.FieldErrors) apierrors.FieldErrors {
	out := errs[:0]
	for _, e := range errs {
		if e.Detail != coreFinalizerRule {
			out = append(out, e)
		}
	}
	return out
}
