package framework

import (
	"errors"
	"strings"
)

// Code is the outcome a Status carries.
type Code int

// The status codes. The numbering is upstream's, minus Wait and Pending
// (minicp has no Permit plugins and no gated pods).
const (
	// Success means the plugin passed; a nil *Status means Success too.
	Success Code = iota
	// Error means the plugin failed for an internal reason; the cycle
	// fails and the pod is retried with backoff.
	Error
	// Unschedulable means the pod does not fit this node now, but could if
	// the node changed, e.g. after preemption frees resources.
	Unschedulable
	// UnschedulableAndUnresolvable means the pod does not fit this node
	// and preemption cannot change that (a taint, a selector, readiness).
	UnschedulableAndUnresolvable
	// Skip, from PreFilter or PreScore, means the plugin has nothing to do
	// for this pod, so its Filter or Score is not called in this cycle.
	Skip Code = 5
)

var codeNames = map[Code]string{
	Success:                      "Success",
	Error:                        "Error",
	Unschedulable:                "Unschedulable",
	UnschedulableAndUnresolvable: "UnschedulableAndUnresolvable",
	Skip:                         "Skip",
}

// String returns the code's name as upstream spells it.
func (c Code) String() string {
	if s, ok := codeNames[c]; ok {
		return s
	}
	return "Unknown"
}

// Status is what a plugin or the framework returns: a Code, the reasons
// for it (each one counted separately in the FailedScheduling message),
// and, for Error, the underlying error. A nil *Status is Success, and every
// method works on nil.
//
// Upstream: k8s.io/kube-scheduler/framework (Status).
type Status struct {
	code    Code
	reasons []string
	err     error
	// plugin is the plugin that returned the status; the framework sets it.
	plugin string
}

// NewStatus returns a Status with code and reasons. The reasons are the
// phrases of the FailedScheduling message, e.g. "Insufficient cpu".
func NewStatus(code Code, reasons ...string) *Status {
	return &Status{code: code, reasons: reasons}
}

// AsStatus wraps err in a Status with code Error, or returns nil for a nil
// err.
func AsStatus(err error) *Status {
	if err == nil {
		return nil
	}
	return &Status{code: Error, reasons: []string{err.Error()}, err: err}
}

// Code returns the code; Success for nil.
func (s *Status) Code() Code {
	if s == nil {
		return Success
	}
	return s.code
}

// Reasons returns the reasons. The caller must not modify the slice.
func (s *Status) Reasons() []string {
	if s == nil {
		return nil
	}
	return s.reasons
}

// Message returns the reasons joined with ", ".
func (s *Status) Message() string {
	if s == nil {
		return ""
	}
	return strings.Join(s.reasons, ", ")
}

// Plugin returns the name of the plugin that returned the status, as the
// framework recorded it; "" if none did.
func (s *Status) Plugin() string {
	if s == nil {
		return ""
	}
	return s.plugin
}

// IsSuccess reports whether the status is nil or has code Success.
func (s *Status) IsSuccess() bool { return s.Code() == Success }

// IsSkip reports whether the code is Skip.
func (s *Status) IsSkip() bool { return s.Code() == Skip }

// IsRejected reports whether the pod was rejected: Unschedulable or
// UnschedulableAndUnresolvable.
func (s *Status) IsRejected() bool {
	c := s.Code()
	return c == Unschedulable || c == UnschedulableAndUnresolvable
}

// AsError returns nil for a successful or skipped status, the wrapped
// error for one made by AsStatus, and otherwise an error whose text is
// Message.
func (s *Status) AsError() error {
	if s.IsSuccess() || s.IsSkip() {
		return nil
	}
	if s.err != nil {
		return s.err
	}
	return errors.New(s.Message())
}

// String is "<Code>: <Message>", for logs and test failures.
func (s *Status) String() string {
	if s.Message() == "" {
		return s.Code().String()
	}
	return s.Code().String() + ": " + s.Message()
}
