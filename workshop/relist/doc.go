// Package relist is the workshop's list-watch exercise: a loop that keeps
// an in-memory cache of ConfigMaps current by listing, then watching from
// the list's resourceVersion, resuming a watch that ended, and listing
// again when the API server answers 410 Gone. The learner writes Run
// (run.go); see README.md.
package relist
