package protobuf

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"testing"

	kcorev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"github.com/minicp/minicp/cluster"
)

// benchPods is how many pods the LIST benchmarks list, and benchWatchers
// how many watches a write fans out to.
const (
	benchPods     = 1000
	benchWatchers = 100
)

// BenchmarkContentType compares JSON with protobuf, end to end through
// real client-go against one minicp API server, in one run so the ratio
// reads off directly:
//
//	GetPod/{json,protobuf}          a typed GET of one pod
//	ListPods1000/{json,protobuf}    a typed LIST of 1,000 pods, read from
//	                                etcd (resourceVersion unset: a
//	                                consistent read, as kubectl get does)
//	ListPods1000FromCache/...       the same from the watch cache
//	                                (resourceVersion=0, as an informer's
//	                                first LIST), where the serialization
//	                                is most of the cost
//	WatchFanout100/{json,protobuf}  one write (a JSON merge patch of a
//	                                label, the same in both) until each
//	                                of 100 typed watches has decoded its
//	                                MODIFIED event
//
// The client's decoding is part of each figure, as it is of a
// controller's. resp-B is the size of one answer.
//
//	cd compat/protobuf && go test -run '^$' -bench BenchmarkContentType -benchmem .
func BenchmarkContentType(b *testing.B) {
	c := startCluster(b, cluster.Options{})
	ctx := b.Context()
	clients := []struct {
		name string
		cs   *kubernetes.Clientset
		ct   string
	}{
		{"json", kubernetes.NewForConfigOrDie(restConfig(c, contentTypeJSON, nil)), contentTypeJSON},
		{"protobuf", kubernetes.NewForConfigOrDie(restConfig(c, contentTypeProtobuf, nil)), contentTypeProtobuf},
	}
	writer := clients[0].cs
	for _, ns := range []string{"bench", "fanout"} {
		if _, err := writer.CoreV1().Namespaces().Create(ctx, &kcorev1.Namespace{ObjectMeta: kmetav1.ObjectMeta{Name: ns}}, kmetav1.CreateOptions{}); err != nil {
			b.Fatalf("create namespace %s: %v", ns, err)
		}
	}
	for i := range benchPods {
		if _, err := writer.CoreV1().Pods("bench").Create(ctx, benchPod(fmt.Sprintf("web-%04d", i)), kmetav1.CreateOptions{}); err != nil {
			b.Fatalf("create pod %d: %v", i, err)
		}
	}
	if _, err := writer.CoreV1().Pods("fanout").Create(ctx, benchPod("watched"), kmetav1.CreateOptions{}); err != nil {
		b.Fatalf("create watched pod: %v", err)
	}
	hc := c.HTTPClient()

	for _, cl := range clients {
		b.Run("GetPod/"+cl.name, func(b *testing.B) {
			size := responseSize(b, hc, c.URL()+"/api/v1/namespaces/bench/pods/web-0000", cl.ct)
			for b.Loop() {
				if _, err := cl.cs.CoreV1().Pods("bench").Get(ctx, "web-0000", kmetav1.GetOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(size, "resp-B")
		})
	}
	for _, list := range []struct{ name, rv string }{{"ListPods1000", ""}, {"ListPods1000FromCache", "0"}} {
		for _, cl := range clients {
			b.Run(list.name+"/"+cl.name, func(b *testing.B) {
				size := responseSize(b, hc, c.URL()+"/api/v1/namespaces/bench/pods?resourceVersion="+list.rv, cl.ct)
				for b.Loop() {
					pods, err := cl.cs.CoreV1().Pods("bench").List(ctx, kmetav1.ListOptions{ResourceVersion: list.rv})
					if err != nil {
						b.Fatal(err)
					}
					if len(pods.Items) != benchPods {
						b.Fatalf("listed %d pods, want %d", len(pods.Items), benchPods)
					}
				}
				b.ReportMetric(size, "resp-B")
			})
		}
	}
	for _, cl := range clients {
		b.Run(fmt.Sprintf("WatchFanout%d/%s", benchWatchers, cl.name), func(b *testing.B) {
			benchmarkFanout(b, writer, cl.cs)
		})
	}
}

// benchmarkFanout opens benchWatchers watches on the fanout namespace
// through cs and times writes until every watch has decoded the event
// each causes.
func benchmarkFanout(b *testing.B, writer, cs *kubernetes.Clientset) {
	ctx, cancel := context.WithCancel(b.Context())
	defer cancel()
	pods := writer.CoreV1().Pods("fanout")
	current, err := pods.Get(ctx, "watched", kmetav1.GetOptions{})
	if err != nil {
		b.Fatal(err)
	}
	// received gets one token per event per watcher; room for a whole
	// round, so no watcher waits on another.
	received := make(chan struct{}, benchWatchers)
	var wg sync.WaitGroup
	defer wg.Wait()
	for range benchWatchers {
		w, err := cs.CoreV1().Pods("fanout").Watch(ctx, kmetav1.ListOptions{ResourceVersion: current.ResourceVersion})
		if err != nil {
			b.Fatal(err)
		}
		defer w.Stop()
		wg.Go(func() {
			for ev := range w.ResultChan() {
				if ev.Type != watch.Modified {
					continue
				}
				select {
				case received <- struct{}{}:
				case <-ctx.Done():
					return
				}
			}
		})
	}
	i := 0
	for b.Loop() {
		i++
		// A value no earlier write set, or the patch changes nothing and
		// no event is sent: the round within the resourceVersion the
		// watches start at.
		patch := []byte(`{"metadata":{"labels":{"round":"` + current.ResourceVersion + "-" + strconv.Itoa(i) + `"}}}`)
		if _, err := pods.Patch(ctx, "watched", types.MergePatchType, patch, kmetav1.PatchOptions{}); err != nil {
			b.Fatal(err)
		}
		for range benchWatchers {
			select {
			case <-received:
			case <-ctx.Done():
				b.Fatal("benchmark ended before the watches saw the write")
			}
		}
	}
	b.ReportMetric(float64(benchWatchers), "watchers")
}

// benchPod is a pod of the size a Deployment's pods have: labels, an
// owner, a container with ports, env, resources and probes.
func benchPod(name string) *kcorev1.Pod {
	yes := true
	return &kcorev1.Pod{
		ObjectMeta: kmetav1.ObjectMeta{
			Name:   name,
			Labels: map[string]string{"app": "web", "pod-template-hash": "7c9f8"},
			OwnerReferences: []kmetav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7c9f8",
				UID: "6f1c2d3e-0000-4000-8000-000000000002", Controller: &yes, BlockOwnerDeletion: &yes,
			}},
		},
		Spec: kcorev1.PodSpec{Containers: []kcorev1.Container{{
			Name: "web", Image: "nginx:1.27",
			Ports: []kcorev1.ContainerPort{{Name: "http", ContainerPort: 80}},
			Env:   []kcorev1.EnvVar{{Name: "MODE", Value: "production"}},
			Resources: kcorev1.ResourceRequirements{
				Requests: kcorev1.ResourceList{kcorev1.ResourceCPU: resource.MustParse("100m"), kcorev1.ResourceMemory: resource.MustParse("128Mi")},
			},
			ReadinessProbe: &kcorev1.Probe{ProbeHandler: kcorev1.ProbeHandler{HTTPGet: &kcorev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromInt32(80)}}},
		}}},
	}
}

// responseSize is the size of the answer to a GET of url in mediaType.
func responseSize(b *testing.B, hc *http.Client, url, mediaType string) float64 {
	b.Helper()
	req, err := http.NewRequestWithContext(b.Context(), "GET", url, nil)
	if err != nil {
		b.Fatal(err)
	}
	req.Header.Set("Accept", mediaType)
	resp, err := hc.Do(req)
	if err != nil {
		b.Fatal(err)
	}
	defer resp.Body.Close()
	n, err := io.Copy(io.Discard, resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != mediaType {
		b.Fatalf("GET %s as %s: %d %s, %v", url, mediaType, resp.StatusCode, resp.Header.Get("Content-Type"), err)
	}
	return float64(n)
}
