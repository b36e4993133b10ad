package main

import (
	"context"
	"fmt"
	"net/http"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/tracing"
)

// operatorImage is the image of the operator's pods. The cluster runs
// the operator's Go code (newOperator) in every container of this image,
// as a container runtime would run the binary of a real image.
const operatorImage = "example.com/website-operator:v1"

// leaseName is the Lease the operator's replicas compete for: only the
// holder runs the controller, while every replica serves the HTTP API.
const leaseName = "website-operator"

// newOperator returns the operator's program, what its image runs in
// each pod:
//
//   - a client of the API server built as client-go's InClusterConfig
//     builds one: through the kubernetes Service (so through kube-proxy)
//     with the pod's ServiceAccount token and the cluster's CA;
//   - a manager with the Website controller, campaigning for the Lease;
//   - the HTTP API (api.go), which it returns for the runtime to serve at
//     the pod's IP on port 8080.
//
// tr is the cluster's tracing, which the operator's spans join (in a
// real cluster they would go to the same collector). leaderCh receives
// the name of the pod whose manager won the Lease and synced its
// caches, once: the example and the operator share a process, and this
// spares the example from watching the Lease and guessing when the
// informers have caught up.
func newOperator(tr *tracing.Tracing, leaderCh chan<- string) simulated.Program {
	return func(ctx context.Context, c *simulated.ContainerContext) (http.Handler, error) {
		cfg, err := c.InClusterConfig()
		if err != nil {
			return nil, err
		}
		if cfg.Scheme, err = client.NewScheme(); err != nil {
			return nil, err
		}
		if err := AddToScheme(cfg.Scheme); err != nil {
			return nil, err
		}
		cl, err := client.New(cfg)
		if err != nil {
			return nil, err
		}
		component := "operator/" + c.PodName
		mgr, err := manager.New(manager.Options{
			Client: cl, Tracing: tr, Name: component, Logger: c.Logger,
			LeaderElection: true, LeaderElectionID: leaseName,
			LeaderElectionNamespace: c.PodNamespace, LeaderElectionIdentity: c.PodName,
		})
		if err != nil {
			return nil, err
		}
		if err := addController(mgr, component); err != nil {
			return nil, fmt.Errorf("website controller: %w", err)
		}
		websites, err := client.NewResource[*Website, *WebsiteList](cl, websitesGVR)
		if err != nil {
			return nil, err
		}
		// The manager and the leader watch run in goroutines the runtime
		// owns: they stop when the container stops.
		c.Go(func(ctx context.Context) {
			if err := mgr.Start(ctx); err != nil && ctx.Err() == nil {
				c.Logger.Error("manager stopped", "err", err)
			}
			cl.CloseIdleConnections()
		})
		c.Go(func(ctx context.Context) {
			select {
			case <-mgr.Elected():
			case <-ctx.Done():
				return
			}
			if mgr.WaitIdle(ctx) != nil {
				return
			}
			c.Logger.Info("leading, caches synced", "lease", leaseName)
			select {
			case leaderCh <- c.PodName:
			default: // told already
			}
		})
		return newAPI(c, websites.Namespace(c.PodNamespace), tr.Tracer(component)), nil
	}
}
