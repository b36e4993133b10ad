// Package jsonpath evaluates Kubernetes JSONPath templates over decoded
// JSON: the language of `kubectl get -o jsonpath=...` and of the jsonPath
// of a CustomResourceDefinition's additionalPrinterColumns, which the API
// server evaluates to fill the cells of the Tables `kubectl get` prints.
//
// A template is text with actions in braces:
//
//	kind is {.kind}, the first item is {.items[0].metadata.name}
//
// Parse compiles a template once; FindResults and Execute then evaluate it
// against any number of values. A printer column's jsonPath is the bare
// expression (".spec.replicas"): the caller wraps it in braces, as the
// apiextensions-apiserver does.
//
// Inside an action:
//
//	.name, ['name']    a field of an object; a dot in a name is escaped:
//	                   .labels.app\.kubernetes\.io/name. Quoted brackets
//	                   hold a path, not a key: ['a.b'] is .a.b
//	[i], [-i]          an array element, counted from the end when negative
//	[a:b:c]            a slice from a to b (exclusive) in steps of c
//	[*], .*            every element of an array, every value of an object
//	..name             recursive descent: name at any depth
//	[?(@.x == "v")]    the array elements for which the comparison holds;
//	                   ==, !=, <, >, <=, >= compare strings, numbers and
//	                   booleans; [?(@.x)] keeps the elements that have x
//	[a,b]              a union: the results of a, then those of b
//	@, $               the current value (both optional)
//	"text", 'text'     literal text; Go escapes (\t, \n) are interpreted
//	range ..., end     {range .items[*]}...{end} repeats the enclosed
//	                   template once per result, relative to it
//
// Values are what encoding/json and unstructured.DecodeValue produce:
// map[string]any, []any, string, bool, int64, float64 and nil. Object
// values are visited in sorted key order, so results are deterministic.
//
// Upstream: k8s.io/client-go/util/jsonpath.
package jsonpath
