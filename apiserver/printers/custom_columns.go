package printers

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"time"

	"github.com/minicp/minicp/api/jsonpath"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
)

// ColumnSpec is one column of a custom resource's table: an entry of a
// CustomResourceDefinition version's additionalPrinterColumns.
type ColumnSpec struct {
	// Name is the column's header.
	Name string
	// Type is integer, number, string, boolean or date, and decides how a
	// value becomes a cell (see CustomColumns).
	Type string
	// Format is an OpenAPI format hint passed on to clients.
	Format string
	// Description defaults to one naming JSONPath.
	Description string
	// Priority 0 columns are shown by default; kubectl shows higher ones
	// only with -o wide.
	Priority int32
	// JSONPath is a bare JSONPath expression evaluated against the whole
	// object, metadata included: ".spec.replicas".
	JSONPath string
}

// defaultCustomColumns are the columns of a CRD version that declares
// none.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver (serveDefaultColumnsIfEmpty).
var defaultCustomColumns = []ColumnSpec{
	{Name: "Age", Type: "date", Description: AgeColumn.Description, JSONPath: ".metadata.creationTimestamp"},
}

// CustomColumns returns the Printer of a custom resource: Name, then one
// column per spec in order, or the Age column when there are no specs.
//
// Each cell is the first value the column's path selects in the object;
// none (a missing field or an evaluation error) gives a nil cell. A string
// column shows any value as text, objects and arrays as JSON; integer
// takes integers and truncates floats; number takes both as float64;
// boolean takes booleans; date turns an RFC 3339 string into an age
// ("3h"), "<invalid>" when it does not parse. A value of another type, or
// a null, gives nil, except that a null in a string column reads
// "<no value>".
//
// A path that does not parse is an error; the Printer returned with it is
// still usable and has the columns before the bad one, which is what
// kube-apiserver serves then. The Printer is safe for concurrent use.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor (New).
func CustomColumns(specs []ColumnSpec) (Printer, error) {
	if len(specs) == 0 {
		specs = defaultCustomColumns
	}
	headers := []metav1.TableColumnDefinition{NameColumn}
	var columns []customColumn
	var err error
	for _, spec := range specs {
		// The apiserver wraps the bare path into a one-action template.
		path, perr := jsonpath.Parse("{" + spec.JSONPath + "}")
		if perr != nil {
			err = fmt.Errorf("unrecognized column definition %q: %w", spec.JSONPath, perr)
			break
		}
		path.AllowMissingKeys(true)
		desc := spec.Description
		if desc == "" {
			desc = "Custom resource definition column (in JSONPath format): " + spec.JSONPath
		}
		headers = append(headers, metav1.TableColumnDefinition{
			Name: spec.Name, Type: spec.Type, Format: spec.Format, Description: desc, Priority: spec.Priority,
		})
		columns = append(columns, customColumn{path: path, typ: spec.Type})
	}
	return Printer{
		Columns: headers,
		Cells: func(obj runtime.Object, now time.Time) []any {
			cells := make([]any, 1, 1+len(columns))
			cells[0] = metav1.MustAccessor(obj).Name
			content, err := contentOf(obj)
			for _, c := range columns {
				if err != nil {
					cells = append(cells, nil)
					continue
				}
				cells = append(cells, c.cell(content, now))
			}
			return cells
		},
	}, err
}

// customColumn is a parsed ColumnSpec.
type customColumn struct {
	path *jsonpath.JSONPath
	typ  string
}

func (c customColumn) cell(content any, now time.Time) any {
	results, err := c.path.FindResults(content)
	if err != nil || len(results) == 0 || len(results[0]) == 0 {
		return nil
	}
	// Only the first value counts, even when the path selects several
	// ([*], a filter): the cell is one value, as upstream's is.
	value := results[0][0]
	if c.typ == "string" {
		if value == nil {
			// What upstream's printer makes of a null: text/template's
			// rendering of a missing value.
			return "<no value>"
		}
		var b strings.Builder
		if err := jsonpath.PrintResults(&b, []any{value}); err != nil {
			return nil
		}
		return b.String()
	}
	return cellForJSONValue(c.typ, value, now)
}

// cellForJSONValue converts a value to a cell of a non-string column
// type, or nil when the value does not fit the type.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/registry/customresource/tableconvertor (cellForJSONValue).
func cellForJSONValue(typ string, value any, now time.Time) any {
	switch typ {
	case "integer":
		switch v := value.(type) {
		case int64:
			return v
		case float64:
			return int64(v)
		}
	case "number":
		switch v := value.(type) {
		case int64:
			return float64(v)
		case float64:
			return v
		}
	case "boolean":
		if b, ok := value.(bool); ok {
			return b
		}
	case "date":
		if s, ok := value.(string); ok {
			return dateCell(s, now)
		}
	}
	return nil
}

// dateCell renders a timestamp as its age at now, as Age does.
//
// Upstream: k8s.io/apimachinery/pkg/api/meta/table (ConvertToHumanReadableDateType).
func dateCell(s string, now time.Time) string {
	var t time.Time
	// "" and "null" are an unset time, as metav1.Time reads them from a
	// query parameter.
	if s != "" && s != "null" {
		var err error
		if t, err = time.Parse(time.RFC3339, s); err != nil {
			return "<invalid>"
		}
	}
	if t.IsZero() {
		return "<unknown>"
	}
	return HumanDuration(now.Sub(t))
}

// contentOf returns obj as decoded JSON, the form column paths are
// evaluated on: apiVersion, kind, metadata and the other top-level fields.
func contentOf(obj runtime.Object) (any, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return jsonValue(obj)
	}
	// Content already holds decoded JSON, so only the typed metadata takes
	// the round trip through encoding/json. The map is shallow: paths only
	// read it. Its keys are those of Unstructured.MarshalJSON.
	m := make(map[string]any, len(u.Content)+3)
	maps.Copy(m, u.Content)
	delete(m, "apiVersion")
	delete(m, "kind")
	if u.APIVersion != "" {
		m["apiVersion"] = u.APIVersion
	}
	if u.Kind != "" {
		m["kind"] = u.Kind
	}
	meta, err := jsonValue(&u.ObjectMeta)
	if err != nil {
		return nil, err
	}
	m["metadata"] = meta
	return m, nil
}

func jsonValue(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return unstructured.DecodeValue(data)
}
