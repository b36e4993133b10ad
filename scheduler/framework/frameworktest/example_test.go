package frameworktest_test

import (
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
)

func ExampleMakePod() {
	pod := st.MakePod().Name("web").
		Req(map[corev1.ResourceName]string{"cpu": "500m", "memory": "1Gi"}).
		Toleration("dedicated", corev1.TolerationOpEqual, "gpu", corev1.TaintEffectNoSchedule).
		Obj()
	node := st.MakeNode().Name("n1").
		Capacity(map[corev1.ResourceName]string{"cpu": "4", "memory": "8Gi", "pods": "110"}).
		Taint("dedicated", "gpu", corev1.TaintEffectNoSchedule).
		Obj()
	req := pod.Spec.Containers[0].Resources.Requests
	fmt.Println(pod.Name, req.Cpu(), req.Memory())
	fmt.Println(node.Name, node.Labels[corev1.LabelHostname], node.Status.Allocatable.Cpu(), node.Status.Conditions[0].Status)
	// Output:
	// web 500m 1Gi
	// n1 n1 4 True
}
