package runtime

// Object is any kind that can be sent and stored: it carries TypeMeta and
// can copy itself. Persisted kinds also satisfy metav1.Object (reach their
// metadata with metav1.Accessor), lists satisfy metav1.ListInterface.
type Object interface {
	GetTypeMeta() *TypeMeta
	DeepCopyObject() Object
}

// TypeMeta says what an object is on the wire: its kind and the
// group/version the kind is spelled in. The server fills it on every
// response. metav1.TypeMeta is the same type; it lives here so that
// runtime needs nothing from metav1 and metav1's kinds (Status, Table) can
// be Objects.
type TypeMeta struct {
	Kind       string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,2,opt,name=apiVersion"`
}

// GetTypeMeta gives access to the embedded TypeMeta of any object, so
// generic code can read and set kind and apiVersion without reflection.
func (t *TypeMeta) GetTypeMeta() *TypeMeta { return t }
