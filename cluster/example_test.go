package cluster_test

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/client"
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

// The whole life of a toy cluster in one call: Run starts it, hands over
// an admin clientset once it is ready, and stops it when the function
// returns.
func ExampleRun() {
	err := cluster.Run(context.Background(), cluster.Options{Controllers: []string{}}, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		ns, err := cs.Namespaces().Get(ctx, "kube-system", client.GetOptions{})
		if err != nil {
			return err
		}
		fmt.Println(ns.Name, ns.Status.Phase)
		return nil
	})
	fmt.Println(err)
	// Output:
	// kube-system Active
	// <nil>
}
