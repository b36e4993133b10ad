// Package scoreplugin is the workshop's scheduler exercise: a Score
// plugin that makes pods prefer the nodes an administrator labelled, run
// by a second scheduler of its own. The learner writes Score (score.go);
// see README.md.
package scoreplugin
