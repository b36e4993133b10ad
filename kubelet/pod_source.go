package kubelet

import (
	"fmt"
	"sync"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
)

// podSource is the kubelet's list of the pods bound to its node: the store
// its Reflector (a list-watch of pods with fieldSelector
// spec.nodeName=<node>) writes. Each change goes straight to the pod
// workers on the Reflector's goroutine; nothing is queued in between.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/config (NewSourceApiserver: a
// Reflector into an UndeltaStore whose changes feed the pod workers).
type podSource struct {
	workers *podWorkers
	// onSynced is called once, after the first list is handed over.
	onSynced func()

	// mu guards pods and synced. pods holds the API's latest copy of each
	// pod, by namespace/name.
	mu     sync.Mutex
	pods   map[string]*corev1.Pod
	synced bool
}

var _ informer.ReflectorStore = (*podSource)(nil)

func newPodSource(workers *podWorkers, onSynced func()) *podSource {
	return &podSource{workers: workers, onSynced: onSynced, pods: map[string]*corev1.Pod{}}
}

func podKey(ns, name string) string { return ns + "/" + name }

// Add implements informer.ReflectorStore.
func (s *podSource) Add(obj runtime.Object) error { return s.Update(obj) }

// Update implements informer.ReflectorStore.
func (s *podSource) Update(obj runtime.Object) error {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return fmt.Errorf("kubelet: pod source: got %T", obj)
	}
	key := podKey(pod.Namespace, pod.Name)
	s.mu.Lock()
	old := s.pods[key]
	s.pods[key] = pod
	s.mu.Unlock()
	// A pod deleted and created again under the same name while the
	// watch was down arrives as an update with a new UID.
	if old != nil && old.UID != pod.UID {
		s.workers.delete(old.UID)
	}
	s.workers.update(pod)
	return nil
}

// Delete implements informer.ReflectorStore.
func (s *podSource) Delete(obj any) error {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return fmt.Errorf("kubelet: pod source: got %T", obj)
	}
	key := podKey(pod.Namespace, pod.Name)
	s.mu.Lock()
	if old, ok := s.pods[key]; ok && old.UID == pod.UID {
		delete(s.pods, key)
	}
	s.mu.Unlock()
	s.workers.delete(pod.UID)
	return nil
}

// Replace implements informer.ReflectorStore: pods missing from list were
// deleted while the watch was down.
func (s *podSource) Replace(list []runtime.Object, _ string) error {
	fresh := make(map[string]*corev1.Pod, len(list))
	for _, obj := range list {
		pod, ok := obj.(*corev1.Pod)
		if !ok {
			return fmt.Errorf("kubelet: pod source: got %T", obj)
		}
		fresh[podKey(pod.Namespace, pod.Name)] = pod
	}
	s.mu.Lock()
	var gone []string
	for key, old := range s.pods {
		if p, ok := fresh[key]; !ok || p.UID != old.UID {
			gone = append(gone, old.UID)
		}
	}
	s.pods = fresh
	first := !s.synced
	s.synced = true
	s.mu.Unlock()
	for _, uid := range gone {
		s.workers.delete(uid)
	}
	for _, pod := range fresh {
		s.workers.update(pod)
	}
	if first {
		s.onSynced()
	}
	return nil
}

// Resync implements informer.ReflectorStore; the kubelet's Reflector has
// no resync period.
func (s *podSource) Resync() error { return nil }

// get returns the API's copy of a pod.
func (s *podSource) get(ns, name string) (*corev1.Pod, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	p, ok := s.pods[podKey(ns, name)]
	return p, ok
}

// hasSynced reports whether the first list was handed over.
func (s *podSource) hasSynced() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.synced
}
