package cluster

import (
	"context"
	"fmt"
	"net/netip"
	"sync"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllermanager"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/kubelet"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/scheduler"
	"github.com/minicp/minicp/wait"
)

// components are what runs against the API server: the controller-manager,
// the scheduler and the simulated kubelets. Like the real ones they see
// the cluster only through the API, here over the in-memory transport (the
// whole handler chain still runs). Each is nil (or empty) when not run.
type components struct {
	controllerManager *manager.Manager
	scheduler         *scheduler.Scheduler
	kubelets          []*kubelet.Kubelet
	network           *serviceNetwork
}

// maxNodes is how many nodes fit the pod CIDR scheme: node i gets
// 10.244.i.0/24, as kubeadm's default 10.244.0.0/16 cluster CIDR does.
const maxNodes = 256

// newComponents builds the controller-manager with the controllers
// opts.Controllers enables and, with opts.Nodes > 0, the scheduler and the
// kubelets, over server.
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
	controllers, err := controllermanager.Resolve(c.opts.Controllers)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if len(controllers) > 0 {
		mgr, err := manager.New(manager.Options{Client: cl, Clock: c.opts.Clock, Logger: c.log, MetricsRegistry: c.opts.MetricsRegistry,
			Tracing: c.opts.Tracing, Name: "controller-manager"})
		if err != nil {
			return nil, fmt.Errorf("cluster: controller-manager: %w", err)
		}
		if err := controllermanager.Add(mgr, controllers, controllermanager.Config{RootCA: c.CACertificate()}); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
		comps.controllerManager = mgr
	}
	var clusterNet *containerNetwork
	if !c.opts.DisableServiceNetwork {
		if comps.network, err = c.newServiceNetwork(cs); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
		clusterNet = &containerNetwork{dns: comps.network.dns}
	}
	if c.opts.Nodes == 0 {
		return comps, nil
	}
	if comps.scheduler, err = scheduler.New(scheduler.Options{Clientset: cs, Config: c.opts.SchedulerConfig, Clock: c.opts.Clock,
		Logger: c.log, MetricsRegistry: c.opts.MetricsRegistry, Tracing: c.opts.Tracing}); err != nil {
		return nil, fmt.Errorf("cluster: scheduler: %w", err)
	}
	for i := range c.opts.Nodes {
		k, err := kubelet.New(kubelet.Options{
			NodeName:  NodeName(i),
			Clientset: cs,
			PodCIDR:   netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 244, byte(i), 0}), 24),
			// A nil *containerNetwork must stay a nil interface.
			ClusterNetwork: clusterNetworkOrNil(clusterNet),
			Clock:          c.opts.Clock,
			Logger:         c.log,
			Tracing:        c.opts.Tracing,
		})
		if err != nil {
			return nil, fmt.Errorf("cluster: kubelet %d: %w", i, err)
		}
		comps.kubelets = append(comps.kubelets, k)
	}
	return comps, nil
}

func clusterNetworkOrNil(n *containerNetwork) simulated.ClusterNetwork {
	if n == nil {
		return nil
	}
	return n
}

// NodeName is the name of the cluster's i-th node (from 0).
func NodeName(i int) string { return fmt.Sprintf("minicp-node-%d", i+1) }

// start runs every component until ctx is done; wg waits for them.
func (comps *components) start(ctx context.Context, wg *sync.WaitGroup, c *Cluster) {
	if n := comps.network; n != nil {
		// DNS first: the proxy leaves the kube-dns Service to it.
		wg.Go(func() {
			if err := n.dns.Start(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("dns stopped", "err", err)
			}
		})
		wg.Go(func() {
			if err := n.proxy.Start(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("kube-proxy stopped", "err", err)
			}
		})
	}
	if comps.controllerManager != nil {
		wg.Go(func() {
			if err := comps.controllerManager.Start(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("controller-manager stopped", "err", err)
			}
		})
	}
	if comps.scheduler != nil {
		wg.Go(func() {
			if err := comps.scheduler.Start(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("scheduler stopped", "err", err)
			}
		})
	}
	for _, k := range comps.kubelets {
		wg.Go(func() {
			if err := k.Start(ctx); err != nil && ctx.Err() == nil {
				c.log.Error("kubelet stopped", "node", k.NodeName(), "err", err)
			}
		})
	}
}

// waitIdle blocks until the controller-manager, the scheduler and every
// kubelet are idle at once: one component's work can give another more,
// so wait.WaitIdle goes round until a whole round finds nothing to wait
// for.
func (comps *components) waitIdle(ctx context.Context) error {
	var idlers []wait.Idler
	if comps.controllerManager != nil {
		idlers = append(idlers, comps.controllerManager)
	}
	if comps.scheduler != nil {
		idlers = append(idlers, comps.scheduler)
	}
	for _, k := range comps.kubelets {
		idlers = append(idlers, k)
	}
	return wait.WaitIdle(ctx, idlers...)
}

// waitReady blocks until the controller-manager leads, the scheduler has
// synced, every kubelet has registered its node and the scheduler has
// seen every node, so a cluster that says it is ready can run pods: a
// pod created before the scheduler knew a node would back off, and on a
// fake clock its backoff never ends.
func (comps *components) waitReady(ctx context.Context) error {
	var chans []<-chan struct{}
	if comps.controllerManager != nil {
		chans = append(chans, comps.controllerManager.Elected())
	}
	if comps.scheduler != nil {
		chans = append(chans, comps.scheduler.Ready())
	}
	for _, k := range comps.kubelets {
		chans = append(chans, k.Ready())
	}
	if n := comps.network; n != nil {
		chans = append(chans, n.dns.Ready(), n.proxy.Ready())
	}
	for _, ch := range chans {
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	if comps.scheduler == nil {
		return nil
	}
	names := make([]string, len(comps.kubelets))
	for i, k := range comps.kubelets {
		names[i] = k.NodeName()
	}
	return comps.scheduler.WaitForNodes(ctx, names...)
}
