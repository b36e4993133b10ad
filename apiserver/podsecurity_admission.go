package apiserver

import (
	"context"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/apiserver/admission/podsecurity"
	"github.com/minicp/minicp/apiserver/registry"
)

// podSecurityAdmission lists pods for the PodSecurity plugin. Unlike
// upstream's plugin, which reads its informer, it lists from etcd: it
// lists only when a namespace's enforce level tightens, which is rare,
// and then its warnings name every pod, even one created a moment ago.
type podSecurityAdmission struct{ s *Server }

var _ podsecurity.PodLister = podSecurityAdmission{}

// ListPods implements podsecurity.PodLister.
func (p podSecurityAdmission) ListPods(ctx context.Context, ns string) ([]*corev1.Pod, error) {
	store, ok := p.s.Store(gvrPods)
	if !ok {
		return nil, nil
	}
	obj, err := store.List(ctx, ns, registry.ListOptions{})
	if err != nil {
		return nil, err
	}
	items := obj.(*corev1.PodList).Items
	out := make([]*corev1.Pod, len(items))
	for i := range items {
		out[i] = &items[i]
	}
	return out, nil
}
