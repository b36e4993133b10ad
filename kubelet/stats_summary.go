package kubelet

import (
	"encoding/json"
	"net/http"
	"sort"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
)

// serveStatsSummary serves GET /stats/summary, the resource usage of the
// node and of every pod with a running container, which the API server's
// metrics.k8s.io resources read (see resource_usage.go for where the
// figures come from). Measurements are for the sample window the clock is
// in: Time is the end of the last whole window, so that every request in
// one window answers the same.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/server/stats (summary handler);
// metrics-server scrapes /metrics/resource, the same figures as
// Prometheus text.
func (k *Kubelet) serveStatsSummary(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(k.summary(k.clock.Now()))
}

// summary measures the node and its running pods in the window that ends
// at the last multiple of the window before now.
func (k *Kubelet) summary(now time.Time) *statsv1alpha1.Summary {
	end := now.Truncate(statsv1alpha1.Window)
	at := metav1.NewTime(end)
	node := systemUsage(k.nodeName, end)
	s := &statsv1alpha1.Summary{Pods: []statsv1alpha1.PodStats{}}
	for _, pod := range k.source.list() {
		if latest, ok := k.workers.latest(pod.UID); ok {
			pod = latest
		}
		ps, total, ok := podStats(pod, end)
		if !ok {
			continue
		}
		node.add(total)
		s.Pods = append(s.Pods, ps)
	}
	sort.Slice(s.Pods, func(i, j int) bool {
		a, b := s.Pods[i].PodRef, s.Pods[j].PodRef
		return a.Namespace < b.Namespace || a.Namespace == b.Namespace && a.Name < b.Name
	})
	s.Node = statsv1alpha1.NodeStats{
		NodeName: k.nodeName, CPU: cpuStats(at, node), Memory: memoryStats(at, node),
	}
	return s
}

// podStats measures pod's running containers: false when none runs.
func podStats(pod *corev1.Pod, end time.Time) (statsv1alpha1.PodStats, usage, bool) {
	at := metav1.NewTime(end)
	ps := statsv1alpha1.PodStats{
		PodRef: statsv1alpha1.PodReference{Name: pod.Name, Namespace: pod.Namespace, UID: pod.UID},
	}
	if pod.Status.StartTime != nil {
		ps.StartTime = *pod.Status.StartTime
	}
	var total usage
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		// A container that started during the current window is
		// measured too, as if at the window's end, so that `kubectl top`
		// shows a pod as soon as it runs rather than a window later.
		started, ok := runningSince(pod, c.Name)
		if !ok {
			continue
		}
		u := containerUsage(pod.Namespace, pod.Name, c, started, end)
		total.add(u)
		ps.Containers = append(ps.Containers, statsv1alpha1.ContainerStats{
			Name: c.Name, StartTime: metav1.NewTime(started), CPU: cpuStats(at, u), Memory: memoryStats(at, u),
		})
	}
	if len(ps.Containers) == 0 {
		return ps, usage{}, false
	}
	ps.CPU, ps.Memory = cpuStats(at, total), memoryStats(at, total)
	return ps, total, true
}

// runningSince reports when the named container's current run started,
// false when it is not running.
func runningSince(pod *corev1.Pod, name string) (time.Time, bool) {
	for _, cs := range pod.Status.ContainerStatuses {
		if cs.Name == name && cs.State.Running != nil {
			return cs.State.Running.StartedAt.Time, true
		}
	}
	return time.Time{}, false
}

func cpuStats(at metav1.Time, u usage) *statsv1alpha1.CPUStats {
	nano := uint64(u.cpuMilli) * 1e6
	return &statsv1alpha1.CPUStats{Time: at, UsageNanoCores: &nano}
}

func memoryStats(at metav1.Time, u usage) *statsv1alpha1.MemoryStats {
	ws := uint64(u.memoryBytes)
	return &statsv1alpha1.MemoryStats{Time: at, WorkingSetBytes: &ws}
}

// list returns the API's copy of every pod bound to the node. The pods
// are shared: callers must not modify them.
func (s *podSource) list() []*corev1.Pod {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*corev1.Pod, 0, len(s.pods))
	for _, p := range s.pods {
		out = append(out, p)
	}
	return out
}
