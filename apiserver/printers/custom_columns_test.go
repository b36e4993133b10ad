package printers_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/apiserver/printers"
)

// database decodes a custom resource the way the registry does.
func database(t *testing.T, s string) *unstructured.Unstructured {
	t.Helper()
	var u unstructured.Unstructured
	require.NoError(t, json.Unmarshal([]byte(s), &u), "decode %s", s)
	return &u
}

const (
	dbA = `{"apiVersion": "example.com/v1", "kind": "Database",
		"metadata": {"name": "a", "namespace": "ns", "resourceVersion": "5", "labels": {"tier": "gold"},
			"creationTimestamp": "2024-05-06T07:08:09Z"},
		"spec": {"replicas": 3, "ratio": 0.5, "enabled": true, "hosts": ["h1", "h2"]},
		"status": {"startTime": "2024-05-06T08:08:09Z", "conditions": [
			{"type": "Progressing", "status": "False"}, {"type": "Ready", "status": "True"}]}}`
	// dbB has a float where an integer is declared, a string where a
	// boolean is, no hosts, labels or startTime, and no Ready condition.
	dbB = `{"apiVersion": "example.com/v1", "kind": "Database",
		"metadata": {"name": "b", "namespace": "ns", "resourceVersion": "6",
			"creationTimestamp": "2024-05-06T07:08:09Z"},
		"spec": {"replicas": 2.7, "ratio": 2, "enabled": "yes"},
		"status": {"conditions": [{"type": "Progressing", "status": "True"}]}}`
)

var databaseColumns = []printers.ColumnSpec{
	{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas", Description: "Desired replicas."},
	{Name: "Ratio", Type: "number", Format: "double", JSONPath: ".spec.ratio"},
	{Name: "Enabled", Type: "boolean", JSONPath: ".spec.enabled"},
	{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
	{Name: "Hosts", Type: "string", JSONPath: ".spec.hosts"},
	{Name: "First Host", Type: "string", JSONPath: ".spec.hosts[*]"},
	{Name: "Started", Type: "date", JSONPath: ".status.startTime"},
	{Name: "Tier", Type: "string", JSONPath: ".metadata.labels.tier", Priority: 1},
}

func TestCustomColumnsDefinitions(t *testing.T) {
	p, err := printers.CustomColumns(databaseColumns)
	require.NoError(t, err, "CustomColumns")
	require.Len(t, p.Columns, 1+len(databaseColumns))
	assert.Equal(t, printers.NameColumn, p.Columns[0], "Name comes first")
	assert.Equal(t, metav1.TableColumnDefinition{Name: "Replicas", Type: "integer", Description: "Desired replicas."}, p.Columns[1])
	assert.Equal(t, metav1.TableColumnDefinition{Name: "Ratio", Type: "number", Format: "double",
		Description: "Custom resource definition column (in JSONPath format): .spec.ratio"}, p.Columns[2],
		"a missing description names the path")
	for i, spec := range databaseColumns {
		assert.Equal(t, spec.Name, p.Columns[i+1].Name, "columns keep the declared order")
	}
	assert.Equal(t, int32(1), p.Columns[8].Priority, "a priority column is sent, for -o wide")
}

func TestCustomColumnsDefaultAge(t *testing.T) {
	p, err := printers.CustomColumns(nil)
	require.NoError(t, err, "CustomColumns(nil)")
	require.Len(t, p.Columns, 2)
	assert.Equal(t, printers.NameColumn, p.Columns[0])
	assert.Equal(t, "Age", p.Columns[1].Name)
	assert.Equal(t, "date", p.Columns[1].Type, "the default Age column of a CRD is a date")
	assert.Equal(t, printers.AgeColumn.Description, p.Columns[1].Description)

	a := database(t, dbA)
	table, err := p.ConvertToTable(context.Background(), a, "", created.Add(90*time.Minute))
	require.NoError(t, err)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"a", "90m"}, table.Rows[0].Cells)

	a.CreationTimestamp = metav1.Time{}
	table, err = p.ConvertToTable(context.Background(), a, "", created)
	require.NoError(t, err)
	assert.Equal(t, []any{"a", nil}, table.Rows[0].Cells, "no creationTimestamp, no age")
}

func TestCustomColumnsCells(t *testing.T) {
	p, err := printers.CustomColumns(databaseColumns)
	require.NoError(t, err, "CustomColumns")
	now := created.Add(3 * time.Hour)

	tests := []struct {
		name string
		obj  string
		want []any
	}{
		{name: "every field set", obj: dbA,
			want: []any{"a", int64(3), 0.5, true, "True", `["h1","h2"]`, "h1", "120m", "gold"}},
		{name: "wrong types and missing fields", obj: dbB,
			want: []any{"b", int64(2), float64(2), nil, nil, nil, nil, nil, nil}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			table, err := p.ConvertToTable(context.Background(), database(t, tc.obj), "", now)
			require.NoError(t, err, "ConvertToTable")
			require.Len(t, table.Rows, 1)
			assert.Equal(t, tc.want, table.Rows[0].Cells)
		})
	}
}

func TestCustomColumnsList(t *testing.T) {
	p, err := printers.CustomColumns(databaseColumns[:4])
	require.NoError(t, err, "CustomColumns")
	remaining := int64(1)
	list := &unstructured.UnstructuredList{
		TypeMeta: metav1.TypeMeta{Kind: "DatabaseList", APIVersion: "example.com/v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: "42", Continue: "next", RemainingItemCount: &remaining},
		Items:    []unstructured.Unstructured{*database(t, dbA), *database(t, dbB)},
	}
	table, err := p.ConvertToTable(context.Background(), list, "", created)
	require.NoError(t, err, "ConvertToTable(list)")
	assert.Equal(t, list.ListMeta, table.ListMeta, "the list's metadata is the table's")
	require.Len(t, table.Rows, 2)
	assert.Equal(t, []any{"a", int64(3), 0.5, true, "True"}, table.Rows[0].Cells)
	assert.Equal(t, []any{"b", int64(2), float64(2), nil, nil}, table.Rows[1].Cells)

	var meta metav1.PartialObjectMetadata
	require.NoError(t, json.Unmarshal(table.Rows[1].Object, &meta), "row object")
	assert.Equal(t, "PartialObjectMetadata", meta.Kind, "rows carry metadata by default")
	assert.Equal(t, "b", meta.Name)
	assert.Equal(t, "ns", meta.Namespace)

	empty, err := p.ConvertToTable(context.Background(), &unstructured.UnstructuredList{}, "", created)
	require.NoError(t, err, "ConvertToTable(empty list)")
	data, err := json.Marshal(empty)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"rows":[]`)
}

func TestCustomColumnsIncludeObject(t *testing.T) {
	p, err := printers.CustomColumns(nil)
	require.NoError(t, err)
	a := database(t, dbA)

	table, err := p.ConvertToTable(context.Background(), a, "Object", created)
	require.NoError(t, err)
	assert.Equal(t, "5", table.ResourceVersion, "an object's table has its resourceVersion")
	got := database(t, string(table.Rows[0].Object))
	assert.Equal(t, a, got, "includeObject=Object carries the whole custom resource")

	table, err = p.ConvertToTable(context.Background(), a, "None", created)
	require.NoError(t, err)
	assert.Nil(t, table.Rows[0].Object)

	_, err = p.ConvertToTable(context.Background(), a, "bogus", created)
	assert.Error(t, err, "includeObject=bogus")
}

// The conversions of upstream's Test_cellForJSONValue, through a column of
// each type. A string column prints any value, as upstream's convertor
// does before it would reach cellForJSONValue.
func TestCustomColumnsTypes(t *testing.T) {
	now := created
	tests := []struct {
		typ   string
		value any
		want  any
	}{
		{typ: "integer", value: int64(42), want: int64(42)},
		{typ: "integer", value: 3.14, want: int64(3)},
		{typ: "integer", value: true, want: nil},
		{typ: "integer", value: "foo", want: nil},
		{typ: "integer", value: nil, want: nil},

		{typ: "number", value: int64(42), want: float64(42)},
		{typ: "number", value: 3.14, want: 3.14},
		{typ: "number", value: true, want: nil},
		{typ: "number", value: "foo", want: nil},

		{typ: "boolean", value: int64(42), want: nil},
		{typ: "boolean", value: 3.14, want: nil},
		{typ: "boolean", value: true, want: true},
		{typ: "boolean", value: "foo", want: nil},

		{typ: "string", value: int64(42), want: "42"},
		{typ: "string", value: 3.14, want: "3.14"},
		{typ: "string", value: true, want: "true"},
		{typ: "string", value: "foo", want: "foo"},
		{typ: "string", value: map[string]any{"b": int64(1), "a": []any{"x"}}, want: `{"a":["x"],"b":1}`},
		{typ: "string", value: nil, want: "<no value>"},

		{typ: "date", value: int64(42), want: nil},
		{typ: "date", value: 3.14, want: nil},
		{typ: "date", value: true, want: nil},
		{typ: "date", value: now.Add(-12*time.Hour - 30*time.Minute).Format(time.RFC3339), want: "12h"},
		{typ: "date", value: now.Add(12*time.Hour + 30*time.Minute).Format(time.RFC3339), want: "<invalid>"},
		{typ: "date", value: "2024-05-06T06:08:09.5+01:00", want: "119m"},
		{typ: "date", value: "", want: "<unknown>"},
		{typ: "date", value: "yesterday", want: "<invalid>"},

		{typ: "unknown", value: "foo", want: nil},
	}
	for _, tc := range tests {
		p, err := printers.CustomColumns([]printers.ColumnSpec{{Name: "V", Type: tc.typ, JSONPath: ".spec.v"}})
		require.NoError(t, err)
		obj := &unstructured.Unstructured{
			ObjectMeta: metav1.ObjectMeta{Name: "x"},
			Content:    map[string]any{"spec": map[string]any{"v": tc.value}},
		}
		table, err := p.ConvertToTable(context.Background(), obj, "None", now)
		require.NoError(t, err)
		assert.Equal(t, []any{"x", tc.want}, table.Rows[0].Cells, "%s column of %#v", tc.typ, tc.value)
	}
}

func TestCustomColumnsPaths(t *testing.T) {
	a := database(t, dbA)
	tests := []struct {
		path string
		want any
	}{
		{path: ".metadata.name", want: "a"},
		{path: ".metadata.namespace", want: "ns"},
		{path: ".apiVersion", want: "example.com/v1"},
		{path: ".kind", want: "Database"},
		{path: ".metadata.labels['tier']", want: "gold"},
		{path: ".status.conditions[-1].type", want: "Ready"},
		{path: ".status.conditions[*].type", want: "Progressing"},
		{path: ".status.conditions[?(@.status)].type", want: "Progressing"},
		{path: ".status.conditions[5].type", want: nil},
		{path: ".spec.replicas.deeper", want: nil},
		{path: ".spec", want: `{"enabled":true,"hosts":["h1","h2"],"ratio":0.5,"replicas":3}`},
	}
	for _, tc := range tests {
		p, err := printers.CustomColumns([]printers.ColumnSpec{{Name: "V", Type: "string", JSONPath: tc.path}})
		require.NoError(t, err, "CustomColumns(%q)", tc.path)
		table, err := p.ConvertToTable(context.Background(), a, "None", created)
		require.NoError(t, err)
		assert.Equal(t, tc.want, table.Rows[0].Cells[1], "column %q", tc.path)
	}
}

func TestCustomColumnsBadPath(t *testing.T) {
	p, err := printers.CustomColumns([]printers.ColumnSpec{
		{Name: "A", Type: "integer", JSONPath: ".spec.replicas"},
		{Name: "B", Type: "string", JSONPath: ".spec.hosts["},
		{Name: "C", Type: "string", JSONPath: ".metadata.name"},
	})
	require.Error(t, err, "CustomColumns with an unparsable path")
	assert.Contains(t, err.Error(), `".spec.hosts["`)
	require.Len(t, p.Columns, 2, "the Printer keeps the columns before the bad one")
	table, err := p.ConvertToTable(context.Background(), database(t, dbA), "", created)
	require.NoError(t, err, "the fallback Printer still renders")
	assert.Equal(t, []any{"a", int64(3)}, table.Rows[0].Cells)
}

// Column paths work on built-in kinds too, through their JSON form.
func TestCustomColumnsTypedObject(t *testing.T) {
	p, err := printers.CustomColumns([]printers.ColumnSpec{
		{Name: "Node", Type: "string", JSONPath: ".spec.nodeName"},
		{Name: "App", Type: "string", JSONPath: ".metadata.labels.app"},
	})
	require.NoError(t, err)
	pd := pod("a", "7")
	table, err := p.ConvertToTable(context.Background(), &pd, "", created)
	require.NoError(t, err)
	assert.Equal(t, []any{"a", "node-1", "a"}, table.Rows[0].Cells)

	list := &corev1.PodList{Items: []corev1.Pod{pod("a", "1"), pod("b", "2")}}
	table, err = p.ConvertToTable(context.Background(), list, "", created)
	require.NoError(t, err)
	require.Len(t, table.Rows, 2)
	assert.Equal(t, []any{"b", "node-1", "b"}, table.Rows[1].Cells)
}
