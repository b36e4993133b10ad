package cluster

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"sync"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authz/rbac/bootstrappolicy"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllermanager"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/kubelet"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/scheduler"
	"github.com/minicp/minicp/wait"
)

// components are what runs against the API server: the controller-manager,
// the scheduler, the simulated kubelets, the proxy and the DNS server.
// Like the real ones they see the cluster only through the API, each as
// its own user, here over the in-memory transport (the whole handler
// chain still runs). Each is nil (or empty) when not run.
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
	// One scheme for every component's client, as when they shared one
	// client: building a scheme costs more than the rest of a client.
	scheme, err := client.NewScheme()
	if err != nil {
		return nil, fmt.Errorf("cluster: client: %w", err)
	}
	comps := &components{}
	controllers, err := controllermanager.Resolve(c.opts.Controllers)
	if err != nil {
		return nil, fmt.Errorf("cluster: %w", err)
	}
	if len(controllers) > 0 {
		mgr, err := c.newControllerManager(server, scheme)
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
		if comps.network, err = c.newServiceNetwork(server, scheme); err != nil {
			return nil, fmt.Errorf("cluster: %w", err)
		}
		clusterNet = &containerNetwork{dns: comps.network.dns}
	}
	if c.opts.Nodes == 0 {
		return comps, nil
	}
	schedulerCS, err := c.componentClientset(server, clientIdentity{user: bootstrappolicy.KubeSchedulerUser, scheme: scheme})
	if err != nil {
		return nil, err
	}
	if comps.scheduler, err = scheduler.New(scheduler.Options{Clientset: schedulerCS, Config: c.opts.SchedulerConfig, Clock: c.opts.Clock,
		Logger: c.log, MetricsRegistry: c.opts.MetricsRegistry, Tracing: c.opts.Tracing}); err != nil {
		return nil, fmt.Errorf("cluster: scheduler: %w", err)
	}
	for i := range c.opts.Nodes {
		// Each kubelet is its node, as its client certificate says: the
		// Node authorizer and NodeRestriction limit it to its own objects.
		kubeletCS, err := c.componentClientset(server, clientIdentity{
			user: request.NodeUsernamePrefix + NodeName(i), groups: []string{request.NodesGroup}, scheme: scheme,
		})
		if err != nil {
			return nil, err
		}
		k, err := kubelet.New(kubelet.Options{
			NodeName:  NodeName(i),
			Clientset: kubeletCS,
			PodCIDR:   netip.PrefixFrom(netip.AddrFrom4([4]byte{10, 244, byte(i), 0}), 24),
			// A nil *containerNetwork must stay a nil interface.
			ClusterNetwork: clusterNetworkOrNil(clusterNet),
			Programs:       c.opts.Programs,
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

// clientIdentity is who a component's client authenticates as: a client
// certificate for user in groups, issued by the cluster's CA; the admin's
// token when user is empty.
type clientIdentity struct {
	user   string
	groups []string
	// wrap, when set, wraps the client's transport (its credentials, for
	// a controller's ServiceAccount token).
	wrap func(http.RoundTripper) http.RoundTripper
	// scheme is the client's scheme, shared by every component, as the
	// garbage collector needs: it adds the custom resources it discovers
	// to the controller-manager's scheme, and acts with its own client.
	scheme *runtime.Scheme
}

// componentClient returns a client over server's in-memory transport that
// authenticates as id: the transport presents the certificate as the TLS
// peer certificate, so the API server's certificate authenticator checks
// it as it checks any other.
func (c *Cluster) componentClient(server *apiserver.Server, id clientIdentity) (*client.Client, error) {
	cfg := client.Config{
		Host: "http://in-memory", Transport: client.NewInMemoryTransport(server.Handler()),
		Clock: c.opts.Clock, WrapTransport: id.wrap, Scheme: id.scheme,
	}
	switch {
	case id.wrap != nil:
	case id.user == "":
		cfg.BearerToken = c.token
	default:
		var err error
		if cfg.CertData, cfg.KeyData, err = c.IssueClientCertificate(id.user, id.groups); err != nil {
			return nil, fmt.Errorf("cluster: client certificate of %s: %w", id.user, err)
		}
	}
	cl, err := client.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("cluster: client: %w", err)
	}
	return cl, nil
}

// componentClientset is componentClient's Clientset.
func (c *Cluster) componentClientset(server *apiserver.Server, id clientIdentity) (*client.Clientset, error) {
	cl, err := c.componentClient(server, id)
	if err != nil {
		return nil, err
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, fmt.Errorf("cluster: client: %w", err)
	}
	return cs, nil
}

// newControllerManager builds the controller-manager's Manager: its
// cache and leader election act as system:kube-controller-manager, and
// each controller as its own ServiceAccount in kube-system.
func (c *Cluster) newControllerManager(server *apiserver.Server, scheme *runtime.Scheme) (*manager.Manager, error) {
	root, err := c.componentClient(server, clientIdentity{user: bootstrappolicy.KubeControllerManager, scheme: scheme})
	if err != nil {
		return nil, err
	}
	rootCS, err := client.NewClientset(root)
	if err != nil {
		return nil, fmt.Errorf("cluster: client: %w", err)
	}
	saClients := &serviceAccountClients{root: rootCS, clock: c.opts.Clock,
		newClient: func(wrap func(http.RoundTripper) http.RoundTripper) (*client.Client, error) {
			return c.componentClient(server, clientIdentity{wrap: wrap, scheme: scheme})
		}}
	return manager.New(manager.Options{Client: root, ClientBuilder: saClients.Client, Clock: c.opts.Clock, Logger: c.log,
		MetricsRegistry: c.opts.MetricsRegistry, Tracing: c.opts.Tracing, Name: "controller-manager"})
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
		wg.Go(func() {
			// One process at a time serves a host's Service network (see
			// acquireHostNetwork).
			release, err := acquireHostNetwork(ctx, c.log)
			if err != nil {
				if ctx.Err() == nil {
					c.log.Error("service network not started", "err", err)
				}
				return
			}
			defer release()
			var netWG sync.WaitGroup
			// DNS first: the proxy leaves the kube-dns Service to it.
			netWG.Go(func() {
				if err := n.dns.Start(ctx); err != nil && ctx.Err() == nil {
					c.log.Error("dns stopped", "err", err)
				}
			})
			netWG.Go(func() {
				if err := n.proxy.Start(ctx); err != nil && ctx.Err() == nil {
					c.log.Error("kube-proxy stopped", "err", err)
				}
			})
			netWG.Wait()
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
