package simulated_test

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// A pod's life as the kubelet drives it: pull, sandbox, container, time
// passing, status and logs.
func ExampleRuntime() {
	clk := clocktest.NewFake(time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC))
	rt, err := simulated.New(simulated.Options{Clock: clk})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- rt.Start(ctx) }()
	defer func() {
		cancel()
		<-done
	}()

	_, _ = rt.PullImage(ctx, "busybox")
	sandbox, _ := rt.RunPodSandbox(ctx, cri.PodSandboxConfig{
		Metadata: cri.PodSandboxMetadata{Name: "hello", Namespace: "default", UID: "1234"},
	})
	sbStatus, _ := rt.PodSandboxStatus(ctx, sandbox)
	fmt.Println("pod IP:", sbStatus.Network.IP)

	id, _ := rt.CreateContainer(ctx, sandbox, cri.ContainerConfig{
		Metadata: cri.ContainerMetadata{Name: "main"},
		Image:    "busybox",
		Command:  []string{"sh", "-c", "echo hi from $HOSTNAME; sleep 2; exit 3"},
	})
	_ = rt.StartContainer(ctx, id)

	clk.Step(2 * time.Second)
	st, _ := rt.ContainerStatus(ctx, id)
	fmt.Println(st.State, st.ExitCode, st.Reason, st.FinishedAt.Sub(st.StartedAt))

	logs, _ := rt.ContainerLogs(ctx, id, cri.LogOptions{Timestamps: true})
	defer logs.Close()
	text, _ := io.ReadAll(logs)
	fmt.Print(string(text))
	// Output:
	// pod IP: 10.88.0.2
	// CONTAINER_EXITED 3 Error 2s
	// 2024-05-06T07:00:00.000000000Z hi from hello
}
