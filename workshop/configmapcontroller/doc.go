// Package configmapcontroller is the workshop's first exercise: a
// controller that turns a ConfigMap into a Deployment and keeps the
// Deployment matching it. The learner writes Reconcile (reconcile.go);
// see README.md.
package configmapcontroller
