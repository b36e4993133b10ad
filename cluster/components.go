package cluster

import (
	"context"
	"fmt"
	"net/netip"
	"sync"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/kubelet"
	"github.com/minicp/minicp/scheduler"
)

// components are what runs against the API server: the scheduler and the
// simulated kubelets. Like the real ones they see the cluster only
// through the API, here over the in-memory transport (the whole handler
// chain still runs).
type components struct {
	scheduler *scheduler.Scheduler
	kubelets  []*kubelet.Kubelet
}

// maxNodes is how many nodes fit the pod CIDR scheme: node i gets
// 10.244.i.0/24, as kubeadm's default 10.244.0.0/16 cluster CIDR does.
const maxNodes = 256

// newComponents builds the scheduler and opts.Nodes kubelets over server.
func (c *Cluster) newComponents(server *apiserver.Server) (*components, error) {
	if c.opts.Nodes > maxNodes {
		return nil, fmt.Errorf("cluster: at most %d nodes, got %d", maxNodes, c.opts.Nodes)
	}
	cl, err := client.New(client.Config{
		Host: "http://in-memory", Transport: client.NewInMemoryTransport(server.Handler()),
		BearerToken: c.token, Clock: c.opts.Clock,
	})
	if err != nil {
		return nil, fmt.Errorf("cluster: client: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, fmt.Errorf("cluster: client: %w", err)
	}
	comps := &components{}
	if comps.scheduler, err = scheduler.New(scheduler.Options{Clientset: cs, Config: c.opts.SchedulerConfig, Clock: c.opts.Clock, Logger: c.log}); err != nil {
		return nil, fmt.Errorf("cluster: scheduler: %w", err)
	}
	for i := range c.opts.Nodes {
		k, err := kubelet.New(kubelet.Options{
			NodeName:  NodeName(i),
			Clientset: cs,
			PodCIDR:   netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 244, byte(i), 0}), 24),
			Clock:     c.opts.Clock,
			Logger:    c.log,
		})
		if err != nil {
			return nil, fmt.Errorf("cluster: kubelet %d: %w", i, err)
		}
		comps.kubelets = append(comps.kubelets, k)
	}
	return comps, nil
}

// NodeName is the name of the cluster's i-th node (from 0).
func NodeName(i int) string { return fmt.Sprintf("minicp-node-%d", i+1) }

// start runs every component until ctx is done; wg waits for them.
func (comps *components) start(ctx context.Context, wg *sync.WaitGroup, c *Cluster) {
	wg.Go(func() {
		if err := comps.scheduler.Start(ctx); err != nil && ctx.Err() == nil {
			c.log.Error("scheduler stopped", "err", err)
		}
	})
	for _, k := range comps.kubelets {
		wg.Go(func() {
			if err := k.Start(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("kubelet stopped", "node", k.NodeName(), "err", err)
			}
		})
	}
}

// waitIdle blocks until the scheduler and every kubelet are idle.
func (comps *components) waitIdle(ctx context.Context) error {
	if err := comps.scheduler.WaitIdle(ctx); err != nil {
		return err
	}
	for _, k := range comps.kubelets {
		if err := k.WaitIdle(ctx); err != nil {
			return err
		}
	}
	return nil
}

// waitReady blocks until the scheduler has synced and every kubelet has
// registered its node, so a cluster that says it is ready can run pods.
func (comps *components) waitReady(ctx context.Context) error {
	chans := []<-chan struct{}{comps.scheduler.Ready()}
	for _, k := range comps.kubelets {
		chans = append(chans, k.Ready())
	}
	for _, ch := range chans {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
