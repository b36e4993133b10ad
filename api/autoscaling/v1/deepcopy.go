package v1

import "github.com/minicp/minicp/api/runtime"

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Scale) DeepCopy() *Scale {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Scale) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// Compile-time check that Scale is a runtime.Object.
var _ runtime.Object = (*Scale)(nil)
