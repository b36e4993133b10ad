package v1

import "github.com/minicp/minicp/api/runtime"

// Every kind copies itself with runtime.DeepCopy, so a field added to a
// type is copied without touching this file.

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Deployment) DeepCopy() *Deployment {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Deployment) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *DeploymentList) DeepCopy() *DeploymentList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *DeploymentList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ReplicaSet) DeepCopy() *ReplicaSet {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ReplicaSet) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ReplicaSetList) DeepCopy() *ReplicaSetList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ReplicaSetList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// Compile-time checks that every kind is a runtime.Object.
var (
	_ runtime.Object = (*Deployment)(nil)
	_ runtime.Object = (*DeploymentList)(nil)
	_ runtime.Object = (*ReplicaSet)(nil)
	_ runtime.Object = (*ReplicaSetList)(nil)
)
