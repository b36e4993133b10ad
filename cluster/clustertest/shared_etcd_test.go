package clustertest_test

import (
	"context"
	"flag"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
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
			began := time.Now()
			c := clustertest.New(t)
			ready := time.Now()
			// Registered after New, so it runs while the cluster still
			// serves.
			t.Cleanup(func() {
				if t.Failed() {
					logCluster(t, c, began, ready)
				}
			})
			replicas := int32(2)
			_, err := c.Clientset().Deployments("default").Create(t.Context(), newDeployment("web", replicas, "nginx"), client.WriteOptions{})
			require.NoError(t, err)
			clustertest.WaitFor(t, c.Clientset().Deployments("default"), "web", "available",
				func(d *appsv1.Deployment, found bool) bool { return found && d.Status.AvailableReplicas == replicas })
		})
	}
}

// logCluster logs, for a failed test, when its cluster began and was
// ready and what happened to its pods since: which step of a Deployment
// was slow, and what failed.
func logCluster(t *testing.T, c *clustertest.Cluster, began, ready time.Time) {
	// t's context has ended by the time cleanups run.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.Context()), clustertest.WaitTimeout)
	defer cancel()
	t.Logf("began %s, ready %s, failed %s", began.Format(time.StampMilli), ready.Format(time.StampMilli), time.Now().Format(time.StampMilli))
	pods, err := c.Clientset().Pods("default").List(ctx, client.ListOptions{})
	if err != nil {
		t.Logf("list pods: %v", err)
		return
	}
	for _, p := range pods.Items {
		t.Logf("pod %s created %s, node %q, %s", p.Name, p.CreationTimestamp.Format(time.TimeOnly), p.Spec.NodeName, p.Status.Phase)
		for _, cond := range p.Status.Conditions {
			t.Logf("  %s=%s since %s", cond.Type, cond.Status, cond.LastTransitionTime.Format(time.TimeOnly))
		}
	}
	events, err := c.Clientset().Events("").List(ctx, client.ListOptions{})
	if err != nil {
		t.Logf("list events: %v", err)
		return
	}
	slices.SortStableFunc(events.Items, func(a, b corev1.Event) int {
		return a.CreationTimestamp.Compare(b.CreationTimestamp.Time)
	})
	for _, e := range events.Items {
		t.Logf("event %s %s %s/%s: %s", e.CreationTimestamp.Format(time.TimeOnly), e.Reason, e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Message)
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
