// Package cel evaluates the CEL rules of a structural schema
// (x-kubernetes-validations) against custom resources, as the API server
// does on create and update, and compiles them for the CRD's own
// validation.
//
// self is the value of the node a rule sits on, typed after the schema:
// objects with properties are object types whose fields are the escaped
// property names ("x-y" is self.x__dash__y, "namespace" is
// self.__namespace__ or self.namespace); additionalProperties make maps;
// arrays are lists, where x-kubernetes-list-type set and map lists compare
// regardless of order; integers are int, numbers double, strings with the
// formats date, date-time, duration and byte are timestamp, duration and
// bytes; x-kubernetes-int-or-string is dyn. A rule that uses oldSelf is a
// transition rule: it only runs on update, where the old value can be
// correlated (through object fields, map keys and the keys of map lists),
// unless optionalOldSelf makes oldSelf an optional that is empty on create.
//
// The environment is Kubernetes' for CRDs, less what minicp does not
// carry: cel-go's standard library, optionals, cross-type numeric
// comparisons, the strings (v2), sets, lists (v3) and two-variable
// comprehension extensions, and Kubernetes' list (isSorted, sum, min, max,
// indexOf, lastIndexOf) and regex (find, findAll) libraries. The url,
// quantity, ip, cidr, format and semver libraries are not available, so
// rules using them fail to compile.
//
// Costs: each rule and message expression is limited to PerCallLimit at
// run time, and all rules of one object share RuntimeCELCostBudget, as
// upstream limits them. Static cost estimation (which upstream uses to
// reject expensive rules when the CRD is written) is not done.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/cel and
// k8s.io/apiserver/pkg/cel (types, values, libraries).
package cel
