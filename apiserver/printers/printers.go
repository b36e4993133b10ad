// Package printers renders objects as meta.k8s.io Tables: the columns and
// cells `kubectl get` shows. The server renders them so every client prints
// the same columns, as kube-apiserver does. Built-in kinds have a Printer
// each; a custom resource's comes from its CRD's additionalPrinterColumns
// through CustomColumns.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion.
package printers

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Printer renders one kind: its columns, and a row of cells per object.
type Printer struct {
	Columns []metav1.TableColumnDefinition
	// Cells returns one cell per column for obj.
	Cells func(obj runtime.Object, now time.Time) []any
}

// NameColumn is the first column of every table.
var NameColumn = metav1.TableColumnDefinition{Name: "Name", Type: "string", Format: "name",
	Description: "Name must be unique within a namespace."}

// AgeColumn shows how long ago an object was created.
var AgeColumn = metav1.TableColumnDefinition{Name: "Age", Type: "string",
	Description: "CreationTimestamp is a timestamp representing the server time when this object was created."}

// Default renders any kind as Name and Created At, the columns
// kube-apiserver shows for kinds without a printer.
var Default = Printer{
	Columns: []metav1.TableColumnDefinition{
		NameColumn,
		{Name: "Created At", Type: "date", Description: AgeColumn.Description},
	},
	Cells: func(obj runtime.Object, _ time.Time) []any {
		meta := metav1.MustAccessor(obj)
		return []any{meta.Name, meta.CreationTimestamp.UTC().Format(time.RFC3339)}
	},
}

// ConvertToTable renders obj (an object or a list) with p. includeObject
// is None, Metadata (default) or Object.
func (p Printer) ConvertToTable(_ context.Context, obj runtime.Object, includeObject string, now time.Time) (*metav1.Table, error) {
	// Checked up front, not per row, so an empty list rejects it too.
	switch includeObject {
	case "", "None", "Metadata", "Object":
	default:
		return nil, invalidIncludeObject(includeObject)
	}
	table := &metav1.Table{
		TypeMeta:          metav1.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/v1"},
		ColumnDefinitions: p.Columns,
		Rows:              []metav1.TableRow{},
	}
	items := []runtime.Object{obj}
	if list, ok := obj.(metav1.ListInterface); ok {
		var err error
		if items, err = runtime.ListItems(obj); err != nil {
			return nil, apierrors.NewInternalError(err)
		}
		table.ListMeta = *list.GetListMeta()
	} else if meta, err := metav1.Accessor(obj); err == nil {
		table.ResourceVersion = meta.ResourceVersion
	}
	for _, item := range items {
		raw, err := rowObject(item, includeObject)
		if err != nil {
			return nil, err
		}
		table.Rows = append(table.Rows, metav1.TableRow{Cells: p.Cells(item, now), Object: raw})
	}
	return table, nil
}

func rowObject(obj runtime.Object, includeObject string) (json.RawMessage, error) {
	var v any
	switch includeObject {
	case "None":
		return nil, nil
	case "Object":
		v = obj
	case "", "Metadata":
		meta := metav1.MustAccessor(obj)
		v = &metav1.PartialObjectMetadata{
			TypeMeta:   metav1.TypeMeta{Kind: "PartialObjectMetadata", APIVersion: "meta.k8s.io/v1"},
			ObjectMeta: *meta,
		}
	default:
		return nil, invalidIncludeObject(includeObject)
	}
	data, err := json.Marshal(v)
	if err != nil {
		return nil, apierrors.NewInternalError(err)
	}
	return data, nil
}

func invalidIncludeObject(v string) error {
	return apierrors.NewBadRequest(fmt.Sprintf("unsupported includeObject %q; supported values: None, Metadata, Object", v))
}

// HumanDuration renders an age as kubectl does: 45s, 12m, 3h, 2d, 3y40d.
//
// Upstream: k8s.io/apimachinery/pkg/util/duration (HumanDuration).
func HumanDuration(d time.Duration) string {
	switch {
	// Less than two seconds in the future is clock skew between the
	// object's writer and this server: it reads as now.
	case d <= -2*time.Second:
		return "<invalid>"
	case d < 0:
		return "0s"
	case d < 2*time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < 10*time.Minute:
		s := int(d.Seconds()) % 60
		if s == 0 {
			return fmt.Sprintf("%dm", int(d.Minutes()))
		}
		return fmt.Sprintf("%dm%ds", int(d.Minutes()), s)
	case d < 3*time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 8*time.Hour:
		m := int(d.Minutes()) % 60
		if m == 0 {
			return fmt.Sprintf("%dh", int(d.Hours()))
		}
		return fmt.Sprintf("%dh%dm", int(d.Hours()), m)
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	case d < 8*24*time.Hour:
		h := int(d.Hours()) % 24
		if h == 0 {
			return fmt.Sprintf("%dd", int(d.Hours()/24))
		}
		return fmt.Sprintf("%dd%dh", int(d.Hours()/24), h)
	case d < 2*365*24*time.Hour:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	case d < 8*365*24*time.Hour:
		days := int(d.Hours()) / 24
		if days%365 == 0 {
			return fmt.Sprintf("%dy", days/365)
		}
		return fmt.Sprintf("%dy%dd", days/365, days%365)
	default:
		return fmt.Sprintf("%dy", int(d.Hours()/24/365))
	}
}

// Age renders the age of obj at now.
func Age(obj runtime.Object, now time.Time) string {
	ts := metav1.MustAccessor(obj).CreationTimestamp
	if ts.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(ts.Time))
}
