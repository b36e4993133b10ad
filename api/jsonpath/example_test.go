package jsonpath_test

import (
	"fmt"
	"os"

	"github.com/minicp/minicp/api/jsonpath"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
)

func ExampleJSONPath_Execute() {
	list, _ := unstructured.DecodeValue([]byte(`{"items": [
		{"metadata": {"name": "web-1"}, "status": {"podIP": "10.0.0.1"}},
		{"metadata": {"name": "web-2"}, "status": {"podIP": "10.0.0.2"}}]}`))

	// What `kubectl get pods -o jsonpath=...` takes.
	j, err := jsonpath.Parse(`{range .items[*]}{.metadata.name}{"\t"}{.status.podIP}{"\n"}{end}`)
	if err != nil {
		panic(err)
	}
	if err := j.Execute(os.Stdout, list); err != nil {
		panic(err)
	}
	// Output:
	// web-1	10.0.0.1
	// web-2	10.0.0.2
}

func ExampleJSONPath_FindResults() {
	obj, _ := unstructured.DecodeValue([]byte(`{"status": {"conditions": [
		{"type": "Progressing", "status": "True"},
		{"type": "Ready", "status": "False"}]}}`))

	// A printer column's jsonPath is a bare expression: wrap it in braces,
	// and let a missing field give no result rather than an error.
	j, err := jsonpath.Parse("{" + `.status.conditions[?(@.type=="Ready")].status` + "}")
	if err != nil {
		panic(err)
	}
	results, err := j.AllowMissingKeys(true).FindResults(obj)
	if err != nil {
		panic(err)
	}
	fmt.Println(results[0])
	// Output: [False]
}
