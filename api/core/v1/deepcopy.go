package v1

import "github.com/minicp/minicp/api/runtime"

// Every kind copies itself with runtime.DeepCopy, so a field added to a
// type is copied without touching this file.

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Namespace) DeepCopy() *Namespace {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Namespace) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *NamespaceList) DeepCopy() *NamespaceList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *NamespaceList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Pod) DeepCopy() *Pod {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Pod) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *PodList) DeepCopy() *PodList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *PodList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Node) DeepCopy() *Node {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Node) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *NodeList) DeepCopy() *NodeList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *NodeList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Binding) DeepCopy() *Binding {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Binding) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Event) DeepCopy() *Event {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Event) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *EventList) DeepCopy() *EventList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *EventList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// Compile-time checks that every kind is a runtime.Object.
var (
	_ runtime.Object = (*Namespace)(nil)
	_ runtime.Object = (*NamespaceList)(nil)
	_ runtime.Object = (*Pod)(nil)
	_ runtime.Object = (*PodList)(nil)
	_ runtime.Object = (*Node)(nil)
	_ runtime.Object = (*NodeList)(nil)
	_ runtime.Object = (*Binding)(nil)
	_ runtime.Object = (*Event)(nil)
	_ runtime.Object = (*EventList)(nil)
)
