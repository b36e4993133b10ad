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

// ResourceLister lists the resources the server serves, in every version;
// *runtime.Scheme is one. matchPolicy Equivalent uses it to find the other
// versions of a request's resource.
type ResourceLister interface {
	Resources() []runtime.ResourceInfo
}
