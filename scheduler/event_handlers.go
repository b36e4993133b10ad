package scheduler

import (
	"maps"
	"reflect"
	"slices"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/scheduler/framework"
	"github.com/minicp/minicp/scheduler/internal/queue"
	"github.com/minicp/minicp/scheduler/plugins/names"
)

// addAllEventHandlers registers the pod and node handlers. Each handler
// acts on the cache and the queue, then (deferred) records the object as
// handled, for Idle.
//
// Upstream: eventhandlers.go (addAllEventHandlers). Upstream splits pods
// between two filtered handlers (assigned pods to the cache, unscheduled
// ones to the queue); one handler that looks at both sides of each
// update does the same here.
func (s *Scheduler) addAllEventHandlers() error {
	if _, err := s.nodeInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: s.addNode, UpdateFunc: s.updateNode, DeleteFunc: s.deleteNode,
	}, informer.HandlerOptions{}); err != nil {
		return err
	}
	_, err := s.podInformer.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: s.addPod, UpdateFunc: s.updatePod, DeleteFunc: s.deletePod,
	}, informer.HandlerOptions{})
	return err
}

func (s *Scheduler) addNode(obj runtime.Object, _ bool) {
	defer s.nodesHandled.Handled(obj)
	node, ok := obj.(*corev1.Node)
	if !ok {
		s.logger.Warn("node handler got another type", "type", typeName(obj))
		return
	}
	s.cache.AddNode(node)
	s.queue.MoveAllToActiveOrBackoffQueue(queue.NodeAdd)
}

func (s *Scheduler) updateNode(oldObj, newObj runtime.Object) {
	defer s.nodesHandled.Handled(newObj)
	oldNode, ok1 := oldObj.(*corev1.Node)
	newNode, ok2 := newObj.(*corev1.Node)
	if !ok1 || !ok2 {
		s.logger.Warn("node handler got another type", "type", typeName(newObj))
		return
	}
	s.cache.UpdateNode(oldNode, newNode)
	// Heartbeats update nodes every few seconds; only a change of what the
	// filters read can make a rejected pod fit.
	if action := nodeSchedulingPropertiesChange(newNode, oldNode); action != 0 {
		s.queue.MoveAllToActiveOrBackoffQueue(queue.ClusterEvent{Resource: queue.Node, ActionType: action, Label: "NodeUpdate"})
	}
}

// deleteNode removes the node from the cache. A node going away cannot
// make a pod fit, so nothing moves.
func (s *Scheduler) deleteNode(obj any) {
	key, _ := informer.MetaNamespaceKeyFunc(obj)
	if node, ok := unwrapTombstone(obj).(*corev1.Node); ok {
		if err := s.cache.RemoveNode(node); err != nil {
			s.logger.Debug("node not removed from the cache", "node", node.Name, "err", err)
		}
	}
	s.nodesHandled.Deleted(key)
}

func (s *Scheduler) addPod(obj runtime.Object, _ bool) {
	defer s.podsHandled.Handled(obj)
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		s.logger.Warn("pod handler got another type", "type", typeName(obj))
		return
	}
	switch {
	case countsOnNode(pod):
		if err := s.cache.AddPod(pod); err != nil {
			s.logger.Debug("pod not added to the cache", "namespace", pod.Namespace, "pod", pod.Name, "err", err)
		}
	case s.needsScheduling(pod):
		s.queue.Add(pod)
	}
}

func (s *Scheduler) updatePod(oldObj, newObj runtime.Object) {
	defer s.podsHandled.Handled(newObj)
	oldPod, ok1 := oldObj.(*corev1.Pod)
	newPod, ok2 := newObj.(*corev1.Pod)
	if !ok1 || !ok2 {
		s.logger.Warn("pod handler got another type", "type", typeName(newObj))
		return
	}
	// A resync or relist delivers the same state again. Queueing it would
	// schedule a pod that is in flight a second time (upstream #96071).
	if oldPod.ResourceVersion == newPod.ResourceVersion {
		return
	}
	var err error
	switch oldCounts, newCounts := countsOnNode(oldPod), countsOnNode(newPod); {
	case oldCounts && newCounts:
		err = s.cache.UpdatePod(oldPod, newPod)
	case newCounts:
		// Bound: this confirms the scheduler's assumption, or records
		// another scheduler's binding.
		err = s.cache.AddPod(newPod)
	case oldCounts:
		// Finished: its resources are free.
		if err = s.cache.RemovePod(oldPod); err == nil {
			s.queue.MoveAllToActiveOrBackoffQueue(queue.AssignedPodDelete)
		}
	}
	if err != nil {
		s.logger.Debug("pod update not applied to the cache", "namespace", newPod.Namespace, "pod", newPod.Name, "err", err)
	}
	switch {
	case s.needsScheduling(newPod):
		s.queue.Update(oldPod, newPod)
	case s.needsScheduling(oldPod):
		// Bound, being deleted, or finished: nothing left to schedule.
		s.queue.Delete(oldPod)
	}
}

func (s *Scheduler) deletePod(obj any) {
	key, _ := informer.MetaNamespaceKeyFunc(obj)
	if pod, ok := unwrapTombstone(obj).(*corev1.Pod); ok {
		// Whatever the pod's last known state: it may be bound, or assumed
		// with its binding in flight. Removing it frees its resources.
		if err := s.cache.RemovePod(pod); err == nil {
			s.queue.MoveAllToActiveOrBackoffQueue(queue.AssignedPodDelete)
		}
		s.queue.Delete(pod)
	}
	s.podsHandled.Deleted(key)
}

// needsScheduling reports whether pod is this scheduler's to place: no
// node yet, a schedulerName one of the profiles answers to, not finished
// and not being deleted.
func (s *Scheduler) needsScheduling(pod *corev1.Pod) bool {
	_, ours := s.profiles[pod.Spec.SchedulerName]
	return ours && pod.Spec.NodeName == "" && !isTerminal(pod) && pod.DeletionTimestamp == nil
}

// countsOnNode reports whether pod uses its node's resources: bound and
// not finished. Upstream gets the same by watching pods with a field
// selector that leaves out the finished ones.
func countsOnNode(pod *corev1.Pod) bool {
	return pod.Spec.NodeName != "" && !isTerminal(pod)
}

func isTerminal(pod *corev1.Pod) bool {
	return pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed
}

// unwrapTombstone returns the last known state of a deleted object.
func unwrapTombstone(obj any) any {
	if tomb, ok := obj.(informer.DeletedFinalStateUnknown); ok {
		return tomb.Obj
	}
	return obj
}

func typeName(obj any) string { return reflect.TypeOf(obj).String() }

// nodeSchedulingPropertiesChange returns which of the node's properties
// that filters read changed, as ActionType bits; 0 for an update that
// changes none of them, such as a heartbeat.
//
// Upstream: eventhandlers.go (nodeSchedulingPropertiesChange).
func nodeSchedulingPropertiesChange(newNode, oldNode *corev1.Node) queue.ActionType {
	var a queue.ActionType
	// Upstream counts cordoning as a taint change: the scheduler sees it
	// as the node.kubernetes.io/unschedulable taint.
	if newNode.Spec.Unschedulable != oldNode.Spec.Unschedulable {
		a |= queue.UpdateNodeTaint
	}
	if !slices.EqualFunc(newNode.Spec.Taints, oldNode.Spec.Taints, func(x, y corev1.Taint) bool {
		return x.Key == y.Key && x.Value == y.Value && x.Effect == y.Effect
	}) {
		a |= queue.UpdateNodeTaint
	}
	if !reflect.DeepEqual(allocatable(newNode), allocatable(oldNode)) {
		a |= queue.UpdateNodeAllocatable
	}
	if !maps.Equal(newNode.Labels, oldNode.Labels) {
		a |= queue.UpdateNodeLabel
	}
	if !maps.Equal(conditionStatuses(newNode), conditionStatuses(oldNode)) {
		a |= queue.UpdateNodeCondition
	}
	return a
}

// allocatable is what the scheduler counts as the node's room, as
// NodeInfo computes it: status.allocatable, else status.capacity.
func allocatable(node *corev1.Node) framework.Resource {
	rl := node.Status.Allocatable
	if rl == nil {
		rl = node.Status.Capacity
	}
	return framework.NewResource(rl)
}

// conditionStatuses maps each condition type to its status, leaving out
// the heartbeat and transition times that change without meaning.
func conditionStatuses(node *corev1.Node) map[corev1.NodeConditionType]corev1.ConditionStatus {
	m := make(map[corev1.NodeConditionType]corev1.ConditionStatus, len(node.Status.Conditions))
	for _, c := range node.Status.Conditions {
		m[c.Type] = c.Status
	}
	return m
}

// eventsToRegister says, per in-tree plugin, which cluster events can
// make a pod it rejected schedulable: a pod that NodeAffinity rejected
// everywhere waits for a node to be added or relabelled, not for pods to
// be deleted. A plugin not listed (a workshop's own) is woken by every
// event. NodeResourcesBalancedAllocation only scores, so it never rejects.
//
// Upstream: each plugin's EventsToRegister (EnqueueExtensions).
func eventsToRegister() map[string][]queue.ClusterEvent {
	node := func(a queue.ActionType) queue.ClusterEvent {
		return queue.ClusterEvent{Resource: queue.Node, ActionType: a}
	}
	return map[string][]queue.ClusterEvent{
		names.NodeResourcesFit: {
			{Resource: queue.AssignedPod, ActionType: queue.Delete},
			node(queue.Add | queue.UpdateNodeAllocatable),
		},
		names.NodeName:          {node(queue.Add)},
		names.NodeAffinity:      {node(queue.Add | queue.UpdateNodeLabel)},
		names.TaintToleration:   {node(queue.Add | queue.UpdateNodeTaint)},
		names.NodeUnschedulable: {node(queue.Add | queue.UpdateNodeTaint)},
		names.NodeReady:         {node(queue.Add | queue.UpdateNodeCondition)},
	}
}
