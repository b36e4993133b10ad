// Package labels parses and matches label selectors
// ("app=web,tier in (fe,be),!canary"), as list and watch requests, the
// watch cache and controllers use them.
//
// Parse reads the string form of the ?labelSelector= query parameter;
// FromLabelSelector converts the structured metav1.LabelSelector that
// Deployments, ReplicaSets and Jobs carry. Both give a Selector whose
// String is canonical: requirements sorted by key, values sorted.
//
// Keys are validated as qualified names and values as label values with
// the rules of package validation, so a selector that parses could also be
// stored as labels.
//
// Upstream: k8s.io/apimachinery/pkg/labels.
package labels
