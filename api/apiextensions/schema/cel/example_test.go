package cel_test

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/minicp/minicp/api/apiextensions/schema"
	"github.com/minicp/minicp/api/apiextensions/schema/cel"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// The API server's use: one Validator per CRD version, run on each object
// after schema validation found nothing blocking.
func Example() {
	var props apiextensionsv1.JSONSchemaProps
	_ = json.Unmarshal([]byte(`{
		"type": "object",
		"properties": {
			"spec": {
				"type": "object",
				"x-kubernetes-validations": [
					{"rule": "self.minReplicas <= self.replicas", "message": "replicas below minReplicas"},
					{"rule": "self.replicas == oldSelf.replicas", "message": "replicas is immutable"}
				],
				"properties": {"replicas": {"type": "integer"}, "minReplicas": {"type": "integer"}}
			}
		}
	}`), &props)
	s, _ := schema.NewStructural(&props)
	v := cel.NewValidator(s, true, cel.PerCallLimit)

	obj, _ := schema.DecodeJSON([]byte(`{"spec": {"replicas": 1, "minReplicas": 2}}`))
	errs := schema.Validate(s, obj, "")
	if blocking := cel.BlockingError(errs); blocking != nil {
		errs = append(errs, blocking)
	} else {
		celErrs, _ := v.Validate(context.Background(), "", obj, nil, cel.RuntimeCELCostBudget)
		errs = append(errs, celErrs...)
	}
	for _, e := range errs {
		fmt.Println(e)
	}
	// Output:
	// spec: Invalid value: replicas below minReplicas
}
