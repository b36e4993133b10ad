package validation

import (
	"fmt"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
)

// The pod fields an environment variable can take from fieldRef, and the
// ones a downward API volume can (both also take subscripted
// metadata.labels['key'] and metadata.annotations['key']).
var (
	envFieldPaths = []string{
		"metadata.name", "metadata.namespace", "metadata.uid", "spec.nodeName", "spec.serviceAccountName",
		"status.hostIP", "status.hostIPs", "status.podIP", "status.podIPs",
	}
	volumeFieldPaths = []string{
		"metadata.annotations", "metadata.labels", "metadata.name", "metadata.namespace", "metadata.uid",
	}
	// resourceFieldPaths are what resourceFieldRef can expose.
	resourceFieldPaths = []string{
		"limits.cpu", "limits.ephemeral-storage", "limits.memory",
		"requests.cpu", "requests.ephemeral-storage", "requests.memory",
	}
)

func validateEnv(vars []corev1.EnvVar, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, ev := range vars {
		idxPath := fldPath.index(i)
		if ev.Name == "" {
			errs = append(errs, apierrors.Required(idxPath.child("name").String(), ""))
		} else {
			for _, msg := range IsEnvVarName(ev.Name) {
				errs = append(errs, apierrors.Invalid(idxPath.child("name").String(), ev.Name, msg))
			}
		}
		errs = append(errs, validateEnvVarValueFrom(ev, idxPath.child("valueFrom"))...)
	}
	return errs
}

func validateEnvVarValueFrom(ev corev1.EnvVar, fldPath path) apierrors.FieldErrors {
	from := ev.ValueFrom
	if from == nil {
		return nil
	}
	var errs apierrors.FieldErrors
	sources := 0
	if from.FieldRef != nil {
		sources++
		errs = append(errs, validateObjectFieldSelector(from.FieldRef, envFieldPaths, fldPath.child("fieldRef"))...)
	}
	if from.ResourceFieldRef != nil {
		sources++
		errs = append(errs, validateResourceFieldSelector(from.ResourceFieldRef, fldPath.child("resourceFieldRef"))...)
	}
	if from.ConfigMapKeyRef != nil {
		sources++
		errs = append(errs, validateKeySelector(from.ConfigMapKeyRef.Name, from.ConfigMapKeyRef.Key, fldPath.child("configMapKeyRef"))...)
	}
	if from.SecretKeyRef != nil {
		sources++
		errs = append(errs, validateKeySelector(from.SecretKeyRef.Name, from.SecretKeyRef.Key, fldPath.child("secretKeyRef"))...)
	}
	switch {
	case sources == 0:
		errs = append(errs, apierrors.Invalid(fldPath.String(), "", "must specify one of: `fieldRef`, `resourceFieldRef`, `configMapKeyRef` or `secretKeyRef`"))
	case ev.Value != "":
		errs = append(errs, apierrors.Invalid(fldPath.String(), "", "may not be specified when `value` is not empty"))
	case sources > 1:
		errs = append(errs, apierrors.Invalid(fldPath.String(), "", "may not have more than one field specified at a time"))
	}
	return errs
}

// validateObjectFieldSelector checks a fieldRef: apiVersion v1 and one of
// the allowed field paths, or a subscripted label or annotation.
func validateObjectFieldSelector(fs *corev1.ObjectFieldSelector, allowed []string, fldPath path) apierrors.FieldErrors {
	if fs.APIVersion == "" {
		return apierrors.FieldErrors{apierrors.Required(fldPath.child("apiVersion").String(), "")}
	}
	if fs.FieldPath == "" {
		return apierrors.FieldErrors{apierrors.Required(fldPath.child("fieldPath").String(), "")}
	}
	if fs.APIVersion != "v1" {
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.child("fieldPath").String(), fs.FieldPath,
			fmt.Sprintf("error converting fieldPath: unsupported pod version: %s", fs.APIVersion))}
	}
	if field, subscript, ok := splitSubscript(fs.FieldPath); ok {
		switch field {
		case "metadata.annotations":
			return validateQualifiedNameField(strings.ToLower(subscript), fldPath)
		case "metadata.labels":
			return validateQualifiedNameField(subscript, fldPath)
		}
		return apierrors.FieldErrors{apierrors.Invalid(fldPath.String(), field, "does not support subscript")}
	}
	for _, a := range allowed {
		if fs.FieldPath == a {
			return nil
		}
	}
	return apierrors.FieldErrors{apierrors.NotSupported(fldPath.child("fieldPath").String(), fs.FieldPath, allowed)}
}

// splitSubscript splits "metadata.labels['app']" into the field and "app".
func splitSubscript(fieldPath string) (field, subscript string, ok bool) {
	if !strings.HasSuffix(fieldPath, "']") {
		return "", "", false
	}
	field, rest, found := strings.Cut(fieldPath, "['")
	if !found {
		return "", "", false
	}
	return field, strings.TrimSuffix(rest, "']"), true
}

// validateResourceFieldSelector checks a resourceFieldRef: a known
// resource and, for cpu and memory, a divisor from upstream's list.
func validateResourceFieldSelector(fs *corev1.ResourceFieldSelector, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	known := false
	for _, r := range resourceFieldPaths {
		known = known || fs.Resource == r
	}
	switch {
	case fs.Resource == "":
		errs = append(errs, apierrors.Required(fldPath.child("resource").String(), ""))
	case !known && !strings.HasPrefix(fs.Resource, "limits.hugepages-") && !strings.HasPrefix(fs.Resource, "requests.hugepages-"):
		errs = append(errs, apierrors.NotSupported(fldPath.child("resource").String(), fs.Resource, resourceFieldPaths))
	}
	if fs.Divisor.IsZero() {
		return errs
	}
	switch {
	case strings.HasSuffix(fs.Resource, ".cpu"):
		if !quantityIn(fs.Divisor, "1m", "1") {
			errs = append(errs, apierrors.Invalid(fldPath.child("divisor").String(), fs.Divisor.String(), "only divisor's values 1m and 1 are supported with the cpu resource"))
		}
	case strings.HasSuffix(fs.Resource, ".memory"), strings.HasSuffix(fs.Resource, ".ephemeral-storage"):
		if !quantityIn(fs.Divisor, "1", "1k", "1M", "1G", "1T", "1P", "1Ki", "1Mi", "1Gi", "1Ti", "1Pi") {
			errs = append(errs, apierrors.Invalid(fldPath.child("divisor").String(), fs.Divisor.String(),
				"only divisor's values 1, 1k, 1M, 1G, 1T, 1P, 1E, 1Ki, 1Mi, 1Gi, 1Ti, 1Pi, 1Ei are supported with the memory resource"))
		}
	}
	return errs
}

func quantityIn(q resource.Quantity, values ...string) bool {
	for _, v := range values {
		if q.Equal(resource.MustParse(v)) {
			return true
		}
	}
	return false
}

// validateKeySelector checks a configMapKeyRef or secretKeyRef.
func validateKeySelector(name, key string, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for _, msg := range IsDNS1123Subdomain(name) {
		errs = append(errs, apierrors.Invalid(fldPath.child("name").String(), name, msg))
	}
	if key == "" {
		errs = append(errs, apierrors.Required(fldPath.child("key").String(), ""))
	} else {
		for _, msg := range IsConfigMapKey(key) {
			errs = append(errs, apierrors.Invalid(fldPath.child("key").String(), key, msg))
		}
	}
	return errs
}

func validateEnvFrom(sources []corev1.EnvFromSource, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	for i, src := range sources {
		idxPath := fldPath.index(i)
		if src.Prefix != "" {
			for _, msg := range IsEnvVarName(src.Prefix) {
				errs = append(errs, apierrors.Invalid(idxPath.child("prefix").String(), src.Prefix, msg))
			}
		}
		n := 0
		if src.ConfigMapRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(src.ConfigMapRef.Name, idxPath.child("configMapRef", "name"))...)
		}
		if src.SecretRef != nil {
			n++
			errs = append(errs, validateEnvSourceName(src.SecretRef.Name, idxPath.child("secretRef", "name"))...)
		}
		switch {
		case n == 0:
			errs = append(errs, apierrors.Invalid(fldPath.String(), "", "must specify one of: `configMapRef` or `secretRef`"))
		case n > 1:
			errs = append(errs, apierrors.Invalid(fldPath.String(), "", "may not have more than one field specified at a time"))
		}
	}
	return errs
}

func validateEnvSourceName(name string, fldPath path) apierrors.FieldErrors {
	if name == "" {
		return apierrors.FieldErrors{apierrors.Required(fldPath.String(), "")}
	}
	return validateSubdomainField(name, fldPath)
}
