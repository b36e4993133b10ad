package watchcache_test

import (
	"context"
	"fmt"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
	"github.com/minicp/minicp/watchcache"
)

// A Cacher in front of an etcd Store: writes go to etcd, the watch and the
// rv=0 list are served from memory.
func ExampleCacher() {
	// 30s bounds the example on a slow machine; it takes milliseconds.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	etcd, err := storage.StartEmbeddedEtcd(ctx, storage.EmbeddedOptions{UnsafeNoFsync: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer etcd.Close()
	store, err := storage.NewStore(etcd.Client(), storage.StoreOptions{NewFunc: storagetest.NewWidget})
	if err != nil {
		fmt.Println(err)
		return
	}

	cacher, err := watchcache.New(watchcache.Options{
		Storage:        store,
		ResourcePrefix: "/widgets",
		NewFunc:        storagetest.NewWidget,
		GetAttrs:       storagetest.WidgetAttrs,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- cacher.Start(runCtx) }()
	defer func() {
		stop()
		<-done
	}()
	if err := cacher.WaitReady(ctx); err != nil {
		fmt.Println(err)
		return
	}

	w, err := cacher.Watch(ctx, "/widgets/default", storage.ListOptions{Recursive: true})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Stop()
	web := &storagetest.Widget{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"}}
	if _, err := cacher.Create(ctx, "/widgets/default/web", web); err != nil {
		fmt.Println(err)
		return
	}
	ev := <-w.ResultChan()
	fmt.Println(ev.Type, ev.Object.(*storagetest.Widget).Name)

	list, err := cacher.GetList(ctx, "/widgets", storage.ListOptions{Recursive: true, ResourceVersion: "0"})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(len(list.Items), "widget in the cache")
	// Output:
	// ADDED web
	// 1 widget in the cache
}
