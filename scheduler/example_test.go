package scheduler_test

import (
	"context"
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/scheduler"
)

// A scheduler next to a toy cluster: it binds a pod to the only node that
// fits it, and records why it could not place another.
func ExampleScheduler() {
	c, err := cluster.New(cluster.Options{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	clusterDone := make(chan error, 1)
	go func() { clusterDone <- c.Start(ctx) }()
	<-c.Ready()
	// In one process with the API server, components reach it in memory:
	// no TCP, but the whole handler chain.
	cl, err := client.New(client.Config{Host: "http://in-memory",
		Transport: client.NewInMemoryTransport(c.APIServer().Handler()), BearerToken: c.Token()})
	if err != nil {
		panic(err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		panic(err)
	}

	// Kubelets would register nodes; here the program does.
	capacity := corev1.ResourceList{"cpu": resource.MustParse("2"), "memory": resource.MustParse("4Gi"), "pods": resource.MustParse("110")}
	for _, name := range []string{"small", "tainted"} {
		node := &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity,
				Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}},
		}
		if name == "tainted" {
			node.Spec.Taints = []corev1.Taint{{Key: "dedicated", Value: "gpu", Effect: corev1.TaintEffectNoSchedule}}
		}
		if _, err := cs.Nodes().Create(ctx, node, client.WriteOptions{}); err != nil {
			panic(err)
		}
	}

	s, err := scheduler.New(scheduler.Options{Clientset: cs})
	if err != nil {
		panic(err)
	}
	schedCtx, stopScheduler := context.WithCancel(ctx)
	schedulerDone := make(chan error, 1)
	go func() { schedulerDone <- s.Start(schedCtx) }()
	<-s.Ready()

	for name, cpu := range map[string]string{"web": "500m", "huge": "16"} {
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{"cpu": resource.MustParse(cpu)}}}}},
		}
		if _, err := cs.Pods("default").Create(ctx, pod, client.WriteOptions{}); err != nil {
			panic(err)
		}
	}
	// Wait until the two pods have been tried: web bound, huge rejected.
	w, err := cs.Pods("default").Watch(ctx, client.ListOptions{ResourceVersion: "0"})
	if err != nil {
		panic(err)
	}
	seen := map[string]*corev1.Pod{}
	for ev := range w.ResultChan() {
		if p, ok := ev.Object.(*corev1.Pod); ok {
			seen[p.Name] = p
		}
		if web, huge := seen["web"], seen["huge"]; web != nil && huge != nil &&
			web.Spec.NodeName != "" && len(huge.Status.Conditions) > 0 {
			break
		}
	}
	w.Stop()
	fmt.Println("web is on", seen["web"].Spec.NodeName)
	cond := seen["huge"].Status.Conditions[0]
	fmt.Println("huge:", cond.Type, cond.Status, cond.Reason)
	fmt.Println(cond.Message)

	// Stop in reverse order: the scheduler, then the cluster it talks to.
	stopScheduler()
	fmt.Println(<-schedulerDone)
	cancel()
	fmt.Println(<-clusterDone)
	// Output:
	// web is on small
	// huge: PodScheduled False Unschedulable
	// 0/2 nodes are available: 1 Insufficient cpu, 1 node(s) had untolerated taint {dedicated: gpu}. preemption: 0/2 nodes are available: 2 Preemption is not helpful for scheduling.
	// <nil>
	// <nil>
}
