package apiserver

import (
	"context"
	"encoding/json"
	"fmt"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/customresource"
	"github.com/minicp/minicp/storage"
)

// installCRD serves every served version of crd under its accepted names,
// replacing what an earlier install of it served, and returns the GVRs
// it serves. Each version has its own registry store and watch cache
// over the same etcd keys: objects are stored at the storage version and
// converted to each served version as they are read (each watch cache
// holds its version's objects, so an event is converted once per version,
// not once per watcher), and to the storage version as they are written.
// Conversion strategy None only rewrites apiVersion; Webhook calls the
// CRD's conversion webhook (see webhookConverter).
func (s *Server) installCRD(crd *apiextensionsv1.CustomResourceDefinition) ([]runtime.GroupVersionResource, error) {
	names := crd.Status.AcceptedNames
	storageVersion := ""
	for _, v := range crd.Spec.Versions {
		if v.Storage {
			storageVersion = v.Name
		}
	}
	// One server-side apply schema for all served versions, so that the
	// managers of one version are compared at another.
	applySchemas := map[string]map[string]any{}
	for _, v := range crd.Spec.Versions {
		if v.Served {
			gvk := runtime.GroupVersionKind{Group: crd.Spec.Group, Version: v.Name, Kind: names.Kind}
			applySchemas[openAPISchemaName(gvk)] = customResourceOpenAPISchema(schemaMap(v), gvk)
		}
	}
	typeConverter := customResourceTypeConverter(applySchemas)
	// One converter for every served version, so they share its client.
	webhook := s.newWebhookConverter(crd)
	var served []runtime.GroupVersionResource
	for _, v := range crd.Spec.Versions {
		if !v.Served {
			continue
		}
		gv := runtime.GroupVersion{Group: crd.Spec.Group, Version: v.Name}
		info := runtime.ResourceInfo{
			GVR: gv.WithResource(names.Plural), Kind: names.Kind, ListKindName: names.ListKind,
			SingularName: names.Singular, Namespaced: crd.Spec.Scope == apiextensionsv1.NamespaceScoped,
			Verbs:      append([]string(nil), runtime.AllVerbs...),
			ShortNames: names.ShortNames, Categories: names.Categories,
		}
		subresources := v.Subresources
		if subresources == nil {
			subresources = &apiextensionsv1.CustomResourceSubresources{}
		}
		if subresources.Status != nil {
			info.Subresources = append(info.Subresources, "status")
		}
		s.scheme.AddKind(info.GVK(), &unstructured.Unstructured{})
		s.scheme.AddKind(info.ListGVK(), &unstructured.UnstructuredList{})
		schema, err := newCRDSchema(crd, v)
		if err != nil {
			return served, fmt.Errorf("install %s: %w", info.GVR, err)
		}
		strategy := customresource.Strategy{
			Kind: info.GVK(), Namespaced: info.Namespaced,
			StatusEnabled: subresources.Status != nil,
		}
		if schema != nil {
			strategy.Schema = schema
		}
		for _, f := range v.SelectableFields {
			strategy.FieldPaths = append(strategy.FieldPaths, f.JSONPath)
		}
		r := Resource{
			Info: info, Strategy: strategy,
			Converter: versionConverter{
				served: gv.String(), stored: runtime.GroupVersion{Group: crd.Spec.Group, Version: storageVersion}.String(),
				schema: schema, webhook: webhook,
			},
			Tables: customResourceTable(v),
			CRD:    crd.Name,
		}
		r.OpenAPISchema = customResourceOpenAPISchema(schemaMap(v), info.GVK())
		r.TypeConverter = typeConverter
		if subresources.Status != nil {
			r.UpdateSubresources = map[string]registry.Strategy{"status": customresource.StatusStrategy{Strategy: strategy}}
		}
		if v.Deprecated {
			msg := fmt.Sprintf("%s %s is deprecated", gv, names.Kind)
			if v.DeprecationWarning != nil {
				msg = *v.DeprecationWarning
			}
			r.Warnings = []string{msg}
		}
		if err := s.InstallResource(r); err != nil {
			return served, err
		}
		served = append(served, info.GVR)
		if sc := subresources.Scale; sc != nil {
			selector := ""
			if sc.LabelSelectorPath != nil {
				selector = *sc.LabelSelectorPath
			}
			if err := s.addScaleSubresource(info.GVR, customresource.ScaleSubresource(sc.SpecReplicasPath, sc.StatusReplicasPath, selector)); err != nil {
				return served, err
			}
		}
	}
	return served, nil
}

// uninstallCRD stops serving what installCRD served: the paths answer
// 404, discovery no longer lists them, and the watch caches stop, ending
// their open watches. The kinds stay registered as unstructured objects:
// a request already past routing, or the finalizer, may still build
// objects of them, and a kind that maps to Unstructured is harmless once
// nothing serves it.
func (s *Server) uninstallCRD(gvrs []runtime.GroupVersionResource) {
	for _, gvr := range gvrs {
		s.UninstallResource(gvr)
	}
}

// versionConverter converts custom resources between the version a store
// serves and the storage version, and applies the served version's
// defaults to what it reads, as upstream does on every read from etcd.
// With conversion strategy None only apiVersion changes; with Webhook the
// CRD's conversion webhook converts every object not already at the
// wanted version.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/conversion
// (crConverter, nopConverter).
type versionConverter struct {
	served, stored string
	schema         *crdSchema
	// webhook is nil for strategy None.
	webhook *webhookConverter
}

var _ storage.Converter = versionConverter{}

// FromStorage implements storage.Converter.
func (c versionConverter) FromStorage(ctx context.Context, objs []runtime.Object) error {
	if c.webhook != nil {
		us := make([]*unstructured.Unstructured, len(objs))
		for i, obj := range objs {
			us[i] = obj.(*unstructured.Unstructured)
		}
		if err := c.webhook.convert(ctx, us, c.served); err != nil {
			return err
		}
	}
	for _, obj := range objs {
		u := obj.(*unstructured.Unstructured)
		u.APIVersion = c.served
		if c.schema != nil {
			c.schema.defaultStored(u)
		}
	}
	return nil
}

// ToStorage implements storage.Converter.
func (c versionConverter) ToStorage(ctx context.Context, obj runtime.Object) (runtime.Object, error) {
	u := obj.(*unstructured.Unstructured)
	if u.APIVersion == c.stored {
		return u, nil
	}
	stored := *u
	if c.webhook != nil {
		if err := c.webhook.convert(ctx, []*unstructured.Unstructured{&stored}, c.stored); err != nil {
			return nil, err
		}
		return &stored, nil
	}
	stored.APIVersion = c.stored
	return &stored, nil
}

// schemaMap is a version's openAPIV3Schema as decoded JSON, or an empty
// map when it has none.
func schemaMap(v apiextensionsv1.CustomResourceDefinitionVersion) map[string]any {
	if v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
		return map[string]any{}
	}
	data, err := json.Marshal(v.Schema.OpenAPIV3Schema)
	if err != nil {
		return map[string]any{}
	}
	var m map[string]any
	if json.Unmarshal(data, &m) != nil {
		return map[string]any{}
	}
	return m
}
