package core

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// DialFunc connects to a cluster address (a pod IP and port), as
// net.Dialer.DialContext does.
type DialFunc func(ctx context.Context, network, address string) (net.Conn, error)

// proxyDialTimeout bounds connecting to a pod: pods are reached on this
// machine (see ResourceProxy), so a longer wait means nothing listens.
const proxyDialTimeout = 5 * time.Second

// ResourceProxy serves pods/proxy and services/proxy:
//
//	/api/v1/namespaces/{ns}/pods/[scheme:]{name}[:port]/proxy/{path}
//	/api/v1/namespaces/{ns}/services/[scheme:]{name}[:port]/proxy/{path}
//
// It relays the request, any method, to the pod's server (for a Service,
// a ready endpoint's, picked at random) at path, and its answer back, as
// `kubectl proxy` users and dashboards reach in-cluster servers. Links
// in the answer that point at the server itself (HTML attributes, a
// redirect's Location) are rewritten to stay under the proxy path (see
// rewritingTransport), and a GET of .../proxy with no path is redirected
// to .../proxy/. The client's credentials are not passed on. Pods are
// dialled through the DialFunc it was given, which maps pod IPs to where
// minicp's simulated servers listen.
//
// Errors are Status objects: a missing pod or service is 404; a pod with
// no IP, a port that is not the service's, 400; a service with no ready
// endpoint or a server that cannot be reached, 503 ServiceUnavailable
// ("no endpoints available for service", "error trying to reach service").
// It is safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/registry/core/pod/rest (ProxyREST),
// k8s.io/kubernetes/pkg/registry/core/service (ProxyREST, ResourceLocation).
type ResourceProxy struct {
	// resource is pods or services.
	resource  string
	store     *registry.Store
	endpoints *registry.Store
	transport http.RoundTripper
}

// NewPodProxy returns the pods/proxy handler.
func NewPodProxy(pods *registry.Store, dial DialFunc) *ResourceProxy {
	return &ResourceProxy{resource: "pods", store: pods, transport: proxyTransport(dial)}
}

// NewServiceProxy returns the services/proxy handler.
func NewServiceProxy(services, endpoints *registry.Store, dial DialFunc) *ResourceProxy {
	return &ResourceProxy{resource: "services", store: services, endpoints: endpoints, transport: proxyTransport(dial)}
}

// proxyTransport reaches pods through dial (nil: the network as it is).
// No keep-alive: no idle connection outlives its request.
func proxyTransport(dial DialFunc) *http.Transport {
	if dial == nil {
		dial = (&net.Dialer{}).DialContext
	}
	return &http.Transport{
		DialContext: func(ctx context.Context, network, address string) (net.Conn, error) {
			ctx, cancel := context.WithTimeout(ctx, proxyDialTimeout)
			defer cancel()
			return dial(ctx, network, address)
		},
		DisableKeepAlives: true,
	}
}

// ServeHTTP serves one proxy request; the request-info filter must have
// run.
func (p *ResourceProxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	info, ok := request.RequestInfoFrom(r.Context())
	if !ok || info.Name == "" {
		responsewriters.WriteError(w, r, apierrors.NewNotFound(runtime.GroupResource{Resource: p.resource}, ""))
		return
	}
	scheme, name, port := splitProxyName(info.Name)
	var (
		target string
		err    error
	)
	if p.resource == "pods" {
		target, err = p.podTarget(r, info.Namespace, name, port)
	} else {
		target, err = p.serviceTarget(r, info.Namespace, name, port)
	}
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	if scheme == "" {
		scheme = "http"
	}
	// The path after .../{name}/proxy, as the client sent it, and the
	// proxy path before it.
	marker := "/" + p.resource + "/" + info.Name + "/proxy"
	prefix, rest := r.URL.Path, ""
	if i := strings.Index(r.URL.Path, marker); i >= 0 {
		prefix, rest = r.URL.Path[:i+len(marker)], r.URL.Path[i+len(marker):]
	}
	if rest == "" {
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			// As upstream: the server's root is .../proxy/, so that the
			// relative links of its page resolve under the proxy path.
			redirectToRoot(w, r)
			return
		}
		rest = "/"
	}
	loc := &url.URL{Scheme: scheme, Host: target, Path: rest, RawQuery: r.URL.RawQuery}
	proxy := &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL = loc
			pr.Out.Host = loc.Host
			stripCredentials(pr.Out.Header)
		},
		Transport: &rewritingTransport{pathPrepend: prefix, clientHost: r.Host, next: p.transport},
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if errors.Is(err, context.Canceled) {
				return // the client went away
			}
			responsewriters.WriteError(w, r, apierrors.NewServiceUnavailable(fmt.Sprintf("error trying to reach service: %v", err)))
		},
	}
	proxy.ServeHTTP(w, r)
}

// redirectToRoot answers 301 Moved Permanently to r's path with a
// trailing slash, keeping the query.
//
// Upstream: k8s.io/apimachinery/pkg/util/proxy (proxyRedirectsforRootPath).
func redirectToRoot(w http.ResponseWriter, r *http.Request) {
	loc := r.URL.Path + "/"
	if r.URL.RawQuery != "" {
		loc += "?" + r.URL.RawQuery
	}
	w.Header().Set("Location", loc)
	w.WriteHeader(http.StatusMovedPermanently)
}

// splitProxyName splits [scheme:]name[:port].
//
// Upstream: k8s.io/apimachinery/pkg/util/net (SplitSchemeNamePort).
func splitProxyName(id string) (scheme, name, port string) {
	parts := strings.Split(id, ":")
	switch len(parts) {
	case 1:
		name = parts[0]
	case 2:
		name, port = parts[0], parts[1]
	default:
		scheme, name, port = parts[0], parts[1], parts[2]
	}
	return scheme, name, port
}

// podTarget returns the pod's IP and port: the one asked for, else the
// first container port, else 80.
func (p *ResourceProxy) podTarget(r *http.Request, ns, name, port string) (string, error) {
	obj, err := p.store.Get(r.Context(), ns, name)
	if err != nil {
		return "", err
	}
	pod := obj.(*corev1.Pod)
	if pod.Status.PodIP == "" {
		return "", apierrors.NewBadRequest(fmt.Sprintf("address not allowed: pod %s has no IP", name))
	}
	if port == "" {
		port = "80"
		for _, c := range pod.Spec.Containers {
			if len(c.Ports) > 0 {
				port = strconv.Itoa(int(c.Ports[0].ContainerPort))
				break
			}
		}
	}
	if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
		return "", apierrors.NewBadRequest(fmt.Sprintf("invalid port %q", port))
	}
	return net.JoinHostPort(pod.Status.PodIP, port), nil
}

// serviceTarget returns a ready endpoint of the service's port (by name
// or number; the only one when not given), picked at random.
func (p *ResourceProxy) serviceTarget(r *http.Request, ns, name, port string) (string, error) {
	obj, err := p.store.Get(r.Context(), ns, name)
	if err != nil {
		return "", err
	}
	svc := obj.(*corev1.Service)
	var sp *corev1.ServicePort
	for i := range svc.Spec.Ports {
		cand := &svc.Spec.Ports[i]
		if port == "" && len(svc.Spec.Ports) == 1 || port != "" && (cand.Name == port || strconv.Itoa(int(cand.Port)) == port) {
			sp = cand
			break
		}
	}
	if sp == nil {
		return "", apierrors.NewBadRequest(fmt.Sprintf("no service port %q found for service %q", port, name))
	}
	obj, err = p.endpoints.Get(r.Context(), ns, name)
	if apierrors.IsNotFound(err) {
		return "", apierrors.NewServiceUnavailable(fmt.Sprintf("no endpoints available for service %q", name))
	}
	if err != nil {
		return "", err
	}
	var targets []string
	for _, ss := range obj.(*corev1.Endpoints).Subsets {
		for _, ep := range ss.Ports {
			if ep.Name != sp.Name {
				continue
			}
			for _, a := range ss.Addresses {
				targets = append(targets, net.JoinHostPort(a.IP, strconv.Itoa(int(ep.Port))))
			}
		}
	}
	if len(targets) == 0 {
		return "", apierrors.NewServiceUnavailable(fmt.Sprintf("no endpoints available for service %q", name))
	}
	// As upstream: any ready endpoint, chosen at random, not
	// round-robin; the proxy is for reaching a server, not for load.
	return targets[rand.IntN(len(targets))], nil
}
