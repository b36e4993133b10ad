package clustertest_test

import (
	"context"
	"flag"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/storage/storagetest"
)

// manyClusters is how many clusters TestManyClustersOnOneEtcd runs at
// once on the package's one embedded etcd: what a suite whose tests call
// t.Parallel does.
const manyClusters = 20

// TestManyClustersOnOneEtcd runs clusters in parallel on one etcd, each
// under its own key prefix, each taking a Deployment to available. Every
// cluster's watch caches and progress requests share the etcd client:
// none may starve another's.
func TestManyClustersOnOneEtcd(t *testing.T) {
	if testing.Short() {
		t.Skip("starts 20 clusters")
	}
	if p := flag.Lookup("test.parallel"); p == nil || p.Value.String() != fmt.Sprint(manyClusters) {
		t.Skipf("runs its clusters all at once only with -parallel=%d, as make test runs it", manyClusters)
	}
	for i := range manyClusters {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			t.Parallel()
			c := clustertest.New(t)
			replicas := int32(2)
			_, err := c.Clientset().Deployments("default").Create(t.Context(), newDeployment("web", replicas, "nginx"), client.WriteOptions{})
			require.NoError(t, err)
			clustertest.WaitFor(t, c.Clientset().Deployments("default"), "web", "available",
				func(d *appsv1.Deployment, found bool) bool { return found && d.Status.AvailableReplicas == replicas })
		})
	}
}

// BenchmarkNewOnSharedEtcd measures what clustertest.New costs a test on
// the package's shared etcd: a cluster (API server and caches,
// controller-manager, scheduler, one node; no Service network, as
// clustertest.New's default) under a fresh prefix, from New to Ready,
// then stopped. Run with:
//
//	go test -run='^$' -bench=BenchmarkNewOnSharedEtcd -benchtime=20x ./cluster/clustertest/
func BenchmarkNewOnSharedEtcd(b *testing.B) {
	for b.Loop() {
		c, err := cluster.New(cluster.Options{Etcd: storagetest.Client(b), StoragePrefix: storagetest.Prefix(b), Nodes: 1,
			DisableServiceNetwork: true})
		if err != nil {
			b.Fatal(err)
		}
		ctx, cancel := context.WithCancel(b.Context())
		done := make(chan error, 1)
		go func() { done <- c.Start(ctx) }()
		select {
		case <-c.Ready():
		case err := <-done:
			b.Fatal(err)
		}
		cancel()
		if err := <-done; err != nil {
			b.Fatal(err)
		}
	}
}
