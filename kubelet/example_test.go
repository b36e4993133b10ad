package kubelet_test

import (
	"context"
	"fmt"
	"io"
	"net/netip"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/kubelet"
)

// A simulated node in a cluster: the kubelet registers its node, runs a
// pod bound to it, and reports how the pod's container ended. Time is a
// fake clock, stepped by hand.
func ExampleNew() {
	c, err := cluster.New(cluster.Options{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	clusterDone := make(chan error, 1)
	go func() { clusterDone <- c.Start(ctx) }()
	<-c.Ready()
	cl, err := client.New(client.Config{
		Host: "http://in-memory", Transport: client.NewInMemoryTransport(c.APIServer().Handler()), BearerToken: c.Token(),
	})
	if err != nil {
		panic(err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		panic(err)
	}

	clk := clocktest.NewFake(time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC))
	kl, err := kubelet.New(kubelet.Options{
		NodeName: "node-1", Clientset: cs, PodCIDR: netip.MustParsePrefix("10.244.1.0/24"), Clock: clk,
	})
	if err != nil {
		panic(err)
	}
	kubeletCtx, stopKubelet := context.WithCancel(ctx)
	kubeletDone := make(chan error, 1)
	go func() { kubeletDone <- kl.Start(kubeletCtx) }()
	<-kl.Ready()
	node, _ := cs.Nodes().Get(ctx, "node-1", client.GetOptions{})
	fmt.Println(node.Name, node.Spec.PodCIDR, node.Status.Conditions[3].Type, node.Status.Conditions[3].Status)

	// A pod with its node set skips the scheduler.
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hello"},
		Spec: corev1.PodSpec{
			NodeName:      "node-1",
			RestartPolicy: corev1.RestartPolicyNever,
			Containers:    []corev1.Container{{Name: "main", Image: "busybox", Command: []string{"sh", "-c", "echo hello; sleep 5; exit 3"}}},
		},
	}
	if _, err := cs.Pods("default").Create(ctx, pod, client.WriteOptions{}); err != nil {
		panic(err)
	}
	p := waitForPhase(ctx, cs, "hello", corev1.PodRunning)
	fmt.Println(p.Name, p.Status.Phase, p.Status.PodIP)

	clk.Step(5 * time.Second)
	p = waitForPhase(ctx, cs, "hello", corev1.PodFailed)
	term := p.Status.ContainerStatuses[0].State.Terminated
	fmt.Println(p.Name, p.Status.Phase, term.ExitCode, term.Reason, term.FinishedAt.Sub(term.StartedAt.Time))

	logs, err := cs.Pods("default").Stream(ctx, "hello", "log", nil)
	if err != nil {
		panic(err)
	}
	text, _ := io.ReadAll(logs)
	logs.Close()
	fmt.Print(string(text))

	stopKubelet()
	fmt.Println(<-kubeletDone)
	cancel()
	<-clusterDone
	// Output:
	// node-1 10.244.1.0/24 Ready True
	// hello Running 10.244.1.2
	// hello Failed 3 Error 5s
	// hello
	// <nil>
}

// waitForPhase watches the pod until it is in phase.
func waitForPhase(ctx context.Context, cs *client.Clientset, name string, phase corev1.PodPhase) *corev1.Pod {
	ctx, cancel := context.WithTimeout(ctx, clustertest.WaitTimeout)
	defer cancel()
	w, err := cs.Pods("default").Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name})
	if err != nil {
		panic(err)
	}
	defer w.Stop()
	for ev := range w.ResultChan() {
		if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == phase {
			return p
		}
	}
	panic("pod " + name + " never reached " + string(phase))
}
