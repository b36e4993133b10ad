package client

import (
	"fmt"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Typed clients of the built-in resources.
type (
	// PodClient is the client of pods.
	PodClient = Resource[*corev1.Pod, *corev1.PodList]
	// NodeClient is the client of nodes.
	NodeClient = Resource[*corev1.Node, *corev1.NodeList]
	// NamespaceClient is the client of namespaces.
	NamespaceClient = Resource[*corev1.Namespace, *corev1.NamespaceList]
	// EventClient is the client of events.
	EventClient = Resource[*corev1.Event, *corev1.EventList]
	// ServiceClient is the client of services.
	ServiceClient = Resource[*corev1.Service, *corev1.ServiceList]
	// EndpointsClient is the client of endpoints.
	EndpointsClient = Resource[*corev1.Endpoints, *corev1.EndpointsList]
	// ConfigMapClient is the client of configmaps.
	ConfigMapClient = Resource[*corev1.ConfigMap, *corev1.ConfigMapList]
	// SecretClient is the client of secrets.
	SecretClient = Resource[*corev1.Secret, *corev1.SecretList]
	// ServiceAccountClient is the client of serviceaccounts.
	ServiceAccountClient = Resource[*corev1.ServiceAccount, *corev1.ServiceAccountList]
	// LeaseClient is the client of coordination.k8s.io leases.
	LeaseClient = Resource[*coordinationv1.Lease, *coordinationv1.LeaseList]
	// DeploymentClient is the client of apps/v1 deployments.
	DeploymentClient = Resource[*appsv1.Deployment, *appsv1.DeploymentList]
	// ReplicaSetClient is the client of apps/v1 replicasets.
	ReplicaSetClient = Resource[*appsv1.ReplicaSet, *appsv1.ReplicaSetList]
	// JobClient is the client of batch/v1 jobs.
	JobClient = Resource[*batchv1.Job, *batchv1.JobList]
	// EndpointSliceClient is the client of discovery.k8s.io/v1
	// endpointslices.
	EndpointSliceClient = Resource[*discoveryv1.EndpointSlice, *discoveryv1.EndpointSliceList]
)

// Clientset is the typed clients of the built-in resources over one
// Client, built once from the scheme. It is safe for concurrent use.
//
// Upstream: k8s.io/client-go/kubernetes (Clientset: CoreV1, AppsV1,
// BatchV1, CoordinationV1).
type Clientset struct {
	client          *Client
	pods            *PodClient
	nodes           *NodeClient
	namespaces      *NamespaceClient
	events          *EventClient
	services        *ServiceClient
	endpoints       *EndpointsClient
	configMaps      *ConfigMapClient
	secrets         *SecretClient
	serviceAccounts *ServiceAccountClient
	leases          *LeaseClient
	deployments     *DeploymentClient
	replicaSets     *ReplicaSetClient
	jobs            *JobClient
	endpointSlices  *EndpointSliceClient
}

// NewClientset returns the typed clients over c, whose scheme must hold
// the built-in kinds (the default Config.Scheme does).
func NewClientset(c *Client) (*Clientset, error) {
	cs := &Clientset{client: c}
	core := corev1.SchemeGroupVersion
	errs := []error{
		newTyped(c, core.WithResource("pods"), &cs.pods),
		newTyped(c, core.WithResource("nodes"), &cs.nodes),
		newTyped(c, core.WithResource("namespaces"), &cs.namespaces),
		newTyped(c, core.WithResource("events"), &cs.events),
		newTyped(c, core.WithResource("services"), &cs.services),
		newTyped(c, core.WithResource("endpoints"), &cs.endpoints),
		newTyped(c, core.WithResource("configmaps"), &cs.configMaps),
		newTyped(c, core.WithResource("secrets"), &cs.secrets),
		newTyped(c, core.WithResource("serviceaccounts"), &cs.serviceAccounts),
		newTyped(c, coordinationv1.SchemeGroupVersion.WithResource("leases"), &cs.leases),
		newTyped(c, appsv1.SchemeGroupVersion.WithResource("deployments"), &cs.deployments),
		newTyped(c, appsv1.SchemeGroupVersion.WithResource("replicasets"), &cs.replicaSets),
		newTyped(c, batchv1.SchemeGroupVersion.WithResource("jobs"), &cs.jobs),
		newTyped(c, discoveryv1.SchemeGroupVersion.WithResource("endpointslices"), &cs.endpointSlices),
	}
	for _, err := range errs {
		if err != nil {
			return nil, fmt.Errorf("client: clientset: %w", err)
		}
	}
	return cs, nil
}

// newTyped sets *into to the client of gvr.
func newTyped[T metav1.Object, L metav1.ListInterface](c *Client, gvr runtime.GroupVersionResource, into **Resource[T, L]) error {
	r, err := NewResource[T, L](c, gvr)
	*into = r
	return err
}

// Client returns the Client under the clientset, for NewResource.
func (cs *Clientset) Client() *Client { return cs.client }

// Pods returns the pods client of namespace ns ("" for all namespaces).
func (cs *Clientset) Pods(ns string) *PodClient { return cs.pods.Namespace(ns) }

// Nodes returns the nodes client.
func (cs *Clientset) Nodes() *NodeClient { return cs.nodes }

// Namespaces returns the namespaces client.
func (cs *Clientset) Namespaces() *NamespaceClient { return cs.namespaces }

// Events returns the events client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) Events(ns string) *EventClient { return cs.events.Namespace(ns) }

// Services returns the services client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) Services(ns string) *ServiceClient { return cs.services.Namespace(ns) }

// Endpoints returns the endpoints client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) Endpoints(ns string) *EndpointsClient { return cs.endpoints.Namespace(ns) }

// ConfigMaps returns the configmaps client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) ConfigMaps(ns string) *ConfigMapClient { return cs.configMaps.Namespace(ns) }

// Secrets returns the secrets client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) Secrets(ns string) *SecretClient { return cs.secrets.Namespace(ns) }

// ServiceAccounts returns the serviceaccounts client of namespace ns (""
// for all namespaces).
func (cs *Clientset) ServiceAccounts(ns string) *ServiceAccountClient {
	return cs.serviceAccounts.Namespace(ns)
}

// Leases returns the leases client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) Leases(ns string) *LeaseClient { return cs.leases.Namespace(ns) }

// Deployments returns the deployments client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) Deployments(ns string) *DeploymentClient { return cs.deployments.Namespace(ns) }

// ReplicaSets returns the replicasets client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) ReplicaSets(ns string) *ReplicaSetClient { return cs.replicaSets.Namespace(ns) }

// Jobs returns the jobs client of namespace ns ("" for all namespaces).
func (cs *Clientset) Jobs(ns string) *JobClient { return cs.jobs.Namespace(ns) }

// EndpointSlices returns the endpointslices client of namespace ns (""
// for all namespaces).
func (cs *Clientset) EndpointSlices(ns string) *EndpointSliceClient {
	return cs.endpointSlices.Namespace(ns)
}
