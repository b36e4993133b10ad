package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// getTable is `kubectl get`: it GETs path asking for a Table, and prints
// the rows the server rendered, with the columns kubectl shows by default
// (priority 0). kubectl prints what the server sends: the columns of a
// custom resource are its CRD's additionalPrinterColumns, rendered by the
// API server. An error answer is printed as kubectl prints it.
func (r rest) getTable(ctx context.Context, out io.Writer, path string) error {
	resp, err := r.do(ctx, http.MethodGet, path, tableAccept, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  GET %s (Accept: %s) → %d\n", path, tableAccept, resp.code)
	if resp.code != http.StatusOK {
		fmt.Fprintf(out, "  %s\n", resp.errorLine())
		return nil
	}
	var table metav1.Table
	if err := json.Unmarshal(resp.body, &table); err != nil {
		return fmt.Errorf("GET %s: %w", path, err)
	}
	if table.Kind != "Table" {
		return fmt.Errorf("GET %s: got a %s, not a Table", path, table.Kind)
	}
	printTable(out, table)
	return nil
}

// printTable writes a Table as kubectl does: upper-case headers, columns
// aligned three spaces apart, one row per object.
func printTable(out io.Writer, table metav1.Table) {
	if len(table.Rows) == 0 {
		fmt.Fprintln(out, "    No resources found in default namespace.")
		return
	}
	w := tabwriter.NewWriter(out, 0, 8, 3, ' ', 0)
	var shown []int
	var header []string
	for i, c := range table.ColumnDefinitions {
		if c.Priority == 0 {
			shown = append(shown, i)
			header = append(header, strings.ToUpper(c.Name))
		}
	}
	fmt.Fprintf(w, "    %s\n", strings.Join(header, "\t"))
	for _, row := range table.Rows {
		cells := make([]string, 0, len(shown))
		for _, i := range shown {
			cells = append(cells, cell(row.Cells, i))
		}
		fmt.Fprintf(w, "    %s\n", strings.Join(cells, "\t"))
	}
	w.Flush()
}

// cell is a row's i-th cell as text: JSON numbers are float64 once
// decoded, and %v prints 7.0 as 7; a missing value is kubectl's <none>.
func cell(cells []any, i int) string {
	if i >= len(cells) || cells[i] == nil {
		return "<none>"
	}
	return fmt.Sprint(cells[i])
}
