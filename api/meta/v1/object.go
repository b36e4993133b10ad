package v1

// Object is what every persisted kind satisfies by embedding TypeMeta and
// ObjectMeta: generic code (storage, admission, the registry) reaches the
// metadata through it without reflection.
type Object interface {
	GetTypeMeta() *TypeMeta
	GetObjectMeta() *ObjectMeta
}

// ListInterface is what every list kind satisfies by embedding TypeMeta and
// ListMeta.
type ListInterface interface {
	GetTypeMeta() *TypeMeta
	GetListMeta() *ListMeta
}

// ControllerRef returns the owner reference with controller=true, or nil:
// an object has at most one managing controller.
func (m *ObjectMeta) ControllerRef() *OwnerReference {
	for i := range m.OwnerReferences {
		if c := m.OwnerReferences[i].Controller; c != nil && *c {
			return &m.OwnerReferences[i]
		}
	}
	return nil
}
