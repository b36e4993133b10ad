package apiserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission/webhook"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/registry/admissionregistration"
	"github.com/minicp/minicp/apiserver/webhookclient"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/watchcache"
)

var (
	gvrMutatingWebhookConfigurations   = admissionregistrationv1.SchemeGroupVersion.WithResource("mutatingwebhookconfigurations")
	gvrValidatingWebhookConfigurations = admissionregistrationv1.SchemeGroupVersion.WithResource("validatingwebhookconfigurations")
	gvrEndpoints                       = corev1.SchemeGroupVersion.WithResource("endpoints")
)

// installAdmissionRegistrationResources installs the two webhook
// configuration resources, with the ResourceInfo the Scheme has for them.
// The webhook plugins of DefaultAdmission read them through the server
// (see webhookAdmission).
func (s *Server) installAdmissionRegistrationResources() error {
	resources := []struct {
		gvr runtime.GroupVersionResource
		r   Resource
	}{
		{gvrMutatingWebhookConfigurations, Resource{
			Strategy: admissionregistration.MutatingWebhookConfigurationStrategy{},
			Tables:   admissionregistration.MutatingWebhookConfigurationTable,
		}},
		{gvrValidatingWebhookConfigurations, Resource{
			Strategy: admissionregistration.ValidatingWebhookConfigurationStrategy{},
			Tables:   admissionregistration.ValidatingWebhookConfigurationTable,
		}},
	}
	for _, res := range resources {
		info, ok := s.scheme.Resource(res.gvr)
		if !ok {
			return fmt.Errorf("apiserver: the scheme has no resource %s", res.gvr)
		}
		res.r.Info = info
		if err := s.InstallResource(res.r); err != nil {
			return err
		}
	}
	return nil
}

// webhookAdmission returns the MutatingAdmissionWebhook and
// ValidatingAdmissionWebhook plugins of DefaultAdmission, reading their
// configurations, namespaces, services and endpoints from this server.
// They look the stores up on each request, so they may be built before
// the resources are installed.
func (s *Server) webhookAdmission() (*webhook.Mutating, *webhook.Validating) {
	return &webhook.Mutating{
			Configurations: s, Namespaces: s, Services: s, Resources: s.scheme, SetDefaults: SetDefaults, Logger: s.log,
		}, &webhook.Validating{
			Configurations: s, Namespaces: s, Services: s, Resources: s.scheme, Logger: s.log,
		}
}

var (
	_ webhook.ConfigurationSource   = (*Server)(nil)
	_ webhookclient.ServiceResolver = (*Server)(nil)
)

// MutatingWebhookConfigurations implements webhook.ConfigurationSource:
// every MutatingWebhookConfiguration, from the watch cache (resourceVersion
// "0"), as kube-apiserver's webhook plugins read an informer. A
// configuration created a moment ago may not be there yet. The result is
// shared: callers must not modify it.
func (s *Server) MutatingWebhookConfigurations(ctx context.Context) ([]*admissionregistrationv1.MutatingWebhookConfiguration, error) {
	return listCached[*admissionregistrationv1.MutatingWebhookConfiguration](ctx, s, gvrMutatingWebhookConfigurations)
}

// ValidatingWebhookConfigurations implements webhook.ConfigurationSource
// as MutatingWebhookConfigurations does.
func (s *Server) ValidatingWebhookConfigurations(ctx context.Context) ([]*admissionregistrationv1.ValidatingWebhookConfiguration, error) {
	return listCached[*admissionregistrationv1.ValidatingWebhookConfiguration](ctx, s, gvrValidatingWebhookConfigurations)
}

// listCached lists every object of a resource from the watch cache (from
// etcd while the cache is relisting, see cachedRV). A server that does not
// serve the resource (its Scheme lacks it) has none.
func listCached[T runtime.Object](ctx context.Context, s *Server, gvr runtime.GroupVersionResource) ([]T, error) {
	store, ok := s.Store(gvr)
	if !ok {
		return nil, nil
	}
	list, err := store.List(ctx, "", registry.ListOptions{ResourceVersion: cachedRV(store)})
	if err != nil {
		return nil, err
	}
	items, err := runtime.ListItems(list)
	if err != nil {
		return nil, err
	}
	out := make([]T, len(items))
	for i, item := range items {
		out[i] = item.(T)
	}
	return out, nil
}

// ResolveEndpoint implements webhookclient.ServiceResolver: the address of the
// first ready endpoint of Service namespace/name for its port port, with
// the endpoint port named as that service port (which carries the
// service port's targetPort). Only Services with a cluster IP (ClusterIP,
// NodePort, LoadBalancer) resolve. The address is dialled as written, so
// for a webhook in the test process the Endpoints must point at
// 127.0.0.1: minicp has no pod network for a cluster IP to reach.
//
// The Service and its Endpoints are read from the watch cache, and from
// etcd when the cache does not have them yet.
//
// Upstream: k8s.io/apiserver/pkg/util/proxy (ResolveEndpoint), which picks
// a random subset and address.
func (s *Server) ResolveEndpoint(ctx context.Context, namespace, name string, port int32) (string, error) {
	obj, err := s.getCached(ctx, gvrServices, namespace, name)
	if err != nil {
		return "", err
	}
	svc := obj.(*corev1.Service)
	switch svc.Spec.Type {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer, "":
	default:
		return "", fmt.Errorf("unsupported service type %q", svc.Spec.Type)
	}
	var svcPort *corev1.ServicePort
	for i := range svc.Spec.Ports {
		if svc.Spec.Ports[i].Port == port {
			svcPort = &svc.Spec.Ports[i]
			break
		}
	}
	if svcPort == nil {
		return "", apierrors.NewServiceUnavailable(fmt.Sprintf("no service port %d found for service %q", port, name))
	}
	obj, err = s.getCached(ctx, gvrEndpoints, namespace, name)
	if err != nil {
		return "", err
	}
	for _, subset := range obj.(*corev1.Endpoints).Subsets {
		if len(subset.Addresses) == 0 {
			continue
		}
		for _, p := range subset.Ports {
			if p.Name == svcPort.Name {
				return net.JoinHostPort(subset.Addresses[0].IP, strconv.Itoa(int(p.Port))), nil
			}
		}
	}
	return "", apierrors.NewServiceUnavailable(fmt.Sprintf("no endpoints available for service %q", name))
}

// getCached reads one object from the watch cache, or from etcd when the
// cache does not have it (it may be a moment behind) or is relisting. The
// result is shared: callers must not modify it.
func (s *Server) getCached(ctx context.Context, gvr runtime.GroupVersionResource, ns, name string) (runtime.Object, error) {
	store, ok := s.Store(gvr)
	if !ok {
		return nil, fmt.Errorf("%s are not served", gvr.GroupResource())
	}
	key := store.Key(ns, name)
	obj, err := store.Storage.Get(ctx, key, storage.GetOptions{ResourceVersion: cachedRV(store)})
	if errors.Is(err, storage.ErrNotFound) {
		obj, err = store.Storage.Get(ctx, key, storage.GetOptions{})
	}
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
	}
	return obj, err
}

// cachedRV is the resourceVersion to read store with: "0", the watch
// cache's current state, when the cache can answer at once; "", a read of
// etcd, while it cannot. A watch cache whose etcd watch broke holds its
// reads until it has relisted, after a backoff on the server's clock.
// Webhook admission reads on every write, and a write must not wait for a
// relist (nor, under a fake clock, for a step): like upstream's watch
// cache when it is not ready, it reads etcd meanwhile.
func cachedRV(store *registry.Store) string {
	cacher, ok := store.Storage.(*watchcache.Cacher)
	if !ok {
		// No watch cache: storage answers "0" from etcd.
		return "0"
	}
	// WaitReady on a done context answers without waiting.
	done, cancel := context.WithCancel(context.Background())
	cancel()
	if cacher.WaitReady(done) != nil {
		return ""
	}
	return "0"
}
