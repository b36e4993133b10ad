package exercise

import "errors"

// NotDoneError is the error of a function a learner has not written yet.
type NotDoneError struct {
	// What names the missing piece and where to start, e.g. "Reconcile:
	// create the Deployment".
	What string
}

// Error says what is missing.
func (e *NotDoneError) Error() string { return "not written yet: " + e.What }

// NotDone returns a NotDoneError for what.
func NotDone(what string) error { return &NotDoneError{What: what} }

// IsNotDone reports whether err is, or wraps, a NotDoneError.
func IsNotDone(err error) bool {
	var nd *NotDoneError
	return errors.As(err, &nd)
}
