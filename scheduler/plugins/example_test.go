package plugins_test

import (
	"context"
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/config"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
	"github.com/minicp/minicp/scheduler/plugins"
)

// Build the default scheduler from the in-tree plugins and place a pod.
// A real scheduler would load its profiles with config.Load and keep one
// NodeInfo per node in its cache.
func ExampleNewInTreeRegistry() {
	f, err := framework.New(framework.Options{
		Profile:  config.Default().Profiles[0],
		Registry: plugins.NewInTreeRegistry(),
	})
	if err != nil {
		panic(err)
	}
	capacity := map[corev1.ResourceName]string{"cpu": "4", "memory": "8Gi", "pods": "110"}
	nodes := []*framework.NodeInfo{
		framework.NewNodeInfo(st.MakeNode().Name("busy").Capacity(capacity).Obj(),
			st.MakePod().Name("other").Req(map[corev1.ResourceName]string{"cpu": "3"}).Obj()),
		framework.NewNodeInfo(st.MakeNode().Name("idle").Capacity(capacity).Obj()),
	}
	pod := st.MakePod().Name("web").Req(map[corev1.ResourceName]string{"cpu": "500m", "memory": "512Mi"}).Obj()

	res, err := f.SchedulePod(context.Background(), pod, nodes, nil)
	fmt.Println(res.SuggestedHost, err)

	big := st.MakePod().Name("big").Req(map[corev1.ResourceName]string{"cpu": "6"}).Obj()
	_, err = f.SchedulePod(context.Background(), big, nodes, nil)
	fmt.Println(err)
	// Output:
	// idle <nil>
	// 0/2 nodes are available: 2 Insufficient cpu. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.
}
