package v1

import "github.com/minicp/minicp/api/runtime"

// The copies of the service, endpoints, config and service account kinds,
// made with runtime.DeepCopy as in deepcopy.go.

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Service) DeepCopy() *Service {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Service) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ServiceList) DeepCopy() *ServiceList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ServiceList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Endpoints) DeepCopy() *Endpoints {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Endpoints) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *EndpointsList) DeepCopy() *EndpointsList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *EndpointsList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ConfigMap) DeepCopy() *ConfigMap {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ConfigMap) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ConfigMapList) DeepCopy() *ConfigMapList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ConfigMapList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *Secret) DeepCopy() *Secret {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Secret) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *SecretList) DeepCopy() *SecretList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *SecretList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ServiceAccount) DeepCopy() *ServiceAccount {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ServiceAccount) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ServiceAccountList) DeepCopy() *ServiceAccountList {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ServiceAccountList) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// Compile-time checks that every kind is a runtime.Object.
var (
	_ runtime.Object = (*Service)(nil)
	_ runtime.Object = (*ServiceList)(nil)
	_ runtime.Object = (*Endpoints)(nil)
	_ runtime.Object = (*EndpointsList)(nil)
	_ runtime.Object = (*ConfigMap)(nil)
	_ runtime.Object = (*ConfigMapList)(nil)
	_ runtime.Object = (*Secret)(nil)
	_ runtime.Object = (*SecretList)(nil)
	_ runtime.Object = (*ServiceAccount)(nil)
	_ runtime.Object = (*ServiceAccountList)(nil)
)
