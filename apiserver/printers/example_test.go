package printers_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/apiserver/printers"
)

func ExampleCustomColumns() {
	// A CRD version's additionalPrinterColumns.
	p, err := printers.CustomColumns([]printers.ColumnSpec{
		{Name: "Replicas", Type: "integer", JSONPath: ".spec.replicas"},
		{Name: "Ready", Type: "string", JSONPath: `.status.conditions[?(@.type=="Ready")].status`},
		{Name: "Age", Type: "date", JSONPath: ".metadata.creationTimestamp"},
		{Name: "Version", Type: "string", JSONPath: ".spec.version", Priority: 1},
	})
	if err != nil {
		panic(err)
	}

	var db unstructured.Unstructured
	if err := json.Unmarshal([]byte(`{"apiVersion": "example.com/v1", "kind": "Database",
		"metadata": {"name": "orders", "creationTimestamp": "2024-05-06T07:08:09Z"},
		"spec": {"replicas": 3},
		"status": {"conditions": [{"type": "Ready", "status": "True"}]}}`), &db); err != nil {
		panic(err)
	}
	now := time.Date(2024, 5, 6, 9, 8, 9, 0, time.UTC)
	table, err := p.ConvertToTable(context.Background(), &db, "None", now)
	if err != nil {
		panic(err)
	}
	var headers []string
	for _, c := range table.ColumnDefinitions {
		headers = append(headers, fmt.Sprintf("%s(%s,%d)", c.Name, c.Type, c.Priority))
	}
	fmt.Println(strings.Join(headers, " "))
	fmt.Println(table.Rows[0].Cells...)
	// Output:
	// Name(string,0) Replicas(integer,0) Ready(string,0) Age(date,0) Version(string,1)
	// orders 3 True 120m <nil>
}
