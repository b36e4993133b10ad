package validation

import (
	"encoding/json"
	"reflect"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// ValidateSecret checks a defaulted Secret (stringData already merged into
// data): a namespaced object named by a DNS subdomain, whose keys are valid
// file names, whose values total at most corev1.MaxSecretSize, and which
// holds what its type requires (a service account name, a docker config
// that is JSON, a username or password, an SSH key, a certificate and its
// key).
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateSecret).
func ValidateSecret(s *corev1.Secret) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&s.ObjectMeta, true, NameIsDNSSubdomain, "metadata")
	data := path("data")
	total := 0
	for _, key := range sortedKeys(s.Data) {
		for _, msg := range IsConfigMapKey(key) {
			errs = append(errs, apierrors.Invalid(data.key(key).String(), key, msg))
		}
		total += len(s.Data[key])
	}
	if total > corev1.MaxSecretSize {
		errs = append(errs, apierrors.TooLong(data.String(), "", corev1.MaxSecretSize))
	}
	required := func(key string) {
		errs = append(errs, apierrors.Required(data.key(key).String(), ""))
	}
	switch s.Type {
	case corev1.SecretTypeServiceAccountToken:
		// The token controller fills the rest in later.
		if s.Annotations[corev1.ServiceAccountNameKey] == "" {
			errs = append(errs, apierrors.Required(path("metadata").child("annotations").key(corev1.ServiceAccountNameKey).String(), ""))
		}
	case corev1.SecretTypeDockercfg, corev1.SecretTypeDockerConfigJSON:
		key := corev1.DockerConfigKey
		if s.Type == corev1.SecretTypeDockerConfigJSON {
			key = corev1.DockerConfigJSONKey
		}
		cfg, ok := s.Data[key]
		if !ok {
			required(key)
			break
		}
		if err := json.Unmarshal(cfg, &map[string]any{}); err != nil {
			errs = append(errs, apierrors.Invalid(data.key(key).String(), "<secret contents redacted>", err.Error()))
		}
	case corev1.SecretTypeBasicAuth:
		_, hasUser := s.Data[corev1.BasicAuthUsernameKey]
		_, hasPassword := s.Data[corev1.BasicAuthPasswordKey]
		// Either may be empty, but one must be there.
		if !hasUser && !hasPassword {
			required(corev1.BasicAuthUsernameKey)
			required(corev1.BasicAuthPasswordKey)
		}
	case corev1.SecretTypeSSHAuth:
		if len(s.Data[corev1.SSHAuthPrivateKey]) == 0 {
			required(corev1.SSHAuthPrivateKey)
		}
	case corev1.SecretTypeTLS:
		if _, ok := s.Data[corev1.TLSCertKey]; !ok {
			required(corev1.TLSCertKey)
		}
		if _, ok := s.Data[corev1.TLSPrivateKeyKey]; !ok {
			required(corev1.TLSPrivateKeyKey)
		}
	}
	return errs
}

// ValidateSecretUpdate checks an update of a Secret: the metadata update
// rules, an unchanged type, the new Secret, and, once immutable, unchanged
// data and immutability.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateSecretUpdate).
func ValidateSecretUpdate(s, old *corev1.Secret) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&s.ObjectMeta, &old.ObjectMeta, "metadata")
	errs = append(errs, ValidateImmutableField(s.Type, old.Type, "type")...)
	if old.Immutable != nil && *old.Immutable {
		if s.Immutable == nil || !*s.Immutable {
			errs = append(errs, apierrors.Forbidden("immutable", immutableDataMsg))
		}
		if !reflect.DeepEqual(s.Data, old.Data) {
			errs = append(errs, apierrors.Forbidden("data", immutableDataMsg))
		}
	}
	return append(errs, ValidateSecret(s)...)
}
