package informer_test

import (
	"context"
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/informer"
)

// A controller's view of the cluster: a factory shares one informer per
// resource, handlers hear about changes, and a Lister reads the cache.
func ExampleSharedInformerFactory() {
	c, err := cluster.New(cluster.Options{})
	if err != nil {
		panic(err)
	}
	clusterCtx, stopCluster := context.WithCancel(context.Background())
	clusterDone := make(chan error, 1)
	go func() { clusterDone <- c.Start(clusterCtx) }()
	<-c.Ready()
	ctx, cancel := context.WithCancel(context.Background())

	cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()})
	if err != nil {
		panic(err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		panic(err)
	}
	factory, err := informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{Client: cl})
	if err != nil {
		panic(err)
	}
	pods, err := factory.InformerFor(corev1.SchemeGroupVersion.WithResource("pods"))
	if err != nil {
		panic(err)
	}
	added := make(chan string, 1)
	_, err = pods.AddEventHandler(informer.ResourceEventHandlerFuncs{
		AddFunc: func(obj runtime.Object, _ bool) { added <- obj.(*corev1.Pod).Name },
	}, informer.HandlerOptions{})
	if err != nil {
		panic(err)
	}
	factoryDone := make(chan error, 1)
	go func() { factoryDone <- factory.Start(ctx) }()
	if err := factory.WaitForCacheSync(ctx); err != nil {
		panic(err)
	}

	_, err = cs.Pods("default").Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hello"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}, client.WriteOptions{})
	if err != nil {
		panic(err)
	}
	fmt.Println("added:", <-added)
	lister := informer.NewLister[*corev1.Pod](pods.Indexer(), corev1.SchemeGroupVersion.WithResource("pods").GroupResource())
	p, err := lister.Get("default", "hello")
	fmt.Println("cached:", p.Name, err)

	// Stop the informers first, then the cluster, like a program would.
	cancel()
	fmt.Println(<-factoryDone)
	cl.CloseIdleConnections()
	stopCluster()
	fmt.Println(<-clusterDone)
	// Output:
	// added: hello
	// cached: hello <nil>
	// <nil>
	// <nil>
}
