package clustertest_test

import (
	"flag"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
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
			labels := map[string]string{"app": "web"}
			_, err := c.Clientset().Deployments("default").Create(t.Context(), &appsv1.Deployment{
				ObjectMeta: metav1.ObjectMeta{Name: "web"},
				Spec: appsv1.DeploymentSpec{
					Replicas: &replicas,
					Selector: &metav1.LabelSelector{MatchLabels: labels},
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Labels: labels},
						Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx"}}},
					},
				},
			}, client.WriteOptions{})
			require.NoError(t, err)
			clustertest.WaitFor(t, c.Clientset().Deployments("default"), "web", "available",
				func(d *appsv1.Deployment, found bool) bool { return found && d.Status.AvailableReplicas == replicas })
		})
	}
}

// BenchmarkNewOnSharedEtcd measures clustertest.New on the package's
// shared etcd: the cost a test pays for its own cluster (API server and
// caches, controller-manager, scheduler, one node), start to Ready and
// stopped again. Run with:
//
//	go test -run='^$' -bench=BenchmarkNewOnSharedEtcd -benchtime=20x ./cluster/clustertest/
func BenchmarkNewOnSharedEtcd(b *testing.B) {
	var total time.Duration
	for b.Loop() {
		start := time.Now()
		b.Run("cluster", func(b *testing.B) { clustertest.New(b) })
		total += time.Since(start)
	}
	b.ReportMetric(float64(total.Microseconds())/1000/float64(b.N), "ms/cluster")
}
