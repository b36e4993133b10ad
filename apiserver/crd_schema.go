package apiserver

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/apiextensions/schema"
	"github.com/minicp/minicp/api/apiextensions/schema/cel"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/apiserver/registry/customresource"
)

// crdSchema is a CRD version's structural schema as the custom resource
// strategy and storage use it: validation (OpenAPI and CEL rules), and
// the pruning and defaulting of what clients send and what is read from
// etcd. It is immutable and safe for concurrent use.
type crdSchema struct {
	structural *schema.Structural
	// cel evaluates the x-kubernetes-validations rules; nil when the
	// schema has none.
	cel *cel.Validator
	// prune is false for a CRD that preserves unknown fields.
	prune bool
}

var _ customresource.Schema = (*crdSchema)(nil)

// newCRDSchema returns the schema of version v of crd, nil when it has
// none.
func newCRDSchema(crd *apiextensionsv1.CustomResourceDefinition, v apiextensionsv1.CustomResourceDefinitionVersion) (*crdSchema, error) {
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return nil, nil
	}
	s, err := schema.NewStructural(v.Schema.OpenAPIV3Schema)
	if err != nil {
		return nil, fmt.Errorf("schema of version %s: %w", v.Name, err)
	}
	// Defaults may not bring back fields pruning removes.
	if err := schema.PruneDefaults(s); err != nil {
		return nil, fmt.Errorf("defaults of version %s: %w", v.Name, err)
	}
	return &crdSchema{
		structural: s,
		cel:        cel.NewValidator(s, true, cel.PerCallLimit),
		prune:      !crd.Spec.PreserveUnknownFields,
	}, nil
}

// Validate implements customresource.Schema.
func (c *crdSchema) Validate(ctx context.Context, obj map[string]any) apierrors.FieldErrors {
	return c.validate(ctx, obj, nil)
}

// ValidateUpdate implements customresource.Schema: the CEL rules see the
// stored object as oldSelf. Upstream's ratcheting (letting an update
// keep an invalid value it did not change) is not done: an object must be
// valid as a whole after every write.
func (c *crdSchema) ValidateUpdate(ctx context.Context, obj, old map[string]any) apierrors.FieldErrors {
	return c.validate(ctx, obj, old)
}

// validate runs the OpenAPI validation, then the CEL rules unless an
// error makes evaluating them pointless (a value of the wrong type), as
// upstream does.
func (c *crdSchema) validate(ctx context.Context, obj, old map[string]any) apierrors.FieldErrors {
	errs := schema.Validate(c.structural, obj, "")
	if c.cel == nil {
		return errs
	}
	if blocking := cel.BlockingError(errs); blocking != nil {
		return append(errs, blocking)
	}
	var oldObj any
	if old != nil {
		oldObj = old
	}
	celErrs, _ := c.cel.Validate(ctx, "", obj, oldObj, cel.RuntimeCELCostBudget)
	return append(errs, celErrs...)
}

// Normalize implements customresource.Schema: what kube-apiserver's
// decoder does to a custom resource a client sends, in its order: prune
// unknown fields, drop nulls the schema does not allow, normalize the
// metadata of embedded objects, apply defaults.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver (schemaCoercingConverter, unstructuredDefaulter).
func (c *crdSchema) Normalize(content map[string]any) ([]string, error) {
	var pruned []string
	if c.prune {
		pruned = schema.Prune(content, c.structural, true)
	}
	schema.PruneNonNullableNullsWithoutDefaults(content, c.structural)
	if err := schema.Coerce(content, c.structural, false, false); err != nil {
		return nil, err
	}
	schema.Default(content, c.structural)
	return pruned, nil
}

// defaultStored applies the schema's defaults to an object read from
// etcd, as upstream does on every read: a default added to the schema
// shows on objects written before it. Embedded metadata of the wrong
// shape is dropped rather than failing the read.
func (c *crdSchema) defaultStored(u *unstructured.Unstructured) {
	if u.Content == nil {
		u.Content = map[string]any{}
	}
	_ = schema.Coerce(u.Content, c.structural, false, true)
	schema.Default(u.Content, c.structural)
}
