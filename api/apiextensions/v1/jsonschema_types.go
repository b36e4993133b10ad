package v1

// JSONSchemaProps is one node of a CRD's schema: the OpenAPI v3 schema
// object, restricted to what Kubernetes accepts, plus the x-kubernetes-*
// extensions. CRDs must be structural (see api/apiextensions/schema):
// every node says its type, and the logic junctors (allOf, anyOf, oneOf,
// not) only add validation to what the typed skeleton declares.
//
// The field numbers are upstream's generated.proto's; the struct tags'
// wire types are upstream's too, and stale where upstream's are (maximum
// says bytes for a double). The protobuf encoding is written by hand in
// jsonschema_protobuf.go, since the tag-driven codec has no doubles.
type JSONSchemaProps struct {
	ID          string        `json:"id,omitempty" protobuf:"bytes,1,opt,name=id"`
	Schema      JSONSchemaURL `json:"$schema,omitempty" protobuf:"bytes,2,opt,name=schema"`
	Ref         *string       `json:"$ref,omitempty" protobuf:"bytes,3,opt,name=ref"`
	Description string        `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	// Type is object, array, string, integer, number or boolean. It is
	// empty only where x-kubernetes-int-or-string or
	// x-kubernetes-preserve-unknown-fields allow any type.
	Type string `json:"type,omitempty" protobuf:"bytes,5,opt,name=type"`
	// Format refines a type: int32, date-time, uuid, ... Unknown formats
	// are accepted and not checked.
	Format string `json:"format,omitempty" protobuf:"bytes,6,opt,name=format"`
	Title  string `json:"title,omitempty" protobuf:"bytes,7,opt,name=title"`
	// Default is filled in where the field is absent, when the object is
	// read from a request or from storage. It must itself be valid and
	// survive pruning.
	Default          *JSON    `json:"default,omitempty" protobuf:"bytes,8,opt,name=default"`
	Maximum          *float64 `json:"maximum,omitempty" protobuf:"bytes,9,opt,name=maximum"`
	ExclusiveMaximum bool     `json:"exclusiveMaximum,omitempty" protobuf:"bytes,10,opt,name=exclusiveMaximum"`
	Minimum          *float64 `json:"minimum,omitempty" protobuf:"bytes,11,opt,name=minimum"`
	ExclusiveMinimum bool     `json:"exclusiveMinimum,omitempty" protobuf:"bytes,12,opt,name=exclusiveMinimum"`
	// MaxLength and MinLength count characters (runes), not bytes.
	MaxLength *int64 `json:"maxLength,omitempty" protobuf:"bytes,13,opt,name=maxLength"`
	MinLength *int64 `json:"minLength,omitempty" protobuf:"bytes,14,opt,name=minLength"`
	// Pattern is a regular expression in Go's RE2 syntax (upstream compiles
	// it with Go's regexp too), unanchored.
	Pattern     string   `json:"pattern,omitempty" protobuf:"bytes,15,opt,name=pattern"`
	MaxItems    *int64   `json:"maxItems,omitempty" protobuf:"bytes,16,opt,name=maxItems"`
	MinItems    *int64   `json:"minItems,omitempty" protobuf:"bytes,17,opt,name=minItems"`
	UniqueItems bool     `json:"uniqueItems,omitempty" protobuf:"bytes,18,opt,name=uniqueItems"`
	MultipleOf  *float64 `json:"multipleOf,omitempty" protobuf:"bytes,19,opt,name=multipleOf"`
	// Enum lists the allowed values.
	Enum          []JSON `json:"enum,omitempty" protobuf:"bytes,20,rep,name=enum"`
	MaxProperties *int64 `json:"maxProperties,omitempty" protobuf:"bytes,21,opt,name=maxProperties"`
	MinProperties *int64 `json:"minProperties,omitempty" protobuf:"bytes,22,opt,name=minProperties"`
	// Required names properties that must be present.
	Required []string `json:"required,omitempty" protobuf:"bytes,23,rep,name=required"`
	// Items is the schema of every element of an array; Kubernetes
	// forbids the tuple form (a list of schemas).
	Items *JSONSchemaPropsOrArray `json:"items,omitempty" protobuf:"bytes,24,opt,name=items"`
	AllOf []JSONSchemaProps       `json:"allOf,omitempty" protobuf:"bytes,25,rep,name=allOf"`
	OneOf []JSONSchemaProps       `json:"oneOf,omitempty" protobuf:"bytes,26,rep,name=oneOf"`
	AnyOf []JSONSchemaProps       `json:"anyOf,omitempty" protobuf:"bytes,27,rep,name=anyOf"`
	Not   *JSONSchemaProps        `json:"not,omitempty" protobuf:"bytes,28,opt,name=not"`
	// Properties are the known fields of an object. Mutually exclusive
	// with AdditionalProperties.
	Properties map[string]JSONSchemaProps `json:"properties,omitempty" protobuf:"bytes,29,rep,name=properties"`
	// AdditionalProperties makes an object a map: every value follows the
	// schema (or anything goes, for true).
	AdditionalProperties *JSONSchemaPropsOrBool `json:"additionalProperties,omitempty" protobuf:"bytes,30,opt,name=additionalProperties"`
	// PatternProperties, Dependencies, AdditionalItems, Definitions and
	// Ref are JSON Schema features Kubernetes forbids in CRDs; they exist
	// so that such schemas decode and can be rejected with a field error.
	PatternProperties map[string]JSONSchemaProps `json:"patternProperties,omitempty" protobuf:"bytes,31,rep,name=patternProperties"`
	Dependencies      JSONSchemaDependencies     `json:"dependencies,omitempty" protobuf:"bytes,32,opt,name=dependencies"`
	AdditionalItems   *JSONSchemaPropsOrBool     `json:"additionalItems,omitempty" protobuf:"bytes,33,opt,name=additionalItems"`
	Definitions       JSONSchemaDefinitions      `json:"definitions,omitempty" protobuf:"bytes,34,opt,name=definitions"`
	ExternalDocs      *ExternalDocumentation     `json:"externalDocs,omitempty" protobuf:"bytes,35,opt,name=externalDocs"`
	Example           *JSON                      `json:"example,omitempty" protobuf:"bytes,36,opt,name=example"`
	// Nullable lets the value be null. Without it, null fails validation
	// and a null field with a default is dropped before defaulting.
	Nullable bool `json:"nullable,omitempty" protobuf:"bytes,37,opt,name=nullable"`

	// XPreserveUnknownFields stops pruning below this node: fields the
	// schema does not name are kept. It may only be true.
	XPreserveUnknownFields *bool `json:"x-kubernetes-preserve-unknown-fields,omitempty" protobuf:"bytes,38,opt,name=xKubernetesPreserveUnknownFields"`
	// XEmbeddedResource marks an object that is itself a Kubernetes
	// object: apiVersion, kind and metadata are required, kept by pruning
	// and metadata is validated as ObjectMeta.
	XEmbeddedResource bool `json:"x-kubernetes-embedded-resource,omitempty" protobuf:"bytes,39,opt,name=xKubernetesEmbeddedResource"`
	// XIntOrString accepts an integer or a string, as IntOrString fields
	// (ports, maxSurge) do; the node then needs no type.
	XIntOrString bool `json:"x-kubernetes-int-or-string,omitempty" protobuf:"bytes,40,opt,name=xKubernetesIntOrString"`
	// XListMapKeys are the keys that identify the elements of a list of
	// list type map; the combination must be unique.
	XListMapKeys []string `json:"x-kubernetes-list-map-keys,omitempty" protobuf:"bytes,41,rep,name=xKubernetesListMapKeys"`
	// XListType is atomic (the default), set (unique scalars) or map
	// (objects keyed by XListMapKeys): how server-side apply merges the
	// list, and what uniqueness validation requires.
	XListType *string `json:"x-kubernetes-list-type,omitempty" protobuf:"bytes,42,opt,name=xKubernetesListType"`
	// XMapType is granular (the default) or atomic, for server-side apply.
	XMapType *string `json:"x-kubernetes-map-type,omitempty" protobuf:"bytes,43,opt,name=xKubernetesMapType"`
	// XValidations are CEL rules the value must satisfy.
	XValidations ValidationRules `json:"x-kubernetes-validations,omitempty" patchStrategy:"merge" patchMergeKey:"rule" protobuf:"bytes,44,rep,name=xKubernetesValidations"`
}

// JSONSchemaURL is the $schema URL of a schema.
type JSONSchemaURL string

// JSONSchemaDependencies are JSON Schema's property dependencies; CRDs
// may not use them.
type JSONSchemaDependencies map[string]JSONSchemaPropsOrStringArray

// JSONSchemaDefinitions are JSON Schema's named definitions; CRDs may not
// use them.
type JSONSchemaDefinitions map[string]JSONSchemaProps

// ExternalDocumentation points at more documentation.
type ExternalDocumentation struct {
	Description string `json:"description,omitempty" protobuf:"bytes,1,opt,name=description"`
	URL         string `json:"url,omitempty" protobuf:"bytes,2,opt,name=url"`
}

// ValidationRules are the CEL rules of one schema node.
type ValidationRules []ValidationRule

// FieldValueErrorReason is the field error type a failed CEL rule reports.
type FieldValueErrorReason string

// The reasons a ValidationRule may give. The default is FieldValueInvalid.
const (
	FieldValueRequired  FieldValueErrorReason = "FieldValueRequired"
	FieldValueDuplicate FieldValueErrorReason = "FieldValueDuplicate"
	FieldValueInvalid   FieldValueErrorReason = "FieldValueInvalid"
	FieldValueForbidden FieldValueErrorReason = "FieldValueForbidden"
)

// ValidationRule is one CEL rule (x-kubernetes-validations). self is the
// node's value; oldSelf, in a transition rule, its value before an update.
type ValidationRule struct {
	// Rule is the CEL expression; it must evaluate to true.
	Rule string `json:"rule" protobuf:"bytes,1,opt,name=rule"`
	// Message is the error when the rule fails. Defaults to
	// "failed rule: <rule>".
	Message string `json:"message,omitempty" protobuf:"bytes,2,opt,name=message"`
	// MessageExpression is a CEL expression giving the message; Message is
	// the fallback when it fails.
	MessageExpression string `json:"messageExpression,omitempty" protobuf:"bytes,3,opt,name=messageExpression"`
	// Reason is the field error type reported. Defaults to FieldValueInvalid.
	Reason *FieldValueErrorReason `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// FieldPath is where the error is reported, relative to the node
	// (".spec.replicas", "['a.b']"). Defaults to the node.
	FieldPath string `json:"fieldPath,omitempty" protobuf:"bytes,5,opt,name=fieldPath"`
	// OptionalOldSelf makes a transition rule also run on create, with
	// oldSelf an optional that has no value.
	OptionalOldSelf *bool `json:"optionalOldSelf,omitempty" protobuf:"bytes,6,opt,name=optionalOldSelf"`
}

// JSON is any JSON value, kept as its encoded bytes: defaults, enum
// values and examples. Its JSON form is the bytes themselves.
type JSON struct {
	// Raw is the encoded value; nil stands for null.
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=raw"`
}

// JSONSchemaPropsOrArray is items: one schema for every element, or (JSON
// Schema's tuple form, which CRDs may not use) one schema per position.
// Its JSON form is the schema or the array.
type JSONSchemaPropsOrArray struct {
	Schema      *JSONSchemaProps  `protobuf:"bytes,1,opt,name=schema"`
	JSONSchemas []JSONSchemaProps `protobuf:"bytes,2,rep,name=jSONSchemas"`
}

// JSONSchemaPropsOrBool is additionalProperties or additionalItems: true,
// false, or a schema (which implies true). Its JSON form is the boolean
// or the schema.
type JSONSchemaPropsOrBool struct {
	Allows bool             `protobuf:"varint,1,opt,name=allows"`
	Schema *JSONSchemaProps `protobuf:"bytes,2,opt,name=schema"`
}

// JSONSchemaPropsOrStringArray is one dependency: a schema, or the names
// of the properties required along with it. Its JSON form is the schema
// or the array.
type JSONSchemaPropsOrStringArray struct {
	Schema   *JSONSchemaProps `protobuf:"bytes,1,opt,name=schema"`
	Property []string         `protobuf:"bytes,2,rep,name=property"`
}
