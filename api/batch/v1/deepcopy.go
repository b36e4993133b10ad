package v1

import "github.com/minicp/minicp/api/runtime"

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Job) DeepCopy() *Job {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Job) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *JobList) DeepCopy() *JobList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *JobList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// Compile-time checks that every kind is a runtime.Object.
var (
	_ runtime.Object = (*Job)(nil)
	_ runtime.Object = (*JobList)(nil)
)
