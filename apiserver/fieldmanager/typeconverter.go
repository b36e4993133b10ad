package fieldmanager

import (
	"errors"
	"fmt"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"

	"github.com/minicp/minicp/api/runtime"
)

// TypeConverter turns objects, as decoded JSON, into structured-merge-diff
// typed values by the schema of their apiVersion and kind. It is safe for
// concurrent use.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields (TypeConverter).
type TypeConverter struct {
	parser *typed.Parser
	// types maps each kind to its definition's name.
	types map[runtime.GroupVersionKind]string
}

// NewTypeConverter converts models (OpenAPI v3 definitions, by name; see
// ToSchema) and indexes the definitions that name their kinds in
// x-kubernetes-group-version-kind.
func NewTypeConverter(models map[string]map[string]any, preserveUnknownFields bool) (*TypeConverter, error) {
	s, err := ToSchema(models, preserveUnknownFields)
	if err != nil {
		return nil, err
	}
	p := &typed.Parser{}
	p.Schema.Types = s.Types
	tc := &TypeConverter{parser: p, types: map[runtime.GroupVersionKind]string{}}
	for name, m := range models {
		gvks, _ := m["x-kubernetes-group-version-kind"].([]any)
		for _, g := range gvks {
			gvk, ok := g.(map[string]any)
			if !ok {
				continue
			}
			group, _ := gvk["group"].(string)
			version, _ := gvk["version"].(string)
			kind, _ := gvk["kind"].(string)
			tc.types[runtime.GroupVersionKind{Group: group, Version: version, Kind: kind}] = name
		}
	}
	return tc, nil
}

// ObjectToTyped types obj by the definition of its apiVersion and kind.
// It fails for a kind the converter has no schema of, and for a value
// that does not fit the schema.
func (tc *TypeConverter) ObjectToTyped(obj map[string]any, opts ...typed.ValidationOptions) (*typed.TypedValue, error) {
	gvk := objectGVK(obj)
	name, ok := tc.types[gvk]
	if !ok {
		return nil, &missingTypeError{gvk: gvk}
	}
	return tc.parser.Type(name).FromUnstructured(obj, opts...)
}

// missingTypeError is the error of a kind the converter has no schema of.
type missingTypeError struct{ gvk runtime.GroupVersionKind }

func (e *missingTypeError) Error() string {
	return fmt.Sprintf("no schema for %s", e.gvk)
}

// objectGVK reads the apiVersion and kind of a decoded object.
func objectGVK(obj map[string]any) runtime.GroupVersionKind {
	apiVersion, _ := obj["apiVersion"].(string)
	kind, _ := obj["kind"].(string)
	return runtime.ParseGroupVersion(apiVersion).WithKind(kind)
}

// versionConverter converts typed objects between the versions of a
// kind for structured-merge-diff, which compares a manager's fields at
// the version the manager wrote them. Versions of a kind differ only in
// apiVersion in minicp (built-in kinds have one version; custom
// resources convert with strategy None), so converting is re-typing the
// same content under the other version's schema. A version the converter
// has no schema of is a missing version: structured-merge-diff then
// forgets the managers of that version, as upstream does for a version
// that is no longer served.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (versionConverter, crdVersionConverter).
type versionConverter struct{ tc *TypeConverter }

// Convert implements merge.Converter.
func (c versionConverter) Convert(object *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	content, ok := object.AsValue().Unstructured().(map[string]any)
	if !ok {
		return nil, errors.New("convert: object is not a map")
	}
	if content["apiVersion"] == string(version) {
		return object, nil
	}
	converted := make(map[string]any, len(content))
	for k, v := range content {
		converted[k] = v
	}
	converted["apiVersion"] = string(version)
	return c.tc.ObjectToTyped(converted, typed.AllowDuplicates)
}

// IsMissingVersionError implements merge.Converter.
func (versionConverter) IsMissingVersionError(err error) bool {
	var missing *missingTypeError
	return errors.As(err, &missing)
}

// Knows reports whether the converter has the schema of gvk.
func (tc *TypeConverter) Knows(gvk runtime.GroupVersionKind) bool {
	_, ok := tc.types[gvk]
	return ok
}
