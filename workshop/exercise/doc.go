// Package exercise holds what the workshop's skeletons return until the
// learner has written them: a NotDoneError naming the missing piece, so a
// test can stop at once with "not written yet" rather than time out
// waiting for a change the skeleton never makes.
package exercise
