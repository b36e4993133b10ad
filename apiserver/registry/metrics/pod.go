package metrics

import (
	"context"
	"sort"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	metricsv1beta1 "github.com/minicp/minicp/api/metrics/v1beta1"
	"github.com/minicp/minicp/api/runtime"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/storage"
)

// PodStorage is the storage of metrics.k8s.io's pods resource: each
// running pod's PodMetrics, read from its node's kubelet on every Get and
// GetList. PodMetrics carry their pod's labels, which label selectors
// select on. A pod that is not Running, or whose kubelet cannot be asked
// or reports no running container, has no PodMetrics. It is safe for
// concurrent use.
//
// Upstream: sigs.k8s.io/metrics-server/pkg/api (podMetrics).
type PodStorage struct {
	readOnly
	opts     Options
	kubelets *kubeletClient
	root     string
}

var _ storage.Interface = (*PodStorage)(nil)

// NewPodStorage returns the storage of PodMetrics.
func NewPodStorage(opts Options) (*PodStorage, error) {
	if err := opts.validate(); err != nil {
		return nil, err
	}
	return &PodStorage{
		readOnly: readOnly{resource: podMetricsResource}, opts: opts,
		kubelets: newKubeletClient(opts.Transport),
		root:     storage.ResourcePrefix(metricsv1beta1.PodsResource().GVR.GroupResource()),
	}, nil
}

// Get implements storage.Interface: the PodMetrics of the pod the key
// names. A pod that does not exist is the pods' own 404 (`pods "x" not
// found`); one that is not running or cannot be measured, 404
// `podmetrics.metrics.k8s.io "ns/x" not found`, metrics-server's words.
func (s *PodStorage) Get(ctx context.Context, key string, _ storage.GetOptions) (runtime.Object, error) {
	parts, err := keyParts(s.root, key)
	if err != nil {
		return nil, err
	}
	if len(parts) != 2 {
		return nil, apierrors.NewBadRequest("a pod's metrics are asked for by namespace and name")
	}
	ns, name := parts[0], parts[1]
	obj, err := s.opts.Pods.Get(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	ms := s.measure(ctx, []*corev1.Pod{obj.(*corev1.Pod)})
	if len(ms) == 0 {
		return nil, apierrors.NewNotFound(podMetricsResource, ns+"/"+name)
	}
	return ms[0], nil
}

// GetList implements storage.Interface: the PodMetrics of the running
// pods in the key's namespace (every namespace for the root) that match
// opts.Predicate, by namespace and name. Pages are not served: the list
// is whole, as metrics-server's is.
func (s *PodStorage) GetList(ctx context.Context, key string, opts storage.ListOptions) (*storage.ListResult, error) {
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
	parts, err := keyParts(s.root, key)
	if err != nil {
		return nil, err
	}
	ns := ""
	if len(parts) > 0 {
		ns = parts[0]
	}
	list, err := s.opts.Pods.List(ctx, ns, registry.ListOptions{LabelSelector: opts.Predicate.Label})
	if err != nil {
		return nil, err
	}
	items := list.(*corev1.PodList).Items
	pods := make([]*corev1.Pod, len(items))
	for i := range items {
		pods[i] = &items[i]
	}
	ms := s.measure(ctx, pods)
	sort.Slice(ms, func(i, j int) bool {
		a, b := ms[i], ms[j]
		return a.Namespace < b.Namespace || a.Namespace == b.Namespace && a.Name < b.Name
	})
	out, err := filter(ms, opts.Predicate)
	return &storage.ListResult{Items: out}, err
}

// measure returns the PodMetrics of those of pods that run and that
// their kubelets report, asking each node's kubelet once.
func (s *PodStorage) measure(ctx context.Context, pods []*corev1.Pod) []*metricsv1beta1.PodMetrics {
	byNode := map[string][]*corev1.Pod{}
	for _, p := range pods {
		// metrics-server reports Running pods only: a pod that finished
		// keeps no usage, and one still starting has none yet.
		if p.Status.Phase == corev1.PodRunning && p.Spec.NodeName != "" {
			byNode[p.Spec.NodeName] = append(byNode[p.Spec.NodeName], p)
		}
	}
	var out []*metricsv1beta1.PodMetrics
	now := metav1.NewTime(s.opts.Clock.Now())
	for nodeName, onNode := range byNode {
		obj, err := s.opts.Nodes.Get(ctx, "", nodeName)
		if err != nil {
			continue
		}
		sum, err := s.kubelets.summary(ctx, obj.(*corev1.Node))
		if err != nil {
			continue
		}
		reported := make(map[statsv1alpha1.PodReference]*statsv1alpha1.PodStats, len(sum.Pods))
		for i := range sum.Pods {
			reported[sum.Pods[i].PodRef] = &sum.Pods[i]
		}
		for _, p := range onNode {
			ps, ok := reported[statsv1alpha1.PodReference{Name: p.Name, Namespace: p.Namespace, UID: p.UID}]
			if !ok {
				continue
			}
			if m, ok := podMetrics(p, ps, now); ok {
				out = append(out, m)
			}
		}
	}
	return out
}

// podMetrics is p's PodMetrics from its kubelet's stats: false when no
// container reports both CPU and memory.
func podMetrics(p *corev1.Pod, ps *statsv1alpha1.PodStats, now metav1.Time) (*metricsv1beta1.PodMetrics, bool) {
	m := &metricsv1beta1.PodMetrics{
		ObjectMeta: metav1.ObjectMeta{Name: p.Name, Namespace: p.Namespace, Labels: p.Labels, CreationTimestamp: now},
		Window:     window,
		Containers: []metricsv1beta1.ContainerMetrics{},
	}
	for _, c := range ps.Containers {
		usage, ok := usageList(c.CPU, c.Memory)
		if !ok {
			continue
		}
		if m.Timestamp.IsZero() {
			m.Timestamp = c.CPU.Time
		}
		m.Containers = append(m.Containers, metricsv1beta1.ContainerMetrics{Name: c.Name, Usage: usage})
	}
	return m, len(m.Containers) > 0
}
