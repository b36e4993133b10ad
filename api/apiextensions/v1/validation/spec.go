package validation

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	apivalidation "github.com/minicp/minicp/api/validation"
)

// maxSelectableFields bounds spec.versions[*].selectableFields: each is
// an index the API server keeps.
const maxSelectableFields = 8

// acceptedConversionReviewVersions are the ConversionReview versions the
// API server sends.
var acceptedConversionReviewVersions = []string{"v1", "v1beta1"}

func validateSpec(spec *specView, opts options, fldPath path) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if spec.Group == "" {
		all = append(all, required(fldPath.child("group"), ""))
	} else if errs := apivalidation.IsDNS1123Subdomain(spec.Group); len(errs) > 0 {
		all = append(all, invalid(fldPath.child("group"), spec.Group, strings.Join(errs, ",")))
	} else if len(strings.Split(spec.Group, ".")) < 2 {
		all = append(all, invalid(fldPath.child("group"), spec.Group, "should be a domain with at least one dot"))
	}
	all = append(all, validateEnumStrings(fldPath.child("scope"), string(spec.Scope), []string{string(apiextensionsv1.ClusterScoped), string(apiextensionsv1.NamespaceScoped)}, true)...)

	// Pruning, which v1 always does, needs structural schemas.
	if !spec.PreserveUnknownFields {
		opts.requireStructuralSchema = true
	}
	if opts.requireOpenAPISchema {
		if spec.validation == nil || spec.validation.OpenAPIV3Schema == nil {
			for i, v := range spec.versions {
				if v.schema == nil || v.schema.OpenAPIV3Schema == nil {
					all = append(all, required(fldPath.child("versions").index(i).child("schema", "openAPIV3Schema"), ""))
				}
			}
		}
	} else if !spec.PreserveUnknownFields {
		if spec.validation == nil || spec.validation.OpenAPIV3Schema == nil {
			for i, v := range spec.versions {
				if v.Served && (v.schema == nil || v.schema.OpenAPIV3Schema == nil) {
					all = append(all, required(fldPath.child("versions").index(i).child("schema", "openAPIV3Schema"), "because otherwise all fields are pruned"))
				}
			}
		}
	}
	if opts.allowDefaults && hasSchemaWith(spec, schemaHasDefaults) {
		opts.requireStructuralSchema = true
		if spec.PreserveUnknownFields {
			all = append(all, invalid(fldPath.child("preserveUnknownFields"), true, "must be false in order to use defaults in the schema"))
		}
	}
	if hasSchemaWith(spec, schemaHasKubernetesExtensions) {
		opts.requireStructuralSchema = true
	}

	storageFlagCount := 0
	seen := map[string]bool{}
	uniqueNames := true
	for i := range spec.versions {
		v := &spec.versions[i]
		if v.Storage {
			storageFlagCount++
		}
		if seen[v.Name] {
			uniqueNames = false
		}
		seen[v.Name] = true
		if errs := apivalidation.IsDNS1035Label(v.Name); len(errs) > 0 {
			all = append(all, invalid(fldPath.child("versions").index(i).child("name"), v.Name, strings.Join(errs, ",")))
		}
		subresources := spec.subresources
		if hasPerVersionSubresources(spec) {
			subresources = v.subresources
		}
		all = append(all, validateVersion(v, fldPath.child("versions").index(i), hasStatus(subresources), opts)...)
	}
	if !uniqueNames {
		all = append(all, invalid(fldPath.child("versions"), toInternalVersions(spec.versions), "must contain unique version names"))
	}
	if storageFlagCount != 1 {
		all = append(all, invalid(fldPath.child("versions"), toInternalVersions(spec.versions), "must have exactly one version marked as storage version"))
	}
	if spec.version != "" {
		if errs := apivalidation.IsDNS1035Label(spec.version); len(errs) > 0 {
			all = append(all, invalid(fldPath.child("version"), spec.version, strings.Join(errs, ",")))
		}
	}

	// Some names are required in spec but not in status.
	names := fldPath.child("names")
	if spec.Names.Plural == "" {
		all = append(all, required(names.child("plural"), ""))
	}
	if spec.Names.Singular == "" {
		all = append(all, required(names.child("singular"), ""))
	}
	if spec.Names.Kind == "" {
		all = append(all, required(names.child("kind"), ""))
	}
	if spec.Names.ListKind == "" {
		all = append(all, required(names.child("listKind"), ""))
	}
	all = append(all, validateNames(&spec.Names, names)...)
	all = append(all, validateValidation(spec.validation, hasAnyStatus(spec), opts, fldPath.child("validation"))...)
	all = append(all, validateSubresources(spec.subresources, fldPath.child("subresources"))...)
	for i := range spec.columns {
		all = append(all, validateColumn(&spec.columns[i], fldPath.child("additionalPrinterColumns").index(i))...)
	}
	if len(spec.selectableFields) > 0 {
		if spec.validation == nil {
			all = append(all, invalid(fldPath.child("selectableFields"), "", "may only be set when validations.schema is included"))
		} else {
			all = append(all, validateSelectableFields(spec.selectableFields, spec.validation.OpenAPIV3Schema, fldPath, opts, "")...)
		}
	}
	if spec.Conversion != nil && spec.Conversion.Strategy != apiextensionsv1.NoneConverter && spec.PreserveUnknownFields {
		all = append(all, invalid(fldPath.child("conversion", "strategy"), string(spec.Conversion.Strategy), "must be None if spec.preserveUnknownFields is true"))
	}
	all = append(all, validateConversion(spec.Conversion, opts.requireRecognizedConversionReviewVersion, fldPath.child("conversion"), opts)...)
	return all
}

func validateSpecUpdate(spec, old *specView, opts options, fldPath path) apierrors.FieldErrors {
	all := validateSpec(spec, opts, fldPath)
	if opts.requireImmutableNames {
		all = append(all, apivalidation.ValidateImmutableField(string(spec.Scope), string(old.Scope), fldPath.child("scope").s)...)
		all = append(all, apivalidation.ValidateImmutableField(spec.Names.Kind, old.Names.Kind, fldPath.child("names", "kind").s)...)
	}
	// The group and plural make up the resource, and so the CRD's name.
	all = append(all, apivalidation.ValidateImmutableField(spec.Group, old.Group, fldPath.child("group").s)...)
	all = append(all, apivalidation.ValidateImmutableField(spec.Names.Plural, old.Names.Plural, fldPath.child("names", "plural").s)...)
	return all
}

func validateEnumStrings(fldPath path, value string, accepted []string, isRequired bool) apierrors.FieldErrors {
	if value == "" {
		if isRequired {
			return apierrors.FieldErrors{required(fldPath, "")}
		}
		return nil
	}
	for _, a := range accepted {
		if a == value {
			return nil
		}
	}
	return apierrors.FieldErrors{notSupported(fldPath, value, accepted)}
}

func validateVersion(v *versionView, fldPath path, statusEnabled bool, opts options) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	for _, msg := range validateDeprecationWarning(v.Deprecated, v.DeprecationWarning) {
		all = append(all, invalid(fldPath.child("deprecationWarning"), v.DeprecationWarning, msg))
	}
	all = append(all, validateValidation(v.schema, statusEnabled, opts, fldPath.child("schema"))...)
	all = append(all, validateSubresources(v.subresources, fldPath.child("subresources"))...)
	for i := range v.columns {
		all = append(all, validateColumn(&v.columns[i], fldPath.child("additionalPrinterColumns").index(i))...)
	}
	if len(v.selectableFields) > 0 {
		if v.schema == nil || v.schema.OpenAPIV3Schema == nil {
			all = append(all, invalid(fldPath.child("selectableFields"), "", "may only be set when `version.schema.openAPIV3Schema` is not included"))
		} else {
			all = append(all, validateSelectableFields(v.selectableFields, v.schema.OpenAPIV3Schema, fldPath, opts, v.Name)...)
		}
	}
	return all
}

func validateDeprecationWarning(deprecated bool, warning *string) []string {
	if !deprecated && warning != nil {
		return []string{"can only be set for deprecated versions"}
	}
	if warning == nil {
		return nil
	}
	var errs []string
	if len(*warning) > 256 {
		errs = append(errs, "must be <= 256 characters long")
	}
	if len(*warning) == 0 {
		errs = append(errs, "must not be an empty string")
	}
	for i, r := range *warning {
		if !unicode.IsPrint(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; non-printable character found at index %d", i))
			break
		}
		if unicode.IsControl(r) {
			errs = append(errs, fmt.Sprintf("must only contain printable UTF-8 characters; control character found at index %d", i))
			break
		}
	}
	if !utf8.ValidString(*warning) {
		errs = append(errs, "must only contain printable UTF-8 characters")
	}
	return errs
}

// validateNames checks the names of spec.names or status.acceptedNames.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceDefinitionNames).
func validateNames(names *apiextensionsv1.CustomResourceDefinitionNames, fldPath path) apierrors.FieldErrors {
	var all apierrors.FieldErrors
	if errs := apivalidation.IsDNS1035Label(names.Plural); names.Plural != "" && len(errs) > 0 {
		all = append(all, invalid(fldPath.child("plural"), names.Plural, strings.Join(errs, ",")))
	}
	if errs := apivalidation.IsDNS1035Label(names.Singular); names.Singular != "" && len(errs) > 0 {
		all = append(all, invalid(fldPath.child("singular"), names.Singular, strings.Join(errs, ",")))
	}
	if errs := apivalidation.IsDNS1035Label(strings.ToLower(names.Kind)); names.Kind != "" && len(errs) > 0 {
		all = append(all, invalid(fldPath.child("kind"), names.Kind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	if errs := apivalidation.IsDNS1035Label(strings.ToLower(names.ListKind)); names.ListKind != "" && len(errs) > 0 {
		all = append(all, invalid(fldPath.child("listKind"), names.ListKind, "may have mixed case, but should otherwise match: "+strings.Join(errs, ",")))
	}
	for i, shortName := range names.ShortNames {
		if errs := apivalidation.IsDNS1035Label(shortName); len(errs) > 0 {
			all = append(all, invalid(fldPath.child("shortNames").index(i), shortName, strings.Join(errs, ",")))
		}
	}
	// kind and listKind may not be the same or parsing becomes ambiguous.
	if names.Kind != "" && names.Kind == names.ListKind {
		all = append(all, invalid(fldPath.child("listKind"), names.ListKind, "kind and listKind may not be the same"))
	}
	for i, category := range names.Categories {
		if errs := apivalidation.IsDNS1035Label(category); len(errs) > 0 {
			all = append(all, invalid(fldPath.child("categories").index(i), category, strings.Join(errs, ",")))
		}
	}
	return all
}

func hasPerVersionSubresources(spec *specView) bool {
	for _, v := range spec.versions {
		if v.subresources != nil {
			return true
		}
	}
	return false
}

func hasStatus(s *apiextensionsv1.CustomResourceSubresources) bool {
	return s != nil && s.Status != nil
}

func hasAnyStatus(spec *specView) bool {
	if hasStatus(spec.subresources) {
		return true
	}
	for _, v := range spec.versions {
		if hasStatus(v.subresources) {
			return true
		}
	}
	return false
}
