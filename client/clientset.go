package client

import (
	"fmt"

	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// Typed clients of the core/v1 resources.
type (
	// PodClient is the client of pods.
	PodClient = Resource[*corev1.Pod, *corev1.PodList]
	// NodeClient is the client of nodes.
	NodeClient = Resource[*corev1.Node, *corev1.NodeList]
	// NamespaceClient is the client of namespaces.
	NamespaceClient = Resource[*corev1.Namespace, *corev1.NamespaceList]
	// EventClient is the client of events.
	EventClient = Resource[*corev1.Event, *corev1.EventList]
	// LeaseClient is the client of coordination.k8s.io leases.
	LeaseClient = Resource[*coordinationv1.Lease, *coordinationv1.LeaseList]
)

// Clientset is the typed clients of core/v1 over one Client, built once
// from the scheme. It is safe for concurrent use.
//
// Upstream: k8s.io/client-go/kubernetes (Clientset, CoreV1).
type Clientset struct {
	client     *Client
	pods       *PodClient
	nodes      *NodeClient
	namespaces *NamespaceClient
	events     *EventClient
	leases     *LeaseClient
}

// NewClientset returns the core/v1 clients over c, whose scheme must hold
// core/v1 (the default Config.Scheme does).
func NewClientset(c *Client) (*Clientset, error) {
	cs := &Clientset{client: c}
	var err error
	if cs.pods, err = NewResource[*corev1.Pod, *corev1.PodList](c, corev1.SchemeGroupVersion.WithResource("pods")); err != nil {
		return nil, fmt.Errorf("client: clientset: %w", err)
	}
	if cs.nodes, err = NewResource[*corev1.Node, *corev1.NodeList](c, corev1.SchemeGroupVersion.WithResource("nodes")); err != nil {
		return nil, fmt.Errorf("client: clientset: %w", err)
	}
	if cs.namespaces, err = NewResource[*corev1.Namespace, *corev1.NamespaceList](c, corev1.SchemeGroupVersion.WithResource("namespaces")); err != nil {
		return nil, fmt.Errorf("client: clientset: %w", err)
	}
	if cs.events, err = NewResource[*corev1.Event, *corev1.EventList](c, corev1.SchemeGroupVersion.WithResource("events")); err != nil {
		return nil, fmt.Errorf("client: clientset: %w", err)
	}
	if cs.leases, err = NewResource[*coordinationv1.Lease, *coordinationv1.LeaseList](c, coordinationv1.SchemeGroupVersion.WithResource("leases")); err != nil {
		return nil, fmt.Errorf("client: clientset: %w", err)
	}
	return cs, nil
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

// Leases returns the leases client of namespace ns ("" for all
// namespaces).
func (cs *Clientset) Leases(ns string) *LeaseClient { return cs.leases.Namespace(ns) }
