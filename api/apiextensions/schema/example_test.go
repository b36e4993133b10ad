package schema_test

import (
	"encoding/json"
	"fmt"

	"github.com/minicp/minicp/api/apiextensions/schema"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// The API server's sequence for a custom resource: build the schema once,
// then prune, default and validate each object.
func Example() {
	var props apiextensionsv1.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"spec": {
				"type": "object",
				"properties": {
					"replicas": {"type": "integer", "minimum": 0, "default": 1},
					"image": {"type": "string"}
				}
			}
		}
	}`), &props)
	s, err := schema.NewStructural(&props)
	if err != nil {
		panic(err)
	}
	if err := schema.PruneDefaults(s); err != nil {
		panic(err)
	}

	obj, _ := schema.DecodeJSON([]byte(`{"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": {"name": "w"}, "spec": {"image": 7, "color": "red"}}`))
	for _, f := range schema.Prune(obj, s, true) {
		fmt.Printf("warning: unknown field %q\n", f)
	}
	schema.Default(obj, s)
	for _, e := range schema.Validate(s, obj, "") {
		fmt.Println(e)
	}
	spec, _ := json.Marshal(obj.(map[string]any)["spec"])
	fmt.Println(string(spec))
	// Output:
	// warning: unknown field "spec.color"
	// spec.image: Invalid value: "integer": spec.image in body must be of type string: "integer"
	// {"image":7,"replicas":1}
}
