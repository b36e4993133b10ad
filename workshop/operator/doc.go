// Package operator is the workshop's operator exercise: a
// CustomResourceDefinition, Website, and the controller that publishes
// each Website to a ConfigMap in another namespace, reports what it did
// in the Website's status, and cleans up through a finalizer. The learner
// writes Reconcile (reconcile.go); see README.md.
package operator
