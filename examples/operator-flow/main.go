// Command operator-flow follows one request from outside the cluster
// down to an operator and back, on a fresh minicp cluster, and prints
// every hop in order with the TCP peers and the resourceVersions:
//
//  1. DNS: the client resolves the operator's Service through cluster DNS;
//  2. TCP: it connects to the Service's load balancer address;
//  3. kube-proxy accepts the connection and picks a ready pod, round robin;
//  4. the operator's pod, running the programmable image
//     example.com/website-operator:v1, receives POST /websites;
//  5. the operator creates a Website custom resource through the API
//     server, as its ServiceAccount (authentication, RBAC, admission,
//     the etcd write and its resourceVersion);
//  6. the watch event reaches the controller of the operator replica
//     that holds the Lease (watch cache, informer);
//  7. reconcile: it reads the Website and its ConfigMap from its cache,
//     computes the difference and creates the ConfigMap;
//  8. it writes the Website's status;
//  9. the client reads the status back through the same Service, where
//     kube-proxy's round robin picks the other replica.
//
// The operator is Go code in this program (operator.go, api.go,
// reconciler.go) that the simulated container runtime runs in the
// operator's pods, as a real runtime runs an image's binary: it reaches
// the API server through the kubernetes Service with its pod's
// ServiceAccount token, exactly as client-go's in-cluster config does.
// The hops come from the cluster's traces (package tracing). Run it with:
//
//	go run ./examples/operator-flow
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/kubelet/cri/simulated"
	"github.com/minicp/minicp/tracing"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "operator-flow:", err)
		os.Exit(1)
	}
}

// namespace is where the operator and its Websites live.
const namespace = "default"

// run starts a cluster of two nodes whose kubelets know the operator's
// image, deploys the operator, plays the request and prints its hops.
// The cluster mounts ServiceAccount tokens in pods, as a real one does,
// and the operator's ClusterRole grants it what it does, which RBAC
// checks; nothing waits for time to pass, so it runs on the real clock.
func run(ctx context.Context, out io.Writer) error {
	tr := tracing.New(tracing.Options{})
	defer tr.Shutdown(context.WithoutCancel(ctx))
	leaderCh := make(chan string, 1)
	opts := cluster.Options{
		Nodes: 2, Tracing: tr, ServiceAccountAdmission: true,
		Programs: map[string]simulated.Program{operatorImage: newOperator(tr, leaderCh)},
	}
	// Said before the start, which can wait a long time for the network
	// and would otherwise print nothing.
	fmt.Fprintln(out, "start: a cluster of two nodes, with kube-proxy and cluster DNS on the host's loopback addresses")
	fmt.Fprintln(out, "  (one process on a host runs them at a time: while another does, a minicp up say, this waits for it)")
	return cluster.Run(ctx, opts, func(ctx context.Context, c *cluster.Cluster, _ *client.Clientset) error {
		if c.ServiceProxy() == nil {
			return fmt.Errorf("the cluster runs without its Service network")
		}
		cl, err := newClient(c)
		if err != nil {
			return err
		}
		defer cl.CloseIdleConnections()
		d, err := deploy(ctx, c, cl, out, leaderCh)
		if err != nil {
			return err
		}
		res, err := request(ctx, c, cl, tr, d)
		if err != nil {
			return err
		}
		return printFlow(ctx, out, tr.Recorder(), d, res)
	})
}
