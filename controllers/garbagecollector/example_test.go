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
	err := cluster.Run(context.Background(), cluster.Options{Controllers: []string{}}, func(ctx context.Context, _ *cluster.Cluster, cs *client.Clientset) error {
		mgr, err := manager.New(manager.Options{Client: cs.Client()})
		if err != nil {
			return err
		}
		if err := garbagecollector.Add(mgr); err != nil {
			return err
		}
		mgrCtx, stopManager := context.WithCancel(ctx)
		managerDone := make(chan error, 1)
		go func() { managerDone <- mgr.Start(mgrCtx) }()
		// Stop the manager first, then the cluster, as a program would.
		defer func() {
			stopManager()
			fmt.Println("manager stopped:", <-managerDone)
		}()

		// The example gives up after a minute rather than hang.
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		cms := cs.ConfigMaps("default")
		owner, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "owner"}}, client.WriteOptions{})
		if err != nil {
			return err
		}
		dependent, err := cms.Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "dependent",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "v1", Kind: "ConfigMap", Name: owner.Name, UID: owner.UID}}}},
			client.WriteOptions{})
		if err != nil {
			return err
		}
		// Watching from the dependent's creation, its deletion cannot be missed.
		w, err := cms.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=dependent", ResourceVersion: dependent.ResourceVersion})
		if err != nil {
			return err
		}
		defer w.Stop()
		if err := cms.Delete(ctx, "owner", metav1.DeleteOptions{}); err != nil {
			return err
		}
		for ev := range w.ResultChan() {
			if ev.Type == watch.Deleted {
				fmt.Println("deleted with its owner:", ev.Object.(*corev1.ConfigMap).Name)
				break
			}
		}
		return nil
	})
	fmt.Println("cluster stopped:", err)
	// Output:
	// deleted with its owner: dependent
	// manager stopped: <nil>
	// cluster stopped: <nil>
}
