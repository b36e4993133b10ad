package apiserver

import (
	"maps"
	"reflect"
	"slices"
	"sync"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/fieldmanager"
)

// builtinTypeConverter is the server-side apply schema of every built-in
// kind, converted from the OpenAPI v3 definitions the server publishes.
// The built-in types are the same for every server of the process, so it
// is built once, on the first write that needs it.
var builtinTypeConverter = sync.OnceValues(func() (*fieldmanager.TypeConverter, error) {
	scheme, err := NewScheme()
	if err != nil {
		return nil, err
	}
	b := newDefinitionBuilder(openAPIV3)
	for _, info := range scheme.Resources() {
		addKindDefinitions(b, scheme, info)
	}
	return fieldmanager.NewTypeConverter(b.defs, false)
})

// addKindDefinitions adds the definitions of info's kind and list kind,
// when scheme has Go types for them.
func addKindDefinitions(b *definitionBuilder, scheme *runtime.Scheme, info runtime.ResourceInfo) {
	for _, gvk := range []runtime.GroupVersionKind{info.GVK(), info.ListGVK()} {
		if obj, err := scheme.New(gvk); err == nil {
			b.addKind(reflect.TypeOf(obj).Elem(), gvk)
		}
	}
}

// typeConverterFor is the schema of a resource installed with a Go type:
// the built-in one when it knows the kind, else one built from the type
// alone (a kind a test or an embedder installs).
func (s *Server) typeConverterFor(info runtime.ResourceInfo) (*fieldmanager.TypeConverter, error) {
	tc, err := builtinTypeConverter()
	if err == nil && tc.Knows(info.GVK()) {
		return tc, nil
	}
	b := newDefinitionBuilder(openAPIV3)
	addKindDefinitions(b, s.scheme, info)
	return fieldmanager.NewTypeConverter(b.defs, false)
}

// customResourceTypeConverter is the schema of every served version of a
// CRD, with ObjectMeta's definitions, so managers of one version are
// compared at another. A root x-kubernetes-preserve-unknown-fields keeps
// unknown fields everywhere below, as ToSchema documents.
func customResourceTypeConverter(schemas map[string]map[string]any) func() (*fieldmanager.TypeConverter, error) {
	return sync.OnceValues(func() (*fieldmanager.TypeConverter, error) {
		b := newDefinitionBuilder(openAPIV3)
		b.define(objectMetaType)
		models := maps.Clone(b.defs)
		for _, name := range slices.Sorted(maps.Keys(schemas)) {
			models[name] = schemas[name]
		}
		return fieldmanager.NewTypeConverter(models, false)
	})
}

// newFieldManager is the lazily built field manager of a resource or of
// one of its subresources.
func (s *Server) newFieldManager(r Resource, subresource string) *fieldmanager.Lazy {
	return fieldmanager.NewLazy(func() (*fieldmanager.FieldManager, error) {
		var tc *fieldmanager.TypeConverter
		var err error
		if r.TypeConverter != nil {
			tc, err = r.TypeConverter()
		} else {
			tc, err = s.typeConverterFor(r.Info)
		}
		if err != nil {
			return nil, err
		}
		var reset []string
		switch {
		case subresource == "status":
			reset = []string{"spec"}
		case subresource == "" && slices.Contains(r.Info.Subresources, "status"):
			reset = []string{"status"}
		}
		return fieldmanager.New(fieldmanager.Options{
			TypeConverter: tc, Kind: r.Info.GVK(), Subresource: subresource, ResetFields: reset, Clock: s.clock,
		})
	})
}
