package webhook

import (
	"context"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/runtime"
)

// ConfigurationSource lists the webhook configurations in force: the
// subset of the API server's stores the plugins read. The lists may come
// from a cache a moment behind etcd (kube-apiserver reads an informer), so
// a configuration just created may not be called for a request that
// follows at once. The plugins do not modify what is returned.
type ConfigurationSource interface {
	MutatingWebhookConfigurations(ctx context.Context) ([]*admissionregistrationv1.MutatingWebhookConfiguration, error)
	ValidatingWebhookConfigurations(ctx context.Context) ([]*admissionregistrationv1.ValidatingWebhookConfiguration, error)
}

// ServiceResolver turns a webhook's Service reference into an address to
// dial: the host:port of a ready endpoint of the Service in namespace,
// for the service port port (its spec.ports[].port). The address is
// dialled as it is, so endpoint addresses must be reachable from the API
// server's process: 127.0.0.1 for a webhook served by the test process,
// a real address for one elsewhere. The TLS server name stays
// <name>.<namespace>.svc, so the webhook's certificate must be valid for
// it. A Service that cannot be resolved is an error (a NotFound or
// ServiceUnavailable Status), which the failure policy then handles.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ServiceResolver).
type ServiceResolver interface {
	ResolveEndpoint(ctx context.Context, namespace, name string, port int32) (string, error)
}

// ResourceLister lists the resources the server serves, in every version;
// *runtime.Scheme is one. matchPolicy Equivalent uses it to find the other
// versions of a request's resource.
type ResourceLister interface {
	Resources() []runtime.ResourceInfo
}
