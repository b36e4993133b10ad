package apiserver

import (
	"fmt"
	"net/http"
	"slices"

	"github.com/minicp/minicp/api/runtime"
)

// addGetSubresource adds a GET-only subresource to an installed resource,
// served by h: something computed or relayed rather than stored, such as
// pods/log, which streams from the pod's kubelet. It also adds the
// subresource to the resource's ResourceInfo, so discovery lists it and
// clients such as kubectl know it is there.
//
// Upstream: a rest.GetterWithOptions whose object is a rest.ResourceStreamer
// (k8s.io/kubernetes/pkg/registry/core/pod/rest LogREST).
func (s *Server) addGetSubresource(gvr runtime.GroupVersionResource, name string, h http.Handler) error {
	return s.addHandlerSubresource(gvr, name, h, false)
}

// addConnectSubresource adds a subresource that h serves for every
// method, checking them itself: those that relay a connection, such as
// pods/exec (GET for WebSocket, POST for SPDY) and pods/proxy (any
// method, relayed).
//
// Upstream: a rest.Connecter (k8s.io/kubernetes/pkg/registry/core/pod/rest
// ExecREST, ProxyREST).
func (s *Server) addConnectSubresource(gvr runtime.GroupVersionResource, name string, h http.Handler) error {
	return s.addHandlerSubresource(gvr, name, h, true)
}

func (s *Server) addHandlerSubresource(gvr runtime.GroupVersionResource, name string, h http.Handler, connect bool) error {
	info, ok := s.scheme.Resource(gvr)
	if !ok {
		return fmt.Errorf("apiserver: add subresource %s: the scheme has no resource %s", name, gvr)
	}
	if !info.HasSubresource(name) {
		info.Subresources = append(slices.Clone(info.Subresources), name)
		if err := s.scheme.AddResource(info); err != nil {
			return fmt.Errorf("apiserver: add subresource %s/%s: %w", gvr.Resource, name, err)
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	r, ok := s.resources[gvr]
	if !ok {
		return fmt.Errorf("apiserver: add subresource %s: %s is not installed", name, gvr)
	}
	r.info = info
	if connect {
		if r.connect == nil {
			r.connect = map[string]http.Handler{}
		}
		r.connect[name] = h
		return nil
	}
	if r.get == nil {
		r.get = map[string]http.Handler{}
	}
	r.get[name] = h
	return nil
}
