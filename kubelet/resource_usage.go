package kubelet

import (
	"hash/fnv"
	"strconv"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
)

// The simulated containers do no work, so their usage is made up, from
// what the pod asked for: believable (a container uses part of its
// request, a busy one up to its limit, one that asked for nothing very
// little), and deterministic, a function of the pod's and container's
// names and of the clock alone, so that a test on a fake clock sees the
// same figures every run and a figure holds still for a whole window.
//
// Upstream measures it: cAdvisor reads the container's cgroup.

// The usage of a container whose resources say nothing: a shell that
// sleeps, as most simulated containers do.
const (
	idleCPUMilli   = 1
	idleMemoryKiB  = 1536
	idleMemoryBand = 512
)

// The node's own share (kubelet, runtime, system daemons), on top of its
// pods: a small, steady overhead, as a real node reports.
const (
	systemCPUMilli  = 60
	systemMemoryMiB = 384
)

// memoryWarmUp is how long a container's working set takes to grow from
// half its request to its steady share: caches fill, heaps grow.
const memoryWarmUp = time.Minute

// usage is one measurement: CPU in millicores, memory in bytes.
type usage struct {
	cpuMilli    int64
	memoryBytes int64
}

func (u *usage) add(o usage) {
	u.cpuMilli += o.cpuMilli
	u.memoryBytes += o.memoryBytes
}

// sample returns, in [0, 1), the noise of the measurement of key in the
// window that starts at windowStart: the same for the same key and
// window, unrelated between windows and keys.
func sample(key string, windowStart time.Time) float64 {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	_, _ = h.Write([]byte(strconv.FormatInt(windowStart.Unix(), 10)))
	// FNV's high bits hardly change with the last bytes written (the
	// window), so mix them through splitmix64's finalizer first.
	x := h.Sum64()
	x = (x ^ x>>30) * 0xbf58476d1ce4e5b9
	x = (x ^ x>>27) * 0x94d049bb133111eb
	x ^= x >> 31
	// 53 bits: what a float64 holds exactly.
	return float64(x>>11) / (1 << 53)
}

// containerUsage is the usage of container c of pod ns/pod, started at
// started, in the window that ends at windowEnd.
//
// CPU: 30% to 80% of the request (or of half the limit without one),
// never above the limit. Memory: half the request at start, warming up to
// 65% to 70% of it over memoryWarmUp, never above the limit; KiB-aligned,
// as a kernel counts pages. A container that asked for neither uses about
// a millicore and a couple of MiB.
func containerUsage(ns, pod string, c *corev1.Container, started, windowEnd time.Time) usage {
	key := ns + "/" + pod + "/" + c.Name
	windowStart := windowEnd.Add(-statsv1alpha1.Window)
	cpuNoise, memNoise := sample(key+"/cpu", windowStart), sample(key+"/memory", windowStart)

	cpuTarget := target(c.Resources, corev1.ResourceCPU, func(q int64) int64 { return q })
	cpu := int64(idleCPUMilli)
	if cpuTarget > 0 {
		cpu = max(1, int64(float64(cpuTarget)*(0.3+0.5*cpuNoise)))
	}
	if lim, ok := c.Resources.Limits[corev1.ResourceCPU]; ok && lim.MilliValue() > 0 {
		cpu = min(cpu, lim.MilliValue())
	}

	memTarget := target(c.Resources, corev1.ResourceMemory, func(q int64) int64 { return q / 1000 })
	var mem int64
	if memTarget > 0 {
		warm := min(1, float64(windowEnd.Sub(started))/float64(memoryWarmUp))
		mem = int64(float64(memTarget) * (0.5 + 0.15*max(0, warm) + 0.05*memNoise))
	} else {
		mem = (idleMemoryKiB + int64(idleMemoryBand*memNoise)) << 10
	}
	if lim, ok := c.Resources.Limits[corev1.ResourceMemory]; ok && lim.Value() > 0 {
		mem = min(mem, lim.Value())
	}
	return usage{cpuMilli: cpu, memoryBytes: mem &^ 1023}
}

// target is what a container's usage of name is a share of, in the unit
// unit converts milli-units to: the request, else half the limit, else 0.
func target(r corev1.ResourceRequirements, name corev1.ResourceName, unit func(milli int64) int64) int64 {
	if q, ok := r.Requests[name]; ok && q.MilliValue() > 0 {
		return unit(q.MilliValue())
	}
	if q, ok := r.Limits[name]; ok && q.MilliValue() > 0 {
		return unit(q.MilliValue()) / 2
	}
	return 0
}

// systemUsage is the node's own share in the window that ends at
// windowEnd, within a few percent of the constants above.
func systemUsage(nodeName string, windowEnd time.Time) usage {
	windowStart := windowEnd.Add(-statsv1alpha1.Window)
	cpu := systemCPUMilli * (0.9 + 0.2*sample(nodeName+"/cpu", windowStart))
	mem := float64(systemMemoryMiB<<20) * (0.98 + 0.04*sample(nodeName+"/memory", windowStart))
	return usage{cpuMilli: int64(cpu), memoryBytes: int64(mem) &^ 1023}
}
