package schema

import (
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Structural is a structural schema: a tree of typed nodes (Items,
// Properties, AdditionalProperties) that says what a value looks like,
// with the value validations (ValueValidation, including the logic
// junctors allOf, anyOf, oneOf and not) hanging off each node. Pruning
// and defaulting only look at the tree; validation looks at all of it.
//
// A Structural is built by NewStructural and is not changed by Validate,
// Default or Prune, so one may be shared by concurrent requests.
// PruneDefaults changes it in place, so run it before sharing.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema (Structural).
type Structural struct {
	Items      *Structural
	Properties map[string]Structural
	// AdditionalProperties makes an object a map; it is never used
	// together with Properties in a valid CRD.
	AdditionalProperties *StructuralOrBool

	Generic
	Extensions
	ValidationExtensions

	ValueValidation *ValueValidation

	// validator is the OpenAPI validation schema of this node as the API
	// server builds it from the JSONSchemaProps (nil for a Structural
	// built by hand: Validate then derives one from the Structural).
	validator *vschema
}

// StructuralOrBool is additionalProperties: a schema, or true/false.
type StructuralOrBool struct {
	Structural *Structural
	Bool       bool
}

// Generic holds the generic fields of a node.
type Generic struct {
	Description string
	// Type is object, array, string, integer, number or boolean, or empty
	// under x-kubernetes-int-or-string or
	// x-kubernetes-preserve-unknown-fields.
	Type         string
	Title        string
	Default      JSON
	Nullable     bool
	ExternalDocs *ExternalDocumentation
	Example      JSON
}

// ExternalDocumentation points at more documentation.
type ExternalDocumentation struct {
	Description string
	URL         string
}

// Extensions holds the x-kubernetes-* extensions that shape a node.
type Extensions struct {
	// XPreserveUnknownFields stops pruning below this node.
	XPreserveUnknownFields bool
	// XEmbeddedResource marks an object that is a Kubernetes object, whose
	// apiVersion, kind and metadata are kept and validated.
	XEmbeddedResource bool
	// XIntOrString accepts an integer or a string.
	XIntOrString bool
	// XListMapKeys are the keys of a list of list type map.
	XListMapKeys []string
	// XListType is atomic, set or map.
	XListType *string
	// XMapType is granular or atomic.
	XMapType *string
}

// ValidationExtensions holds the CEL rules of a node.
type ValidationExtensions struct {
	XValidations apiextensionsv1.ValidationRules
}

// ValueValidation holds the value validations of a node: they constrain
// values, never the shape of the tree.
type ValueValidation struct {
	Format           string
	Maximum          *float64
	ExclusiveMaximum bool
	Minimum          *float64
	ExclusiveMinimum bool
	MaxLength        *int64
	MinLength        *int64
	Pattern          string
	MaxItems         *int64
	MinItems         *int64
	UniqueItems      bool
	MultipleOf       *float64
	Enum             []JSON
	MaxProperties    *int64
	MinProperties    *int64
	Required         []string
	AllOf            []NestedValueValidation
	OneOf            []NestedValueValidation
	AnyOf            []NestedValueValidation
	Not              *NestedValueValidation
}

// NestedValueValidation is a value validation inside a logic junctor. In a
// structural schema it may only restrict what the tree declares: its
// Forbidden* fields must stay empty (ValidateStructural checks that).
type NestedValueValidation struct {
	ValueValidation
	ValidationExtensions

	Items                *NestedValueValidation
	Properties           map[string]NestedValueValidation
	AdditionalProperties *NestedValueValidation

	ForbiddenGenerics   Generic
	ForbiddenExtensions Extensions
}

// JSON is a decoded JSON value (see the package doc for the types);
// Object is nil for none.
type JSON struct {
	Object any
}

// DeepCopy returns a copy of s that shares nothing with it but its
// immutable validation schema.
func (s *Structural) DeepCopy() *Structural {
	if s == nil {
		return nil
	}
	return runtime.DeepCopy(s)
}
