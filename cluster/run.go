package cluster

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/client"
)

// Run starts a cluster with opts, calls f once it is Ready with an admin
// clientset over HTTPS, and then stops the cluster. It returns f's error,
// else the cluster's. It is the whole life of a toy cluster inside a
// program:
//
//	err := cluster.Run(ctx, cluster.Options{Nodes: 3}, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
//		_, err := cs.Pods("default").Create(ctx, pod, client.WriteOptions{})
//		return err
//	})
func Run(ctx context.Context, opts Options, f func(ctx context.Context, c *Cluster, cs *client.Clientset) error) error {
	c, err := New(opts)
	if err != nil {
		return err
	}
	clusterCtx, stop := context.WithCancel(ctx)
	defer stop()
	done := make(chan error, 1)
	go func() { done <- c.Start(clusterCtx) }()
	select {
	case <-c.Ready():
	case err := <-done:
		return err
	}
	ferr := c.runWithClient(ctx, f)
	stop()
	if err := <-done; err != nil && ferr == nil && !errors.Is(err, context.Canceled) {
		return err
	}
	return ferr
}

// runWithClient calls f with an admin clientset of the running c.
func (c *Cluster) runWithClient(ctx context.Context, f func(ctx context.Context, c *Cluster, cs *client.Clientset) error) error {
	cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token(), Clock: c.opts.Clock})
	if err != nil {
		return fmt.Errorf("cluster: client: %w", err)
	}
	defer cl.CloseIdleConnections()
	cs, err := client.NewClientset(cl)
	if err != nil {
		return fmt.Errorf("cluster: client: %w", err)
	}
	return f(ctx, c, cs)
}
