package validation

import (
	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	apivalidation "github.com/minicp/minicp/api/validation"
)

// options are the rules that are relaxed on update when the stored CRD
// already breaks them, so that a CRD accepted by an older server can
// still be updated.
type options struct {
	allowDefaults                            bool
	requireRecognizedConversionReviewVersion bool
	requireImmutableNames                    bool
	requireOpenAPISchema                     bool
	requireValidPropertyType                 bool
	requireStructuralSchema                  bool
	requirePrunedDefaults                    bool
	requireAtomicSetType                     bool
	requireMapListKeysMapSetValidation       bool
	// allowInvalidCABundle is set on create and while the CRD is not
	// established, and on update when the stored bundle is invalid too.
	allowInvalidCABundle bool
	// allowTooManySelectableFields names the versions ("" for the
	// top-level fields) whose unchanged selectable fields were already
	// over the limit.
	allowTooManySelectableFields map[string]bool
}

// ValidateCustomResourceDefinition checks a new CRD, after defaulting
// (apiextensionsv1.SetDefaults): its metadata (the name must be
// <spec.names.plural>.<spec.group>), its spec, its status and its stored
// versions, and the API approval annotation for *.k8s.io and
// *.kubernetes.io groups.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceDefinition).
func ValidateCustomResourceDefinition(crd *apiextensionsv1.CustomResourceDefinition) apierrors.FieldErrors {
	nameFn := func(name string, prefix bool) []string {
		errs := apivalidation.NameIsDNSSubdomain(name, prefix)
		if name != crd.Spec.Names.Plural+"."+crd.Spec.Group {
			errs = append(errs, `must be spec.names.plural+"."+spec.group`)
		}
		return errs
	}
	opts := options{
		allowDefaults:                            true,
		requireRecognizedConversionReviewVersion: true,
		requireOpenAPISchema:                     true,
		requireValidPropertyType:                 true,
		requireStructuralSchema:                  true,
		requirePrunedDefaults:                    true,
		requireAtomicSetType:                     true,
		requireMapListKeysMapSetValidation:       true,
		allowInvalidCABundle:                     true,
	}
	spec := newSpecView(&crd.Spec)
	errs := withoutCoreFinalizerRule(apivalidation.ValidateObjectMeta(&crd.ObjectMeta, false, nameFn, "metadata"))
	errs = append(errs, validateSpec(spec, opts, newPath("spec"))...)
	errs = append(errs, ValidateCustomResourceDefinitionStatus(&crd.Status)...)
	errs = append(errs, validateStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, newPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApproval(crd, nil)...)
	errs = append(errs, validatePreserveUnknownFields(crd, nil)...)
	return errs
}

// ValidateCustomResourceDefinitionUpdate checks an update of a CRD: as
// ValidateCustomResourceDefinition, except that rules the stored CRD
// already breaks are not enforced, plus the immutable fields: group and
// names.plural always, scope and names.kind once the CRD is established.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceDefinitionUpdate).
func ValidateCustomResourceDefinitionUpdate(crd, old *apiextensionsv1.CustomResourceDefinition) apierrors.FieldErrors {
	oldSpec := newSpecView(&old.Spec)
	opts := options{
		allowDefaults: true,
		requireRecognizedConversionReviewVersion: old.Spec.Conversion == nil ||
			hasValidConversionReviewVersionOrEmpty(conversionReviewVersions(old.Spec.Conversion)),
		requireImmutableNames:              apiextensionsv1.IsCRDConditionTrue(old, apiextensionsv1.Established),
		requireOpenAPISchema:               allVersionsSpecifyOpenAPISchema(oldSpec),
		requireValidPropertyType:           !hasSchemaWith(oldSpec, schemaHasInvalidTypes),
		requireStructuralSchema:            !hasSchemaWith(oldSpec, schemaIsNonStructural),
		requirePrunedDefaults:              !hasSchemaWith(oldSpec, schemaHasUnprunedDefaults),
		requireAtomicSetType:               !hasSchemaWith(oldSpec, hasNonAtomicSetType),
		requireMapListKeysMapSetValidation: !hasSchemaWith(oldSpec, hasInvalidMapListKeysMapSet),
		allowInvalidCABundle:               allowInvalidCABundle(old),
		allowTooManySelectableFields:       tooManySelectableFieldsAllowed(newSpecView(&crd.Spec), oldSpec),
	}
	spec := newSpecView(&crd.Spec)
	errs := withoutCoreFinalizerRule(apivalidation.ValidateObjectMetaUpdate(&crd.ObjectMeta, &old.ObjectMeta, "metadata"))
	errs = append(errs, validateSpecUpdate(spec, oldSpec, opts, newPath("spec"))...)
	errs = append(errs, ValidateCustomResourceDefinitionStatus(&crd.Status)...)
	errs = append(errs, validateStoredVersions(crd.Status.StoredVersions, crd.Spec.Versions, newPath("status", "storedVersions"))...)
	errs = append(errs, validateAPIApproval(crd, old)...)
	errs = append(errs, validatePreserveUnknownFields(crd, old)...)
	return errs
}

// ValidateUpdateCustomResourceDefinitionStatus checks an update through
// the status subresource: the metadata update and the accepted names.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateUpdateCustomResourceDefinitionStatus).
func ValidateUpdateCustomResourceDefinitionStatus(crd, old *apiextensionsv1.CustomResourceDefinition) apierrors.FieldErrors {
	errs := withoutCoreFinalizerRule(apivalidation.ValidateObjectMetaUpdate(&crd.ObjectMeta, &old.ObjectMeta, "metadata"))
	return append(errs, ValidateCustomResourceDefinitionStatus(&crd.Status)...)
}

// ValidateCustomResourceDefinitionStatus checks the accepted names.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceDefinitionStatus).
func ValidateCustomResourceDefinitionStatus(status *apiextensionsv1.CustomResourceDefinitionStatus) apierrors.FieldErrors {
	return validateNames(&status.AcceptedNames, newPath("status", "acceptedNames"))
}

func conversionReviewVersions(c *apiextensionsv1.CustomResourceConversion) []string {
	if c == nil || c.Webhook == nil {
		return nil
	}
	return c.Webhook.ConversionReviewVersions
}
