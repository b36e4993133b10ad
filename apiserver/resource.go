package apiserver

import (
	"fmt"
	"net/http"
	"sync/atomic"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/fieldmanager"
	"github.com/minicp/minicp/apiserver/handlers"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/watchcache"
)

// Resource describes how to serve one resource: its rules and its
// subresources. Install it with InstallResource.
type Resource struct {
	Info     runtime.ResourceInfo
	Strategy registry.Strategy
	// Subresources that read and write the object under another strategy,
	// keyed by name: "status" (status only), "finalize" (namespaces).
	UpdateSubresources map[string]registry.Strategy
	// CreateSubresources are POST-only subresources with their own body
	// kind, such as pods/binding.
	CreateSubresources map[string]registry.NamedCreater
	// CreateOverride replaces the collection POST for kinds that are
	// actions rather than stored objects (the bindings resource).
	CreateOverride *registry.NamedCreater
	// ReturnDeletedObject: see registry.Store.
	ReturnDeletedObject bool
	// Tables renders `kubectl get` rows. Defaults to printers.Default.
	Tables handlers.TableConvertor
	// Indexers index the watch cache by a selectable field, so a watch
	// pinned to one value (a kubelet's spec.nodeName=X) is woken only by
	// its own objects.
	Indexers map[string]watchcache.IndexFunc
	// Converter converts objects between the version served and the one
	// stored (a custom resource's versions). Optional.
	Converter storage.Converter
	// Warnings are sent as Warning headers with every response about the
	// resource: a deprecated custom resource version's warning.
	Warnings []string
	// CRD names the CustomResourceDefinition that defines the resource.
	CRD string
	// OpenAPISchema is the kind's OpenAPI v3 schema, published under
	// /openapi/v3 for kubectl explain. Optional.
	OpenAPISchema map[string]any
	// TypeConverter returns the server-side apply schema of the kind.
	// Defaults to the one built from the kind's Go type.
	TypeConverter func() (*fieldmanager.TypeConverter, error)
	// Storage, when set, serves the resource instead of etcd, with no
	// watch cache: for kinds computed on every read rather than stored
	// (metrics.k8s.io's NodeMetrics and PodMetrics). Its keys are the
	// registry's.
	Storage storage.Interface
}

// resource is an installed Resource.
type resource struct {
	info   runtime.ResourceInfo
	scope  *handlers.Scope
	update map[string]*handlers.Scope
	create map[string]registry.NamedCreater
	// createOverride: see Resource.CreateOverride.
	createOverride *registry.NamedCreater
	// get are GET-only subresources served by a handler of their own,
	// such as pods/log (see addGetSubresource).
	get map[string]http.Handler
	// connect are subresources of any method served by a handler of
	// their own, such as pods/exec (see addConnectSubresource).
	connect map[string]http.Handler
	// cacher is the resource's watch cache, nil when caching is disabled.
	cacher *watchcache.Cacher
	// warnings: see Resource.Warnings.
	warnings []string
	// crd names the CRD that defined the resource, "" for built-ins.
	crd string
	// openAPISchema: see Resource.OpenAPISchema.
	openAPISchema map[string]any
	// terminating is set when the resource's CRD is being deleted: its
	// objects are still served, so their finalizers can run, but no new
	// one may be created.
	terminating atomic.Bool
}

// InstallResource starts serving r, with its own storage under the
// server's etcd prefix. The kind must be in the server's Scheme.
func (s *Server) InstallResource(r Resource) error {
	if r.Storage != nil {
		return s.installComputedResource(r)
	}
	etcdStore, err := storage.NewStore(s.etcd, storage.StoreOptions{
		Prefix:        s.prefix,
		GroupResource: r.Info.GVR.GroupResource(),
		NewFunc: func() runtime.Object {
			obj, _ := s.scheme.New(r.Info.GVK())
			return obj
		},
		Converter:       r.Converter,
		Logger:          s.log,
		RequestObserver: s.etcdObserver(r.Info.GVR.GroupResource()),
		Tracing:         s.tracing,
	})
	if err != nil {
		return fmt.Errorf("install %s: %w", r.Info.GVR, err)
	}
	if err := s.scheme.AddResource(r.Info); err != nil {
		return fmt.Errorf("install %s: %w", r.Info.GVR, err)
	}
	rs, err := registry.NewStore(registry.Options{
		Resource: r.Info, Scheme: s.scheme, Storage: etcdStore, Strategy: r.Strategy,
		ReturnDeletedObject: r.ReturnDeletedObject, Clock: s.clock, Logger: s.log,
	})
	if err != nil {
		return fmt.Errorf("install %s: %w", r.Info.GVR, err)
	}
	var cacher *watchcache.Cacher
	if !s.watchCacheDisabled {
		// One Cacher per resource: one etcd watch, however many clients
		// watch. The registry writes through it to etcd.
		cacher, err = watchcache.New(watchcache.Options{
			Storage:           etcdStore,
			ResourcePrefix:    rs.KeyRoot(),
			NewFunc:           rs.New,
			GetAttrs:          rs.Attrs,
			Indexers:          r.Indexers,
			BookmarkFrequency: s.bookmarkFrequency,
			Clock:             s.clock,
			Logger:            s.log.With("resource", r.Info.GVR.Resource),
			Tracing:           s.tracing,
		})
		if err != nil {
			return fmt.Errorf("install %s: %w", r.Info.GVR, err)
		}
		rs.Storage = cacher
	}
	tables := r.Tables
	if tables == nil {
		tables = defaultTables
	}
	scope := &handlers.Scope{Store: rs, Admission: s.admission, Tables: rowObjectKinds{tables, s.scheme}, Clock: s.clock, Logger: s.log,
		FieldManager: s.newFieldManager(r, "")}
	installed := &resource{info: r.Info, scope: scope, update: map[string]*handlers.Scope{},
		create: r.CreateSubresources, createOverride: r.CreateOverride, cacher: cacher,
		warnings: r.Warnings, crd: r.CRD, openAPISchema: r.OpenAPISchema}
	for name, st := range r.UpdateSubresources {
		sub := *scope
		sub.Store = rs.WithStrategy(st)
		sub.Subresource = name
		sub.FieldManager = s.newFieldManager(r, name)
		installed.update[name] = &sub
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if old, ok := s.resources[r.Info.GVR]; ok {
		s.stopCacherLocked(old.cacher)
	}
	s.resources[r.Info.GVR] = installed
	if cacher != nil {
		s.cachers[cacher] = nil
		if s.runCtx != nil {
			s.startCacherLocked(cacher)
		}
	}
	return nil
}

// setTerminating refuses creates of the resources from now on: their CRD
// is being deleted.
func (s *Server) setTerminating(gvrs []runtime.GroupVersionResource) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, gvr := range gvrs {
		if r, ok := s.resources[gvr]; ok {
			r.terminating.Store(true)
		}
	}
}

// UninstallResource stops serving gvr: its paths answer 404, discovery no
// longer lists it, and its watch cache stops, which ends the open watches
// on it. Its objects stay in etcd. Uninstalling a resource that is not
// installed does nothing.
func (s *Server) UninstallResource(gvr runtime.GroupVersionResource) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.resources[gvr]
	if !ok {
		return
	}
	delete(s.resources, gvr)
	s.scheme.RemoveResource(gvr)
	s.stopCacherLocked(r.cacher)
}

// stopCacherLocked stops c, if it runs, and forgets it. s.mu must be
// held.
func (s *Server) stopCacherLocked(c *watchcache.Cacher) {
	if c == nil {
		return
	}
	if cancel := s.cachers[c]; cancel != nil {
		cancel()
	}
	delete(s.cachers, c)
}

// addCreateSubresource adds a POST subresource to an installed resource,
// for handlers that need the resource's own store.
func (s *Server) addCreateSubresource(gvr runtime.GroupVersionResource, name string, fn registry.NamedCreater) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.resources[gvr]
	if r.create == nil {
		r.create = map[string]registry.NamedCreater{}
	}
	r.create[name] = fn
}

// Store returns the registry store of an installed resource, for
// in-process wiring such as admission plugins that look objects up.
func (s *Server) Store(gvr runtime.GroupVersionResource) (*registry.Store, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, ok := s.resources[gvr]
	if !ok {
		return nil, false
	}
	return r.scope.Store, true
}

// serveResource dispatches a resource request by its RequestInfo to the
// verb handler, after checking the resource exists, the scope matches and
// the verb is served.
func (s *Server) serveResource(w http.ResponseWriter, r *http.Request) {
	info, _ := request.RequestInfoFrom(r.Context())
	if info == nil || !info.IsResourceRequest {
		responsewriters.WriteError(w, r, notFoundPath())
		return
	}
	gvr := runtime.GroupVersionResource{Group: info.APIGroup, Version: info.APIVersion, Resource: info.Resource}
	s.mu.RLock()
	res, ok := s.resources[gvr]
	s.mu.RUnlock()
	if !ok {
		responsewriters.WriteError(w, r, notFoundPath())
		return
	}
	for _, msg := range res.warnings {
		w.Header().Add("Warning", fmt.Sprintf("299 - %q", msg))
	}
	// Admission plugins warn the client (PodSecurity's warn mode)
	// through the request's context.
	r = r.WithContext(request.WithWarningRecorder(r.Context(), request.NewHeaderWarnings(w.Header())))
	// A namespaced object needs a namespace in its path; a cluster-scoped
	// one must not have one (namespaces themselves excepted).
	if res.info.Namespaced && info.Namespace == "" && info.Name != "" ||
		!res.info.Namespaced && info.Namespace != "" && info.Resource != "namespaces" {
		responsewriters.WriteError(w, r, notFoundPath())
		return
	}
	if info.Subresource != "" {
		s.serveSubresource(w, r, res, info)
		return
	}
	if !res.info.HasVerb(info.Verb) {
		responsewriters.WriteError(w, r, methodNotAllowed(r.Method))
		return
	}
	sc := res.scope
	if info.Name == "" && (info.Verb == "update" || info.Verb == "patch") {
		responsewriters.WriteError(w, r, methodNotAllowed(r.Method))
		return
	}
	switch info.Verb {
	case "get":
		sc.Get(w, r)
	case "list", "watch":
		sc.List(w, r)
	case "create":
		if info.Name != "" {
			responsewriters.WriteError(w, r, methodNotAllowed(r.Method))
			return
		}
		if res.terminating.Load() {
			se := apierrors.NewMethodNotSupported(gvr.GroupResource(), info.Verb)
			se.ErrStatus.Message = "create not allowed while custom resource definition is terminating"
			responsewriters.WriteError(w, r, se)
			return
		}
		if res.createOverride != nil {
			sc.CreateSubresource(w, r, *res.createOverride)
			return
		}
		sc.Create(w, r)
	case "update":
		sc.Update(w, r)
	case "patch":
		sc.Patch(w, r)
	case "delete":
		sc.Delete(w, r)
	case "deletecollection":
		sc.DeleteCollection(w, r)
	default:
		responsewriters.WriteError(w, r, methodNotAllowed(r.Method))
	}
}

func (s *Server) serveSubresource(w http.ResponseWriter, r *http.Request, res *resource, info *request.RequestInfo) {
	if sc, ok := res.update[info.Subresource]; ok {
		switch info.Verb {
		case "get":
			sc.Get(w, r)
		case "update":
			sc.Update(w, r)
		case "patch":
			sc.Patch(w, r)
		default:
			responsewriters.WriteError(w, r, methodNotAllowed(r.Method))
		}
		return
	}
	if h, ok := res.get[info.Subresource]; ok {
		if info.Verb != "get" {
			responsewriters.WriteError(w, r, methodNotAllowed(r.Method))
			return
		}
		h.ServeHTTP(w, r)
		return
	}
	if h, ok := res.connect[info.Subresource]; ok {
		h.ServeHTTP(w, r)
		return
	}
	if fn, ok := res.create[info.Subresource]; ok {
		if info.Verb != "create" {
			responsewriters.WriteError(w, r, methodNotAllowed(r.Method))
			return
		}
		res.scope.CreateSubresource(w, r, fn)
		return
	}
	responsewriters.WriteError(w, r, notFoundPath())
}

func methodNotAllowed(method string) error {
	se := apierrors.NewMethodNotSupported(runtime.GroupResource{}, method)
	se.ErrStatus.Message = "the server does not allow this method on the requested resource"
	return se
}
