package storagetest

import (
	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// WidgetResource names the Widget resource in stores and errors.
var WidgetResource = runtime.GroupResource{Group: "test.minicp.io", Resource: "widgets"}

// Widget is a small namespaced kind for storage tests.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata"`
	Spec              WidgetSpec `json:"spec"`
}

// WidgetSpec is what tests change: Color is selectable as spec.color,
// Counter counts updates.
type WidgetSpec struct {
	Color   string `json:"color,omitempty"`
	Counter int64  `json:"counter,omitempty"`
}

// DeepCopyObject implements runtime.Object.
func (w *Widget) DeepCopyObject() runtime.Object { return runtime.DeepCopy(w) }

// NewWidget returns an empty Widget: the NewFunc of a Widget store.
func NewWidget() runtime.Object { return &Widget{} }

// WidgetAttrs is the Widget's storage.AttrFunc: its labels, and the fields
// metadata.name, metadata.namespace and spec.color.
func WidgetAttrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	ls, fs, err := storage.DefaultAttrs(obj)
	if err != nil {
		return nil, nil, err
	}
	if w, ok := obj.(*Widget); ok {
		fs["spec.color"] = w.Spec.Color
	}
	return ls, fs, nil
}
