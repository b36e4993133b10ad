package cluster_test

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/cluster"
)

// A toy cluster embedded in a program: an embedded etcd and an API server
// on a free loopback port, stopped by cancelling the context.
func ExampleCluster() {
	c, err := cluster.New(cluster.Options{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	<-c.Ready()

	resp, err := c.HTTPClient().Get(c.URL() + "/api/v1/namespaces/default")
	if err != nil {
		panic(err)
	}
	resp.Body.Close()
	fmt.Println(resp.Status)

	cancel()
	fmt.Println(<-done)
	// Output:
	// 200 OK
	// <nil>
}
