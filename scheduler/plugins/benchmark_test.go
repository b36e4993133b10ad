package plugins_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins"
)

// benchNodes returns n nodes of 8 cpus and 32Gi in three zones, each
// running 10 pods; one node in ten has a NoSchedule taint and one in ten a
// PreferNoSchedule one.
func benchNodes(n int) []*framework.NodeInfo {
	out := make([]*framework.NodeInfo, n)
	for i := range out {
		w := st.MakeNode().Name(fmt.Sprintf("node-%04d", i)).
			Capacity(rl{"cpu": "8", "memory": "32Gi", "ephemeral-storage": "100Gi", "pods": "110"}).
			Label(corev1.LabelTopologyZone, fmt.Sprintf("zone-%d", i%3))
		switch i % 10 {
		case 3:
			w.Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule)
		case 7:
			w.Taint("spot", "true", corev1.TaintEffectPreferNoSchedule)
		}
		var pods []*corev1.Pod
		for j := range 10 {
			pods = append(pods, st.MakePod().Name(fmt.Sprintf("p-%d-%d", i, j)).UID(fmt.Sprintf("u-%d-%d", i, j)).
				Req(rl{"cpu": fmt.Sprintf("%dm", 100+10*((i+j)%20)), "memory": "256Mi"}).Obj())
		}
		out[i] = framework.NewNodeInfo(w.Obj(), pods...)
	}
	return out
}

// BenchmarkSchedulePod is one scheduling cycle of the default profile
// (Filter every node, Score the feasible ones, SelectHost) for a pod with
// requests, a node selector, a toleration and a preferred zone.
//
//	go test -run='^$' -bench=SchedulePod -benchmem ./scheduler/plugins/
func BenchmarkSchedulePod(b *testing.B) {
	pod := st.MakePod().Name("web").Req(rl{"cpu": "250m", "memory": "512Mi"}).
		NodeSelector(map[string]string{corev1.LabelOSStable: "linux"}).
		Toleration("spot", corev1.TolerationOpExists, "", corev1.TaintEffectNoSchedule).
		PreferredNodeAffinity(10, st.Term(st.In(corev1.LabelTopologyZone, "zone-1"))).Obj()
	for _, n := range []int{100, 1000} {
		nodes := benchNodes(n)
		for _, ni := range nodes {
			ni.Node().Labels[corev1.LabelOSStable] = "linux"
		}
		for _, parallelism := range []int{1, config.DefaultParallelism} {
			b.Run(fmt.Sprintf("nodes=%d/parallelism=%d", n, parallelism), func(b *testing.B) {
				f, err := framework.New(framework.Options{
					Profile:     config.Default().Profiles[0],
					Registry:    plugins.NewInTreeRegistry(),
					Parallelism: parallelism,
				})
				if err != nil {
					b.Fatal(err)
				}
				r := rand.New(rand.NewPCG(1, 2))
				b.ReportAllocs()
				for b.Loop() {
					res, err := f.SchedulePod(b.Context(), pod, nodes, r)
					if err != nil {
						b.Fatal(err)
					}
					if res.FeasibleNodes != n*9/10 {
						b.Fatalf("feasible %d of %d", res.FeasibleNodes, n)
					}
				}
			})
		}
	}
}
