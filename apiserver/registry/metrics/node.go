package metrics

import (
	"context"
	"sort"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/storage"
)

// NodeStorage is the storage of metrics.k8s.io's nodes resource: each
// node's NodeMetrics, read from its kubelet on every Get and GetList.
// NodeMetrics carry their node's labels, which label selectors select
// on. A node whose kubelet cannot be asked has no NodeMetrics. It is safe
// for concurrent use.
//
// Upstream: sigs.k8s.io/metrics-server/pkg/api (nodeMetrics).
type NodeStorage struct {
	readOnly
	opts     Options
	kubelets *kubeletClient
	root     string
}

var _ storage.Interface = (*NodeStorage)(nil)

// NewNodeStorage returns the storage of NodeMetrics.
func NewNodeStorage(opts Options) (*NodeStorage, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	return &NodeStorage{
		readOnly: readOnly{resource: nodeMetricsResource}, opts: opts,
		kubelets: newKubeletClient(opts.Transport),
		root:     storage.ResourcePrefix(metricsv1beta1.NodesResource().GVR.GroupResource()),
	}, nil
}

// Get implements storage.Interface: the NodeMetrics of the node the key
// names. A node that does not exist is 404 `node "x" not found` (the
// words of the node lister metrics-server asks); one that cannot be
// measured, 404 `nodemetrics.metrics.k8s.io "x" not found`.
func (s *NodeStorage) Get(ctx context.Context, key string, _ storage.GetOptions) (runtime.Object, error) {
	parts, err := keyParts(s.root, key)
	if err != nil {
		return nil, err
	}
	if len(parts) != 1 {
		return nil, apierrors.NewBadRequest("a node's metrics are asked for by name")
	}
	obj, err := s.opts.Nodes.Get(ctx, "", parts[0])
	if apierrors.IsNotFound(err) {
		return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "node"}, parts[0])
	}
	if err != nil {
		return nil, err
	}
	m, ok := s.measure(ctx, obj.(*corev1.Node))
	if !ok {
		return nil, apierrors.NewNotFound(nodeMetricsResource, parts[0])
	}
	return m, nil
}

// GetList implements storage.Interface: the NodeMetrics of the nodes
// that match opts.Predicate, by name. Pages are not served: the list is
// whole, as metrics-server's is.
func (s *NodeStorage) GetList(ctx context.Context, key string, opts storage.ListOptions) (*storage.ListResult, error) {
	if !opts.Recursive {
		obj, err := s.Get(ctx, key, storage.GetOptions{})
		if apierrors.IsNotFound(err) {
			return &storage.ListResult{}, nil
		}
		if err != nil {
			return nil, err
		}
		items, err := filter([]runtime.Object{obj}, opts.Predicate)
		return &storage.ListResult{Items: items}, err
	}
	list, err := s.opts.Nodes.List(ctx, "", registry.ListOptions{LabelSelector: opts.Predicate.Label})
	if err != nil {
		return nil, err
	}
	nodes := list.(*corev1.NodeList).Items
	var ms []*metricsv1beta1.NodeMetrics
	for i := range nodes {
		if m, ok := s.measure(ctx, &nodes[i]); ok {
			ms = append(ms, m)
		}
	}
	sort.Slice(ms, func(i, j int) bool { return ms[i].Name < ms[j].Name })
	items, err := filter(ms, opts.Predicate)
	return &storage.ListResult{Items: items}, err
}

// measure asks node's kubelet for its usage: false when it cannot be
// asked or does not report both CPU and memory.
func (s *NodeStorage) measure(ctx context.Context, node *corev1.Node) (*metricsv1beta1.NodeMetrics, bool) {
	sum, err := s.kubelets.summary(ctx, node)
	if err != nil || sum.Node.CPU == nil {
		return nil, false
	}
	usage, ok := usageList(sum.Node.CPU, sum.Node.Memory)
	if !ok {
		return nil, false
	}
	return &metricsv1beta1.NodeMetrics{
		ObjectMeta: metav1.ObjectMeta{
			Name: node.Name, Labels: node.Labels, CreationTimestamp: metav1.NewTime(s.opts.Clock.Now()),
		},
		Timestamp: sum.Node.CPU.Time,
		Window:    window,
		Usage:     usage,
	}, true
}
