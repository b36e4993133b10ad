package validation

import (
	"fmt"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

var (
	printerColumnDatatypes                = []string{"boolean", "date", "integer", "number", "string"}
	customResourceColumnDefinitionFormats = []string{"byte", "date", "date-time", "double", "float", "int32", "int64", "password"}
)

// validateSubresources checks the scale subresource's paths.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceDefinitionSubresources).
func validateSubresources(s *apiextensionsv1.CustomResourceSubresources, fldPath path) apierrors.FieldErrors {
	if s == nil || s.Scale == nil {
		return nil
	}
	var all apierrors.FieldErrors
	sc := s.Scale
	if sc.SpecReplicasPath == "" {
		all = append(all, required(fldPath.child("scale.specReplicasPath"), ""))
	} else if errs := validateSimpleJSONPath(sc.SpecReplicasPath, fldPath.child("scale.specReplicasPath")); len(errs) > 0 {
		all = append(all, errs...)
	} else if !strings.HasPrefix(sc.SpecReplicasPath, ".spec.") {
		all = append(all, invalid(fldPath.child("scale.specReplicasPath"), sc.SpecReplicasPath, "should be a json path under .spec"))
	}
	if sc.StatusReplicasPath == "" {
		all = append(all, required(fldPath.child("scale.statusReplicasPath"), ""))
	} else if errs := validateSimpleJSONPath(sc.StatusReplicasPath, fldPath.child("scale.statusReplicasPath")); len(errs) > 0 {
		all = append(all, errs...)
	} else if !strings.HasPrefix(sc.StatusReplicasPath, ".status.") {
		all = append(all, invalid(fldPath.child("scale.statusReplicasPath"), sc.StatusReplicasPath, "should be a json path under .status"))
	}
	if sc.LabelSelectorPath != nil && *sc.LabelSelectorPath != "" {
		p := *sc.LabelSelectorPath
		if errs := validateSimpleJSONPath(p, fldPath.child("scale.labelSelectorPath")); len(errs) > 0 {
			all = append(all, errs...)
		} else if !strings.HasPrefix(p, ".spec.") && !strings.HasPrefix(p, ".status.") {
			all = append(all, invalid(fldPath.child("scale.labelSelectorPath"), sc.LabelSelectorPath, "should be a json path under either .spec or .status"))
		}
	}
	return all
}

func validateSimpleJSONPath(s string, fldPath path) apierrors.FieldErrors {
	switch {
	case s == "":
		return apierrors.FieldErrors{invalid(fldPath, s, "must not be empty")}
	case s[0] != '.':
		return apierrors.FieldErrors{invalid(fldPath, s, "must be a simple json path starting with .")}
	}
	return nil
}

// validateColumn checks one printer column.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceColumnDefinition).
func validateColumn(col *apiextensionsv1.CustomResourceColumnDefinition, fldPath path) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if col.Name == "" {
		all = append(all, required(fldPath.child("name"), ""))
	}
	types := "must be one of " + strings.Join(printerColumnDatatypes, ",")
	if col.Type == "" {
		all = append(all, required(fldPath.child("type"), types))
	} else if !slices.Contains(printerColumnDatatypes, col.Type) {
		all = append(all, invalid(fldPath.child("type"), col.Type, types))
	}
	if col.Format != "" && !slices.Contains(customResourceColumnDefinitionFormats, col.Format) {
		all = append(all, invalid(fldPath.child("format"), col.Format, "must be one of "+strings.Join(customResourceColumnDefinitionFormats, ",")))
	}
	if col.JSONPath == "" {
		all = append(all, required(fldPath.child("JSONPath"), ""))
	} else {
		all = append(all, validateSimpleJSONPath(col.JSONPath, fldPath.child("JSONPath"))...)
	}
	return all
}

// validateSelectableFields checks the selectable fields of a version
// ("" for the hoisted ones): each must name a string, boolean or integer
// field outside metadata, once, and there may be at most eight.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceSelectableFields).
func validateSelectableFields(fields []apiextensionsv1.SelectableField, props *apiextensionsv1.JSONSchemaProps, versionPath path, opts options, version string) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	ss, err := schema.NewStructural(props)
	if err != nil {
		all = append(all, invalid(versionPath.child("schema.openAPIV3Schema"), "", err.Error()))
	}
	fldPath := versionPath.child("selectableFields")
	seen := map[string]bool{}
	for i, f := range fields {
		ip := fldPath.index(i)
		if f.JSONPath == "" {
			all = append(all, required(ip.child("jsonPath"), ""))
			continue
		}
		p, found, err := schema.ValidFieldPath(f.JSONPath, ss, false)
		if err != nil {
			all = append(all, invalid(ip.child("jsonPath"), f.JSONPath, fmt.Sprintf("is an invalid path: %v", err)))
			continue
		}
		if p == "metadata" || strings.HasPrefix(p, "metadata.") || strings.HasPrefix(p, "metadata[") {
			all = append(all, invalid(ip.child("jsonPath"), f.JSONPath, "must not point to fields in metadata"))
		}
		if found == nil || (found.Type != "string" && found.Type != "boolean" && found.Type != "integer") {
			all = append(all, invalid(ip.child("jsonPath"), f.JSONPath, "must point to a field of type string, boolean or integer. Enum string fields and strings with formats are allowed."))
		}
		if seen[p] {
			all = append(all, duplicate(ip.child("jsonPath"), f.JSONPath))
		}
		seen[p] = true
	}
	if len(seen) > maxSelectableFields && !opts.allowTooManySelectableFields[version] {
		all = append(all, tooMany(fldPath, len(seen), maxSelectableFields))
	}
	return all
}

// tooManySelectableFieldsAllowed finds the versions whose selectable
// fields were over the limit before and have not changed.
func tooManySelectableFieldsAllowed(spec, old *specView) map[string]bool {
	out := map[string]bool{}
	if len(old.selectableFields) > maxSelectableFields && semanticEqual(spec.selectableFields, old.selectableFields) {
		out[""] = true
	}
	oldVersions := map[string]versionView{}
	for _, v := range old.versions {
		oldVersions[v.Name] = v
	}
	for _, v := range spec.versions {
		o, ok := oldVersions[v.Name]
		if ok && len(o.selectableFields) > maxSelectableFields && semanticEqual(v.selectableFields, o.selectableFields) {
			out[v.Name] = true
		}
	}
	return out
}
