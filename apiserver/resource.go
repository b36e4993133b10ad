package apiserver

import (
	"fmt"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
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
	CreateSubresources map[string]handlers.CreateSubresourceFunc
	// CreateOverride replaces the collection POST for kinds that are
	// actions rather than stored objects (the bindings resource).
	CreateOverride *handlers.CreateSubresourceFunc
	// ReturnDeletedObject: see registry.Store.
	ReturnDeletedObject bool
	// Tables renders `kubectl get` rows. Defaults to printers.Default.
	Tables handlers.TableConvertor
	// Indexers index the watch cache by a selectable field, so a watch
	// pinned to one value (a kubelet's spec.nodeName=X) is woken only by
	// its own objects.
	Indexers map[string]watchcache.IndexFunc
}

// resource is an installed Resource.
type resource struct {
	info   runtime.ResourceInfo
	scope  *handlers.Scope
	update map[string]*handlers.Scope
	create map[string]handlers.CreateSubresourceFunc
	// createOverride: see Resource.CreateOverride.
	createOverride *handlers.CreateSubresourceFunc
	// get are GET-only subresources served by a handler of their own,
	// such as pods/log (see addGetSubresource).
	get map[string]http.Handler
}

// InstallResource starts serving r, with its own storage under the
// server's etcd prefix. The kind must be in the server's Scheme.
func (s *Server) InstallResource(r Resource) error {
	etcdStore, err := storage.NewStore(s.etcd, storage.StoreOptions{
		Prefix:        s.prefix,
		GroupResource: r.Info.GVR.GroupResource(),
		NewFunc: func() runtime.Object {
			obj, _ := s.scheme.New(r.Info.GVK())
			return obj
		},
		Logger: s.log,
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
	if !s.watchCacheDisabled {
		// One Cacher per resource: one etcd watch, however many clients
		// watch (seed 004). The registry writes through it to etcd.
		cacher, err := watchcache.New(watchcache.Options{
			Storage:           etcdStore,
			ResourcePrefix:    rs.KeyRoot(),
			NewFunc:           rs.New,
			GetAttrs:          rs.Attrs,
			Indexers:          r.Indexers,
			BookmarkFrequency: s.bookmarkFrequency,
			Clock:             s.clock,
			Logger:            s.log.With("resource", r.Info.GVR.Resource),
		})
		if err != nil {
			return fmt.Errorf("install %s: %w", r.Info.GVR, err)
		}
		rs.Storage = cacher
		s.mu.Lock()
		s.cachers = append(s.cachers, cacher)
		s.mu.Unlock()
	}
	tables := r.Tables
	if tables == nil {
		tables = defaultTables
	}
	scope := &handlers.Scope{Store: rs, Admission: s.admission, Tables: tables, Clock: s.clock, Logger: s.log}
	installed := &resource{info: r.Info, scope: scope, update: map[string]*handlers.Scope{},
		create: r.CreateSubresources, createOverride: r.CreateOverride}
	for name, st := range r.UpdateSubresources {
		sub := *scope
		sub.Store = rs.WithStrategy(st)
		sub.Subresource = name
		installed.update[name] = &sub
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.resources[r.Info.GVR] = installed
	return nil
}

// addCreateSubresource adds a POST subresource to an installed resource,
// for handlers that need the resource's own store.
func (s *Server) addCreateSubresource(gvr runtime.GroupVersionResource, name string, fn handlers.CreateSubresourceFunc) {
	s.mu.Lock()
	defer s.mu.Unlock()
	r := s.resources[gvr]
	if r.create == nil {
		r.create = map[string]handlers.CreateSubresourceFunc{}
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
