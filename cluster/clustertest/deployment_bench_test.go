package clustertest_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// deploymentReplicas is the size of the benchmark's Deployment.
const deploymentReplicas = 1000

// BenchmarkDeployment1000 measures the Deployment → ReplicaSet → Pod chain
// at scale on 100 nodes with every controller running: a Deployment of
// 1,000 pause pods from its create until its status says all 1,000 are
// available (to-running-s), then scaled to 0 until every pod is gone from
// the API (to-zero-s, graceful deletion by the kubelets included). The
// ReplicaSet controller creates at most 500 pods per sync, in slow-start
// batches, as upstream.
//
//	go test -run='^$' -bench=Deployment1000 -benchtime=1x ./cluster/clustertest/
func BenchmarkDeployment1000(b *testing.B) {
	c := clustertest.New(b, clustertest.WithNodes(throughputNodes))
	runPods(b, c, "warmup-", 1, 1)
	var toRunning, toZero time.Duration
	b.ResetTimer()
	for i := range b.N {
		name := fmt.Sprintf("web%d", i)
		start := time.Now()
		createDeployment(b, c, name)
		waitDeployment(b, c, name, func(d *appsv1.Deployment) bool {
			return d.Status.ObservedGeneration >= d.Generation && d.Status.AvailableReplicas == deploymentReplicas
		})
		toRunning += time.Since(start)

		start = time.Now()
		_, err := c.Clientset().Deployments("default").Patch(b.Context(), name, client.MergePatchType, []byte(`{"spec":{"replicas":0}}`), client.WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		waitNoPods(b, c, "app="+name)
		toZero += time.Since(start)
	}
	b.StopTimer()
	b.ReportMetric(toRunning.Seconds()/float64(b.N), "to-running-s")
	b.ReportMetric(toZero.Seconds()/float64(b.N), "to-zero-s")
	b.ReportMetric(0, "ns/op")
}

func createDeployment(b *testing.B, c *clustertest.Cluster, name string) {
	_, err := c.Clientset().Deployments("default").Create(b.Context(), newDeployment(name, deploymentReplicas, benchImage), client.WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
}

// waitDeployment watches the Deployment until cond holds, within
// runPodsTimeout.
func waitDeployment(b *testing.B, c *clustertest.Cluster, name string, cond func(*appsv1.Deployment) bool) {
	ctx, cancel := context.WithTimeout(b.Context(), runPodsTimeout)
	defer cancel()
	deployments := c.Clientset().Deployments("default")
	for {
		d, err := deployments.Get(ctx, name, client.GetOptions{})
		if err != nil {
			b.Fatalf("deployment %s: %v", name, err)
		}
		if cond(d) {
			return
		}
		w, err := deployments.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=" + name, ResourceVersion: d.ResourceVersion})
		if err != nil {
			b.Fatalf("deployment %s: %v (last status %+v)", name, err, d.Status)
		}
		for ev := range w.ResultChan() {
			if d, ok := ev.Object.(*appsv1.Deployment); ok && cond(d) {
				w.Stop()
				return
			}
		}
		w.Stop() // closed by the server: read and watch again
	}
}

// waitNoPods waits until no pod matches selector, within runPodsTimeout.
func waitNoPods(b *testing.B, c *clustertest.Cluster, selector string) {
	ctx, cancel := context.WithTimeout(b.Context(), runPodsTimeout)
	defer cancel()
	pods := c.Clientset().Pods("default")
	for {
		list, err := pods.List(ctx, client.ListOptions{LabelSelector: selector})
		if err != nil {
			b.Fatalf("pods %s: %v", selector, err)
		}
		left := map[string]bool{}
		for _, p := range list.Items {
			left[p.Name] = true
		}
		if len(left) == 0 {
			return
		}
		w, err := pods.Watch(ctx, client.ListOptions{LabelSelector: selector, ResourceVersion: list.ResourceVersion})
		if err != nil {
			b.Fatalf("pods %s: %v (%d left)", selector, err, len(left))
		}
		for ev := range w.ResultChan() {
			p, ok := ev.Object.(*corev1.Pod)
			if !ok {
				continue
			}
			if ev.Type == watch.Deleted {
				delete(left, p.Name)
			} else {
				left[p.Name] = true
			}
			if len(left) == 0 {
				w.Stop()
				return
			}
		}
		w.Stop()
	}
}
