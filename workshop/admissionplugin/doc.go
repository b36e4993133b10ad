// Package admissionplugin is the workshop's admission exercise: two
// plugins of the API server's admission chain, one mutating (the pods of
// a Deployment carry its team label) and one validating (every
// Deployment names its team). The learner writes Admit and Validate
// (admit.go); see README.md.
package admissionplugin
