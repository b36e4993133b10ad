package garbagecollector_test

import (
	"context"
	"fmt"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/controllers/garbagecollector"
	"github.com/minicp/minicp/controllers/manager"
)

// A manager running the garbage collector: deleting an owner deletes its
// dependent.
func ExampleAdd() {
	// No built-in controllers: this manager's collector is the only one.
	c, err := cluster.New(cluster.Options{Controllers: []string{}})
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
	if err := garbagecollector.Add(mgr); err != nil {
		panic(err)
	}
	mgrCtx, stopManager := context.WithCancel(context.Background())
	managerDone := make(chan error, 1)
	go func() { managerDone <- mgr.Start(mgrCtx) }()

	// The example gives up after a minute rather than hang.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cms := cs.ConfigMaps("default")
	owner, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, client.WriteOptions{})
	if err != nil {
		panic(err)
	}
	dependent, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dependent",
		OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID}}}},
		client.WriteOptions{})
	if err != nil {
		panic(err)
	}
	// Watching from the dependent's creation, its deletion cannot be missed.
	w, err := cms.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=dependent", ResourceVersion: dependent.ResourceVersion})
	if err != nil {
		panic(err)
	}
	if err := cms.Delete(ctx, "owner", metav1.DeleteOptions{}); err != nil {
		panic(err)
	}
	for ev := range w.ResultChan() {
		if ev.Type == watch.Deleted {
			fmt.Println("deleted with its owner:", ev.Object.(*corev1.ConfigMap).Name)
			break
		}
	}
	w.Stop()

	// Stop the manager first, then the cluster, as a program would.
	stopManager()
	fmt.Println(<-managerDone)
	cl.CloseIdleConnections()
	stopCluster()
	fmt.Println(<-clusterDone)
	// Output:
	// deleted with its owner: dependent
	// <nil>
	// <nil>
}
