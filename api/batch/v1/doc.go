// Package v1 holds the batch/v1 Job, with its list, the constants it
// uses, its defaults (SetDefaults) and its registration (AddToScheme).
//
// Import it as batchv1. Field names, JSON spellings, protobuf field
// numbers and patch strategies match k8s.io/api/batch/v1, so `kubectl
// create job` (which sends protobuf) and manifests written for a real
// cluster work unchanged. Fields are a subset of upstream's; the json tags
// are upstream's, word for word, as in corev1.
//
// The Job flow: a Job is persisted, the job
// controller creates pods from its template, the scheduler and the
// kubelet run them, and the exit codes in the pods' status decide whether
// the Job completes, fails once backoffLimit is reached, or gets a new pod.
// The controller lives in controllers; this package is only the API.
//
// Upstream: k8s.io/api/batch/v1.
package v1
