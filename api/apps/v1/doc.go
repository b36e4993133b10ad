// Package v1 holds the apps/v1 kinds: Deployment, ReplicaSet and
// StatefulSet, with their lists, the constants they use, their defaults
// (SetDefaults) and their registration (AddToScheme).
//
// Import it as appsv1. Field names, JSON spellings, protobuf field numbers
// and patch strategies match k8s.io/api/apps/v1, so `kubectl create
// deployment` (which sends protobuf), manifests written for a real cluster
// and client-go all work unchanged. The json tags are upstream's, word for
// word, as in corev1, so objects encode to kube-apiserver's bytes.
//
// What these are for: a Deployment owns ReplicaSets, one per pod
// template revision, and each ReplicaSet keeps spec.replicas Pods
// matching its selector running. The controllers that do so live in
// controllers; this package is only the API.
//
// Upstream: k8s.io/api/apps/v1.
package v1
