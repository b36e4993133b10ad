package simulated_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/kubelet/cri"
	"github.com/minicp/minicp/kubelet/cri/simulated"
)

// A programmable image: Go code that a pod naming the image runs, served
// at the pod's IP like any image's server.
func ExampleProgram() {
	hello := func(ctx context.Context, c *simulated.ContainerContext) (http.Handler, error) {
		c.Logger.Info("listening", "ports", fmt.Sprint(c.Ports))
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "hello from %s/%s\n", c.PodNamespace, c.PodName)
		}), nil
	}
	clk := clocktest.NewFake(time.Date(2024, 5, 6, 7, 0, 0, 0, time.UTC))
	rt, err := simulated.New(simulated.Options{Clock: clk, Programs: map[string]simulated.Program{"example.com/hello:v1": hello}})
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

	_, _ = rt.PullImage(ctx, "example.com/hello:v1")
	sandbox, _ := rt.RunPodSandbox(ctx, cri.PodSandboxConfig{
		Metadata: cri.PodSandboxMetadata{Name: "hello", Namespace: "default", UID: "1234"},
	})
	id, _ := rt.CreateContainer(ctx, sandbox, cri.ContainerConfig{Metadata: cri.ContainerMetadata{Name: "main"}, Image: "example.com/hello:v1"})
	_ = rt.StartContainer(ctx, id)

	// Without a cluster network, the runtime's DialContext reaches pod
	// IPs (kube-proxy and probes use it).
	sbStatus, _ := rt.PodSandboxStatus(ctx, sandbox)
	tr := &http.Transport{DialContext: rt.DialContext}
	defer tr.CloseIdleConnections()
	resp, err := (&http.Client{Transport: tr}).Get("http://" + sbStatus.Network.IP + ":8080/")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	fmt.Print(string(body))

	logs, _ := rt.ContainerLogs(ctx, id, cri.LogOptions{})
	defer logs.Close()
	text, _ := io.ReadAll(logs)
	fmt.Print(string(text))
	// Output:
	// hello from default/hello
	// level=INFO msg=listening ports=[8080]
}
