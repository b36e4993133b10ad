package builder_test

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
)

// An operator in a few lines: a controller For pods that labels each one,
// reading the manager's cache and writing through the API server.
func ExampleControllerManagedBy() {
	c, err := cluster.New(cluster.Options{})
	if err != nil {
		panic(err)
	}
	clusterCtx, stopCluster := context.WithCancel(context.Background())
	clusterDone := make(chan error, 1)
	go func() { clusterDone <- c.Start(clusterCtx) }()
	<-c.Ready()

	cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()})
	if err != nil {
		panic(err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		panic(err)
	}
	mgr, err := manager.New(manager.Options{Client: cl})
	if err != nil {
		panic(err)
	}
	pods, err := cache.ListerFor[*corev1.Pod](mgr.GetCache())
	if err != nil {
		panic(err)
	}

	labelled := make(chan string, 1)
	err = builder.ControllerManagedBy(mgr).
		For(&corev1.Pod{}).
		Complete(reconcile.Func(func(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
			pod, err := pods.Get(req.Namespace, req.Name)
			if apierrors.IsNotFound(err) || err == nil && pod.Labels["hello"] == "world" {
				return reconcile.Result{}, nil // gone, or done already
			}
			if err != nil {
				return reconcile.Result{}, err
			}
			pod = pod.DeepCopy() // never modify the cache's objects
			pod.Labels = map[string]string{"hello": "world"}
			if _, err := cs.Pods(pod.Namespace).Update(ctx, pod, client.WriteOptions{}); err != nil {
				return reconcile.Result{}, err // retried with backoff
			}
			labelled <- pod.Name
			return reconcile.Result{}, nil
		}))
	if err != nil {
		panic(err)
	}

	ctx, stopManager := context.WithCancel(context.Background())
	managerDone := make(chan error, 1)
	go func() { managerDone <- mgr.Start(ctx) }()

	_, err = cs.Pods("default").Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hello"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, client.WriteOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("labelled:", <-labelled)

	// Stop the manager first, then the cluster, as a program would.
	stopManager()
	fmt.Println(<-managerDone)
	cl.CloseIdleConnections()
	stopCluster()
	fmt.Println(<-clusterDone)
	// Output:
	// labelled: hello
	// <nil>
	// <nil>
}
