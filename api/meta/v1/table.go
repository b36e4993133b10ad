package v1

import "encoding/json"

// Table is the server-side rendering of objects that `kubectl get` asks for
// with Accept: application/json;as=Table;v=v1;g=meta.k8s.io.
type Table struct {
	TypeMeta          `json:",inline"`
	ListMeta          `json:"metadata"`
	ColumnDefinitions []TableColumnDefinition `json:"columnDefinitions"`
	Rows              []TableRow              `json:"rows"`
}

// TableColumnDefinition describes one column; Priority 0 columns are shown by
// default, higher ones only with -o wide.
type TableColumnDefinition struct {
	Name        string `json:"name"`
	Type        string `json:"type"`
	Format      string `json:"format"`
	Description string `json:"description"`
	Priority    int32  `json:"priority"`
}

// TableRow is one object's cells. Object carries the object's metadata (or
// the whole object) as raw JSON so kubectl can read names and namespaces.
type TableRow struct {
	Cells  []any           `json:"cells"`
	Object json.RawMessage `json:"object,omitempty"`
}

// PartialObjectMetadata is an object with only its metadata, the default
// payload of a TableRow.
type PartialObjectMetadata struct {
	TypeMeta   `json:",inline"`
	ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
}
