package v1

// CustomResourceDefinitionVersion is one version of a custom resource,
// served at /apis/<group>/<name>/... when Served is true.
type CustomResourceDefinitionVersion struct {
	// Name is the version, "v1" or "v2beta1".
	Name   string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Served bool   `json:"served" protobuf:"varint,2,opt,name=served"`
	// Storage marks the version objects are persisted in; exactly one
	// version has it.
	Storage bool `json:"storage" protobuf:"varint,3,opt,name=storage"`
	// Deprecated makes requests to this version carry a warning.
	Deprecated bool `json:"deprecated,omitempty" protobuf:"varint,7,opt,name=deprecated"`
	// DeprecationWarning replaces the default warning; only allowed when
	// Deprecated is true.
	DeprecationWarning *string `json:"deprecationWarning,omitempty" protobuf:"bytes,8,opt,name=deprecationWarning"`
	// Schema validates, prunes and defaults objects of this version. v1
	// requires it.
	Schema       *CustomResourceValidation   `json:"schema,omitempty" protobuf:"bytes,4,opt,name=schema"`
	Subresources *CustomResourceSubresources `json:"subresources,omitempty" protobuf:"bytes,5,opt,name=subresources"`
	// AdditionalPrinterColumns are the columns of Table output (kubectl
	// get). Without any, the only column is the object's age.
	AdditionalPrinterColumns []CustomResourceColumnDefinition `json:"additionalPrinterColumns,omitempty" protobuf:"bytes,6,rep,name=additionalPrinterColumns"`
	// SelectableFields are the fields field selectors may use, at most 8.
	SelectableFields []SelectableField `json:"selectableFields,omitempty" protobuf:"bytes,9,rep,name=selectableFields"`
}

// SelectableField is a field that field selectors may use.
type SelectableField struct {
	// JSONPath is a simple JSON path without array notation to a string,
	// boolean or integer field outside metadata.
	JSONPath string `json:"jsonPath" protobuf:"bytes,1,opt,name=jsonPath"`
}

// CustomResourceValidation holds the schema of one version.
type CustomResourceValidation struct {
	// OpenAPIV3Schema validates and prunes objects of the version.
	OpenAPIV3Schema *JSONSchemaProps `json:"openAPIV3Schema,omitempty" protobuf:"bytes,1,opt,name=openAPIV3Schema"`
}

// CustomResourceSubresources are the subresources of one version.
type CustomResourceSubresources struct {
	// Status, when set, serves /status and makes the main resource ignore
	// changes to .status (and /status ignore everything else).
	Status *CustomResourceSubresourceStatus `json:"status,omitempty" protobuf:"bytes,1,opt,name=status"`
	// Scale, when set, serves /scale as an autoscaling/v1 Scale.
	Scale *CustomResourceSubresourceScale `json:"scale,omitempty" protobuf:"bytes,2,opt,name=scale"`
}

// CustomResourceSubresourceStatus turns the status subresource on; it has
// no settings, since status is always at .status.
type CustomResourceSubresourceStatus struct{}

// CustomResourceSubresourceScale maps the Scale object's fields to fields of
// the custom resource.
type CustomResourceSubresourceScale struct {
	// SpecReplicasPath is the JSON path (under .spec, no array notation)
	// of Scale's spec.replicas.
	SpecReplicasPath string `json:"specReplicasPath" protobuf:"bytes,1,name=specReplicasPath"`
	// StatusReplicasPath is the JSON path (under .status) of Scale's
	// status.replicas.
	StatusReplicasPath string `json:"statusReplicasPath" protobuf:"bytes,2,opt,name=statusReplicasPath"`
	// LabelSelectorPath is the JSON path (under .spec or .status) of a
	// string holding a serialized label selector: Scale's status.selector,
	// which a HorizontalPodAutoscaler needs.
	LabelSelectorPath *string `json:"labelSelectorPath,omitempty" protobuf:"bytes,3,opt,name=labelSelectorPath"`
}

// CustomResourceColumnDefinition is one column of Table output.
type CustomResourceColumnDefinition struct {
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Type is an OpenAPI type: integer, number, string, boolean or date.
	Type string `json:"type" protobuf:"bytes,2,opt,name=type"`
	// Format is an OpenAPI format; "name" marks the column holding the
	// object's name.
	Format      string `json:"format,omitempty" protobuf:"bytes,3,opt,name=format"`
	Description string `json:"description,omitempty" protobuf:"bytes,4,opt,name=description"`
	// Priority 0 columns are always shown; higher ones only with -o wide.
	Priority int32 `json:"priority,omitempty" protobuf:"bytes,5,opt,name=priority"`
	// JSONPath is a simple JSON path evaluated against each object.
	JSONPath string `json:"jsonPath" protobuf:"bytes,6,opt,name=jsonPath"`
}
