package v1

import "github.com/minicp/minicp/api/runtime"

// Every kind copies itself with runtime.DeepCopy, so a field added to a
// type is copied without touching this file.

// DeepCopy returns a copy of x that shares nothing with it.
func (x *CustomResourceDefinition) DeepCopy() *CustomResourceDefinition {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *CustomResourceDefinition) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *CustomResourceDefinitionList) DeepCopy() *CustomResourceDefinitionList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *CustomResourceDefinitionList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it: the schema
// engine builds from a copy, so later changes to a CRD object cannot
// reach a schema in use.
func (x *JSONSchemaProps) DeepCopy() *JSONSchemaProps {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// Compile-time checks that every kind is a runtime.Object.
var (
	_ runtime.Object = (*CustomResourceDefinition)(nil)
	_ runtime.Object = (*CustomResourceDefinitionList)(nil)
)
