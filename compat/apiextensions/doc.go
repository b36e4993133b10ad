// Package apiextensions checks minicp's apiextensions.k8s.io/v1 types
// (api/apiextensions/v1), CRD validation (api/apiextensions/v1/validation),
// structural-schema engine (api/apiextensions/schema) and CEL rules
// (api/apiextensions/schema/cel) against the real Kubernetes code:
//
//   - CRDs encode to the same JSON and protobuf bytes, and every json and
//     protobuf struct tag is upstream's (types_test.go); -update rewrites
//     the golden CRD in api/apiextensions/v1/testdata from its YAML;
//   - a table of schemas and objects gives the same validation errors
//     (type, field and message), the same pruned objects and unknown
//     field paths, and the same objects after the decoding pipeline of
//     prune, drop nulls, coerce metadata and default (engine_test.go);
//   - invalid CRDs and CRD updates give the same errors (crd_*_test.go),
//     but for the estimated CEL cost, which minicp does not compute;
//   - CEL rules give the same errors and exhaust the same budget
//     (cel_test.go).
//
// One known difference is normalized in the comparison, where it is
// done: upstream names CEL types after a random number.
//
// It is its own module, so that the minicp library never depends on k8s.io
// modules. It holds only tests; run them with
//
//	cd compat/apiextensions && go test ./...
package apiextensions
