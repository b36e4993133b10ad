package apiserver

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/apiserver/registry/core"
)

// installStreamingSubresources adds the subresources that relay a
// connection rather than store anything: pods/exec, pods/attach and
// pods/portforward to the pod's kubelet, pods/proxy and services/proxy
// to the pod's server. Pods, nodes, services and endpoints must be
// installed.
func (s *Server) installStreamingSubresources() error {
	pods, _ := s.Store(gvrPods)
	nodes, _ := s.Store(corev1.SchemeGroupVersion.WithResource("nodes"))
	services, _ := s.Store(gvrServices)
	endpoints, _ := s.Store(gvrEndpoints)
	for _, name := range []string{"exec", "attach", "portforward"} {
		if err := s.addConnectSubresource(gvrPods, name, core.NewPodConnect(name, pods, nodes, nil)); err != nil {
			return err
		}
	}
	if err := s.addConnectSubresource(gvrPods, "proxy", core.NewPodProxy(pods, s.proxyDialer)); err != nil {
		return err
	}
	return s.addConnectSubresource(gvrServices, "proxy", core.NewServiceProxy(services, endpoints, s.proxyDialer))
}
