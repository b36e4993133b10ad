package runtime_test

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

// Widget is a persisted kind shaped like the built-in ones (inline
// TypeMeta, ObjectMeta under "metadata") with a spec that has one field of
// every shape Decode and DeepCopy must handle.
type Widget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              WidgetSpec `json:"spec,omitzero"`
}

func (w *Widget) DeepCopyObject() runtime.Object { return runtime.DeepCopy(w) }

// WidgetList is Widget's list kind.
type WidgetList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Widget `json:"items"`
}

func (l *WidgetList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// Gadget is a second kind, for lists that cannot hold it.
type Gadget struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
}

func (g *Gadget) DeepCopyObject() runtime.Object { return runtime.DeepCopy(g) }

// WidgetSpec has a field of every shape: maps, lists of structs, pointers,
// types that decode themselves, free-form values, embedded structs (by
// value, by pointer, unexported) and fields JSON never sees.
type WidgetSpec struct {
	Parts    []Part            `json:"parts,omitempty"`
	ByName   map[string]*Part  `json:"byName,omitempty"`
	Selector map[string]string `json:"selector,omitempty"`
	Replicas *int32            `json:"replicas,omitempty"`
	Size     resource.Quantity `json:"size,omitzero"`
	Started  metav1.Time       `json:"started,omitzero"`
	Stopped  *metav1.Time      `json:"stopped,omitempty"`
	Opaque   Opaque            `json:"opaque,omitzero"`
	Free     any               `json:"free,omitempty"`
	Grid     [2]*int32         `json:"grid,omitzero"`
	Matrix   [][]string        `json:"matrix,omitempty"`
	*Extra
	common
	Untagged string
	Ignored  string `json:"-"`
}

// Part is an element of a list of structs.
type Part struct {
	Name   string   `json:"name"`
	Colors []string `json:"colors,omitempty"`
}

// Extra is embedded by pointer: encoding/json flattens its fields.
type Extra struct {
	Note string `json:"note,omitempty"`
}

// common is embedded unexported: encoding/json still flattens its
// exported fields.
type common struct {
	Owner string `json:"owner,omitempty"`
}

// Opaque decodes itself and accepts any JSON value, as a free-form field
// with its own UnmarshalJSON would.
type Opaque struct {
	Raw string
}

func (o *Opaque) UnmarshalJSON(b []byte) error {
	o.Raw = string(b)
	return nil
}
