// Package validation checks objects the way the Kubernetes API server
// does before it persists them, and reports each problem as an
// apierrors.FieldError with the JSON path of the field
// ("spec.containers[0].image") and Kubernetes' wording, so that the 422
// Invalid Status a client sees reads the same as a real cluster's.
//
// It has three layers: the Is* functions check one string against one
// naming rule (DNS label, qualified name, ...); ValidateObjectMeta and
// ValidateObjectMetaUpdate check the metadata every object has; and
// Validate<Kind>, Validate<Kind>Update and friends check one kind. The API
// server calls the kind functions after defaulting (corev1.SetDefaults), so
// they expect defaulted objects: a missing restartPolicy is an error here.
//
// On the request path it is the object schema validation step: after
// decoding and mutating admission, before validating admission and etcd.
//
// Upstream: k8s.io/apimachinery/pkg/util/validation (names),
// k8s.io/apimachinery/pkg/api/validation (object metadata) and
// k8s.io/kubernetes/pkg/apis/core/validation (kinds).
package validation
