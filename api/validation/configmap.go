package validation

import (
	"reflect"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// immutableDataMsg is the detail of a change to the data of an immutable
// ConfigMap or Secret.
const immutableDataMsg = "field is immutable when `immutable` is set"

// ValidateConfigMap checks a ConfigMap: a namespaced object named by a DNS
// subdomain, whose keys are valid file names, unique across data and
// binaryData, and whose values total at most corev1.MaxSecretSize.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateConfigMap).
func ValidateConfigMap(cm *corev1.ConfigMap) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&cm.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	total := 0
	for _, key := range sortedKeys(cm.Data) {
		keyPath := path("data").key(key).String()
		for _, msg := range IsConfigMapKey(key) {
			errs = append(errs, apierrors.Invalid(keyPath, key, msg))
		}
		if _, dup := cm.BinaryData[key]; dup {
			errs = append(errs, apierrors.Invalid(keyPath, key, "duplicate of key present in binaryData"))
		}
		total += len(cm.Data[key])
	}
	for _, key := range sortedKeys(cm.BinaryData) {
		for _, msg := range IsConfigMapKey(key) {
			errs = append(errs, apierrors.Invalid(path("binaryData").key(key).String(), key, msg))
		}
		total += len(cm.BinaryData[key])
	}
	if total > corev1.MaxSecretSize {
		// Upstream reports it at the empty path: the whole object.
		errs = append(errs, apierrors.TooLong("", "", corev1.MaxSecretSize))
	}
	return errs
}

// ValidateConfigMapUpdate checks an update of a ConfigMap: the metadata
// update rules, the new ConfigMap, and, once immutable, unchanged data and
// immutability.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateConfigMapUpdate).
func ValidateConfigMapUpdate(cm, old *corev1.ConfigMap) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&cm.ObjectMeta, &old.ObjectMeta, "metadata")
	if old.Immutable != nil && *old.Immutable {
		if cm.Immutable == nil || !*cm.Immutable {
			errs = append(errs, apierrors.Forbidden("immutable", immutableDataMsg))
		}
		if !reflect.DeepEqual(cm.Data, old.Data) {
			errs = append(errs, apierrors.Forbidden("data", immutableDataMsg))
		}
		if !reflect.DeepEqual(cm.BinaryData, old.BinaryData) {
			errs = append(errs, apierrors.Forbidden("binaryData", immutableDataMsg))
		}
	}
	return append(errs, ValidateConfigMap(cm)...)
}
