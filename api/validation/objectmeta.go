package validation

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// FieldImmutableErrorMsg is the detail of an update to a field that may
// not change.
const FieldImmutableErrorMsg = "field is immutable"

// TotalAnnotationSizeLimitB bounds the summed length of an object's
// annotation keys and values: 256 KiB.
const TotalAnnotationSizeLimitB = 256 * (1 << 10)

// finalizerKubernetes is the namespace controller's finalizer. With the
// garbage collector's (metav1.FinalizerOrphanDependents and
// FinalizerDeleteDependents) it is the only finalizer name allowed
// without a domain prefix.
const finalizerKubernetes = "kubernetes"

// ValidateNameFunc checks an object name; with prefix set it checks a
// generateName prefix, to which a random suffix is still to be added.
type ValidateNameFunc func(name string, prefix bool) []string

// NameIsDNSSubdomain is the name rule of most kinds (pods, nodes, events).
func NameIsDNSSubdomain(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Subdomain(name)
}

// NameIsDNSLabel is the name rule of namespaces.
func NameIsDNSLabel(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1123Label(name)
}

// NameIsDNS1035Label is the name rule of services.
func NameIsDNS1035Label(name string, prefix bool) []string {
	if prefix {
		name = maskTrailingDash(name)
	}
	return IsDNS1035Label(name)
}

// NameIsPathSegment is the rule every name satisfies: it must be usable as
// one segment of a URL path.
func NameIsPathSegment(name string, prefix bool) []string {
	if prefix {
		// A prefix gets a suffix, so only its content matters.
		var errs []string
		for _, illegal := range []string{"/", "%"} {
			if strings.Contains(name, illegal) {
				errs = append(errs, fmt.Sprintf("may not contain '%s'", illegal))
			}
		}
		return errs
	}
	return IsValidPathSegmentName(name)
}

// maskTrailingDash makes a generateName prefix such as "web-" checkable as
// a name: the generated suffix will follow the dash.
func maskTrailingDash(name string) string {
	if len(name) > 1 && strings.HasSuffix(name, "-") {
		return name[:len(name)-2] + "a"
	}
	return name
}

// ValidateObjectMeta checks the metadata of an object being created: a
// name (nameFn's rule; generateName must already have been turned into a
// name), a namespace when requiresNamespace and none otherwise, a
// non-negative generation, labels, annotations (each key a qualified name,
// at most TotalAnnotationSizeLimitB in all), owner references and
// finalizers. fldPath is "metadata" for a top-level object.
//
// Upstream: k8s.io/apimachinery/pkg/api/validation (ValidateObjectMeta),
// with the finalizer rule of k8s.io/kubernetes/pkg/apis/core/validation.
func ValidateObjectMeta(meta *metav1.ObjectMeta, requiresNamespace bool, nameFn ValidateNameFunc, fldPath string) apierrors.FieldErrors {
	p := path(fldPath)
	var errs apierrors.FieldErrors
	if meta.GenerateName != "" {
		for _, msg := range nameFn(meta.GenerateName, true) {
			errs = append(errs, apierrors.Invalid(p.child("generateName").String(), meta.GenerateName, msg))
		}
	}
	if meta.Name == "" {
		errs = append(errs, apierrors.Required(p.child("name").String(), "name or generateName is required"))
	} else {
		for _, msg := range nameFn(meta.Name, false) {
			errs = append(errs, apierrors.Invalid(p.child("name").String(), meta.Name, msg))
		}
	}
	if requiresNamespace {
		if meta.Namespace == "" {
			errs = append(errs, apierrors.Required(p.child("namespace").String(), ""))
		} else {
			for _, msg := range IsDNS1123Label(meta.Namespace) {
				errs = append(errs, apierrors.Invalid(p.child("namespace").String(), meta.Namespace, msg))
			}
		}
	} else if meta.Namespace != "" {
		errs = append(errs, apierrors.Forbidden(p.child("namespace").String(), "not allowed on this type"))
	}
	if meta.Generation < 0 {
		errs = append(errs, apierrors.Invalid(p.child("generation").String(), meta.Generation, "must be greater than or equal to 0"))
	}
	errs = append(errs, ValidateLabels(meta.Labels, p.child("labels").String())...)
	errs = append(errs, ValidateAnnotations(meta.Annotations, p.child("annotations").String())...)
	errs = append(errs, validateOwnerReferences(meta.OwnerReferences, p.child("ownerReferences"))...)
	errs = append(errs, validateFinalizers(meta.Finalizers, p.child("finalizers"))...)
	return errs
}

// ValidateObjectMetaUpdate checks the metadata of an update: name,
// namespace, uid, creationTimestamp, deletionTimestamp and
// deletionGracePeriodSeconds are immutable ("field is immutable"); the
// resourceVersion must be set (the API server fills it from storage for
// unconditional updates before validating); generation may not go down; no
// finalizer may be added to an object being deleted; labels, annotations,
// owner references and finalizers must be valid (so kind update functions
// need not run ValidateObjectMeta again).
//
// Upstream: k8s.io/apimachinery/pkg/api/validation (ValidateObjectMetaUpdate).
func ValidateObjectMetaUpdate(newMeta, oldMeta *metav1.ObjectMeta, fldPath string) apierrors.FieldErrors {
	p := path(fldPath)
	var errs apierrors.FieldErrors
	if oldMeta.DeletionTimestamp != nil {
		for i, f := range newMeta.Finalizers {
			if !slices.Contains(oldMeta.Finalizers, f) {
				errs = append(errs, apierrors.Forbidden(p.child("finalizers").index(i).String(),
					fmt.Sprintf("no new finalizers can be added if the object is being deleted, found new finalizer %q", f)))
			}
		}
	}
	if newMeta.ResourceVersion == "" {
		errs = append(errs, apierrors.Invalid(p.child("resourceVersion").String(), newMeta.ResourceVersion, "must be specified for an update"))
	}
	if newMeta.Generation < oldMeta.Generation {
		errs = append(errs, apierrors.Invalid(p.child("generation").String(), newMeta.Generation, "must not be decremented"))
	}
	errs = append(errs, ValidateImmutableField(newMeta.Name, oldMeta.Name, p.child("name").String())...)
	errs = append(errs, ValidateImmutableField(newMeta.Namespace, oldMeta.Namespace, p.child("namespace").String())...)
	errs = append(errs, ValidateImmutableField(newMeta.UID, oldMeta.UID, p.child("uid").String())...)
	errs = append(errs, ValidateImmutableField(newMeta.CreationTimestamp, oldMeta.CreationTimestamp, p.child("creationTimestamp").String())...)
	errs = append(errs, ValidateImmutableField(newMeta.DeletionTimestamp, oldMeta.DeletionTimestamp, p.child("deletionTimestamp").String())...)
	errs = append(errs, ValidateImmutableField(newMeta.DeletionGracePeriodSeconds, oldMeta.DeletionGracePeriodSeconds, p.child("deletionGracePeriodSeconds").String())...)
	errs = append(errs, ValidateLabels(newMeta.Labels, p.child("labels").String())...)
	errs = append(errs, ValidateAnnotations(newMeta.Annotations, p.child("annotations").String())...)
	errs = append(errs, validateOwnerReferences(newMeta.OwnerReferences, p.child("ownerReferences"))...)
	errs = append(errs, validateFinalizers(newMeta.Finalizers, p.child("finalizers"))...)
	return errs
}

// ValidateImmutableField reports newVal as "field is immutable" when it
// differs from oldVal (compared deeply; times compare as instants).
func ValidateImmutableField(newVal, oldVal any, fldPath string) apierrors.FieldErrors {
	if semanticEqual(newVal, oldVal) {
		return nil
	}
	return apierrors.FieldErrors{apierrors.Invalid(fldPath, newVal, FieldImmutableErrorMsg)}
}

// semanticEqual is reflect.DeepEqual except that times are equal when they
// are the same instant, whatever their location.
func semanticEqual(a, b any) bool {
	switch a := a.(type) {
	case metav1.Time:
		if b, ok := b.(metav1.Time); ok {
			return a.Equal(b.Time)
		}
	case *metav1.Time:
		if b, ok := b.(*metav1.Time); ok {
			if a == nil || b == nil {
				return a == b
			}
			return a.Equal(b.Time)
		}
	}
	return reflect.DeepEqual(a, b)
}

// ValidateLabels checks label keys as qualified names and values as label
// values. Errors are reported at fldPath itself, as upstream does.
func ValidateLabels(labels map[string]string, fldPath string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, k := range sortedKeys(labels) {
		errs = append(errs, validateLabelName(k, path(fldPath))...)
		for _, msg := range IsValidLabelValue(labels[k]) {
			errs = append(errs, apierrors.Invalid(fldPath, labels[k], msg))
		}
	}
	return errs
}

func validateLabelName(name string, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, msg := range IsQualifiedName(name) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), name, msg))
	}
	return errs
}

// ValidateAnnotations checks annotation keys as qualified names (case
// insensitively) and their total size.
func ValidateAnnotations(annotations map[string]string, fldPath string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	total := 0
	for _, k := range sortedKeys(annotations) {
		for _, msg := range IsQualifiedName(strings.ToLower(k)) {
			errs = append(errs, apierrors.Invalid(fldPath, k, msg))
		}
		total += len(k) + len(annotations[k])
	}
	if total > TotalAnnotationSizeLimitB {
		errs = append(errs, apierrors.TooLong(fldPath, "", TotalAnnotationSizeLimitB))
	}
	return errs
}

// validateOwnerReferences checks that each reference names its owner fully
// and that at most one is the controller. Upstream reports these at the
// list's path, without an index.
func validateOwnerReferences(refs []metav1.OwnerReference, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	controller := ""
	for _, ref := range refs {
		gvVersion := ref.APIVersion
		if _, v, ok := strings.Cut(ref.APIVersion, "/"); ok {
			gvVersion = v
		}
		if gvVersion == "" {
			errs = append(errs, apierrors.Invalid(fldPath.child("apiVersion").String(), ref.APIVersion, "version must not be empty"))
		}
		if ref.Kind == "" {
			errs = append(errs, apierrors.Invalid(fldPath.child("kind").String(), ref.Kind, "kind must not be empty"))
		}
		if ref.Name == "" {
			errs = append(errs, apierrors.Invalid(fldPath.child("name").String(), ref.Name, "name must not be empty"))
		}
		if ref.UID == "" {
			errs = append(errs, apierrors.Invalid(fldPath.child("uid").String(), ref.UID, "uid must not be empty"))
		}
		if ref.Controller != nil && *ref.Controller {
			name := ref.Kind + "/" + ref.Name
			if controller != "" {
				errs = append(errs, apierrors.Invalid(fldPath.String(), name,
					fmt.Sprintf("Only one reference can have Controller set to true. Found \"true\" in references for %v and %v", controller, name)))
			} else {
				controller = name
			}
		}
	}
	return errs
}

// validateFinalizers checks each finalizer is a qualified name, and a
// standard one when it has no domain prefix.
func validateFinalizers(finalizers []string, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, f := range finalizers {
		errs = append(errs, validateFinalizerName(f, fldPath)...)
	}
	if slices.Contains(finalizers, metav1.FinalizerOrphanDependents) && slices.Contains(finalizers, metav1.FinalizerDeleteDependents) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), finalizers,
			fmt.Sprintf("finalizer %s and %s cannot be both set", metav1.FinalizerOrphanDependents, metav1.FinalizerDeleteDependents)))
	}
	return errs
}

func validateFinalizerName(name string, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, msg := range IsQualifiedName(name) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), name, msg))
	}
	if len(errs) == 0 && !strings.Contains(name, "/") {
		switch name {
		case finalizerKubernetes, metav1.FinalizerOrphanDependents, metav1.FinalizerDeleteDependents:
		default:
			errs = append(errs, apierrors.Invalid(fldPath.String(), name, "name is neither a standard finalizer name nor is it fully qualified"))
		}
	}
	return errs
}

// sortedKeys returns m's keys in order, so errors come out in the same
// order every time.
func sortedKeys[K ~string, V any](m map[K]V) []K {
	keys := make([]K, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
