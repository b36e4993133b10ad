package cache

import (
	"fmt"
	"sync"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
)

// Cache holds a NodeInfo per node. It is safe for concurrent use: the
// informer handlers, the scheduling loop and the binding goroutines all
// call it. The pods and nodes passed in are kept, never modified.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/backend/cache (cacheImpl).
type Cache struct {
	// mu guards the fields below.
	//
	// Invariants: every pod in podStates is in exactly one NodeInfo, the
	// one of its spec.nodeName; assumedPods is a subset of podStates'
	// keys; a NodeInfo without a Node has at least one pod.
	mu          sync.Mutex
	podStates   map[string]*corev1.Pod
	assumedPods map[string]struct{}
	nodes       map[string]*framework.NodeInfo
	// generation changes on every mutation, so UpdateSnapshot can return
	// at once when nothing changed since the last one.
	generation int64
}

// New returns an empty Cache.
func New() *Cache {
	return &Cache{
		podStates:   map[string]*corev1.Pod{},
		assumedPods: map[string]struct{}{},
		nodes:       map[string]*framework.NodeInfo{},
	}
}

// podKey identifies a pod across updates: its UID, which the API server
// assigns, or namespace/name for a pod that has none (tests).
func podKey(pod *corev1.Pod) string {
	if pod.UID != "" {
		return string(pod.UID)
	}
	return pod.Namespace + "/" + pod.Name
}

// AssumePod adds pod, whose spec.nodeName the scheduler has just chosen,
// to that node before the binding is confirmed. It is an error if the
// pod is in the cache already.
func (c *Cache) AssumePod(pod *corev1.Pod) error {
	key := podKey(pod)
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.podStates[key]; ok {
		return fmt.Errorf("pod %s/%s is in the cache, so it cannot be assumed", pod.Namespace, pod.Name)
	}
	c.addPodLocked(pod)
	c.assumedPods[key] = struct{}{}
	return nil
}

// ForgetPod removes an assumed pod whose binding failed. It is an error
// if the pod is not assumed (the informer has confirmed it, or it was
// never assumed) or was assumed on another node.
func (c *Cache) ForgetPod(pod *corev1.Pod) error {
	key := podKey(pod)
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.podStates[key]
	if _, assumed := c.assumedPods[key]; !ok || !assumed {
		return fmt.Errorf("pod %s/%s is not assumed, so it cannot be forgotten", pod.Namespace, pod.Name)
	}
	if cur.Spec.NodeName != pod.Spec.NodeName {
		return fmt.Errorf("pod %s/%s was assumed on %s, not %s", pod.Namespace, pod.Name, cur.Spec.NodeName, pod.Spec.NodeName)
	}
	c.removePodLocked(cur)
	return nil
}

// IsAssumedPod reports whether pod is assumed and not yet confirmed.
func (c *Cache) IsAssumedPod(pod *corev1.Pod) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.assumedPods[podKey(pod)]
	return ok
}

// AddPod adds a pod the informer shows bound. An assumed pod is confirmed
// (and moved, should it be bound to another node than assumed). It is an
// error if the pod is already added.
func (c *Cache) AddPod(pod *corev1.Pod) error {
	key := podKey(pod)
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.podStates[key]
	_, assumed := c.assumedPods[key]
	switch {
	case ok && assumed:
		delete(c.assumedPods, key)
		// Keep the NodeInfo's generation when the pod is where it was
		// assumed: its requests cannot have changed, so the snapshot need
		// not copy the node again.
		if cur.Spec.NodeName == pod.Spec.NodeName {
			c.podStates[key] = pod
			return nil
		}
		c.removePodLocked(cur)
		c.addPodLocked(pod)
		return nil
	case ok:
		return fmt.Errorf("pod %s/%s is already in the cache", pod.Namespace, pod.Name)
	}
	c.addPodLocked(pod)
	return nil
}

// UpdatePod replaces an added pod with its new state. It is an error if
// the pod is not in the cache, or only assumed (an assumed pod is
// confirmed by AddPod first).
func (c *Cache) UpdatePod(oldPod, newPod *corev1.Pod) error {
	key := podKey(oldPod)
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.podStates[key]
	if _, assumed := c.assumedPods[key]; !ok || assumed {
		return fmt.Errorf("pod %s/%s is not added to the cache, so it cannot be updated", oldPod.Namespace, oldPod.Name)
	}
	c.removePodLocked(cur)
	c.addPodLocked(newPod)
	return nil
}

// RemovePod removes a pod (added or assumed) from its node. It is an error
// if the pod is not in the cache.
func (c *Cache) RemovePod(pod *corev1.Pod) error {
	key := podKey(pod)
	c.mu.Lock()
	defer c.mu.Unlock()
	cur, ok := c.podStates[key]
	if !ok {
		return fmt.Errorf("pod %s/%s is not in the cache, so it cannot be removed", pod.Namespace, pod.Name)
	}
	// The cached state, not pod: a delete learned by relisting may carry a
	// last state without spec.nodeName.
	c.removePodLocked(cur)
	return nil
}

func (c *Cache) addPodLocked(pod *corev1.Pod) {
	name := pod.Spec.NodeName
	n, ok := c.nodes[name]
	if !ok {
		n = framework.NewNodeInfo(nil)
		c.nodes[name] = n
	}
	n.AddPod(pod)
	c.podStates[podKey(pod)] = pod
	c.generation++
}

func (c *Cache) removePodLocked(pod *corev1.Pod) {
	key := podKey(pod)
	if n, ok := c.nodes[pod.Spec.NodeName]; ok {
		// RemovePod fails only if the pod is not there, which the
		// invariant rules out.
		_ = n.RemovePod(pod)
		if n.Node() == nil && len(n.Pods) == 0 {
			delete(c.nodes, pod.Spec.NodeName)
		}
	}
	delete(c.podStates, key)
	delete(c.assumedPods, key)
	c.generation++
}

// AddNode adds node, or replaces it if it is known.
func (c *Cache) AddNode(node *corev1.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setNodeLocked(node)
}

// UpdateNode replaces the node with newNode.
func (c *Cache) UpdateNode(_, newNode *corev1.Node) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.setNodeLocked(newNode)
}

func (c *Cache) setNodeLocked(node *corev1.Node) {
	n, ok := c.nodes[node.Name]
	if !ok {
		n = framework.NewNodeInfo(node)
		c.nodes[node.Name] = n
	} else {
		n.SetNode(node)
	}
	c.generation++
}

// RemoveNode removes node. Pods still bound to it stay in the cache, in a
// NodeInfo without a Node, until the informer removes them too: their
// requests must count again should the node come back.
func (c *Cache) RemoveNode(node *corev1.Node) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.nodes[node.Name]
	if !ok || n.Node() == nil {
		return fmt.Errorf("node %s is not in the cache, so it cannot be removed", node.Name)
	}
	if len(n.Pods) == 0 {
		delete(c.nodes, node.Name)
	} else {
		// NodeInfo cannot unset its Node: move the pods to a fresh one.
		orphans := framework.NewNodeInfo(nil)
		for _, pi := range n.Pods {
			orphans.AddPodInfo(pi)
		}
		c.nodes[node.Name] = orphans
	}
	c.generation++
	return nil
}

// HasNode reports whether the cache holds the Node called name.
func (c *Cache) HasNode(name string) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	n, ok := c.nodes[name]
	return ok && n.Node() != nil
}

// Counts reports how many nodes (with a Node), pods and assumed pods the
// cache holds.
func (c *Cache) Counts() (nodes, pods, assumed int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range c.nodes {
		if n.Node() != nil {
			nodes++
		}
	}
	return nodes, len(c.podStates), len(c.assumedPods)
}
