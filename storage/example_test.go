package storage_test

import (
	"context"
	"fmt"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

// An embedded etcd, a Store of Widgets on it, and a watch that sees the
// store's writes.
func ExampleStartEmbeddedEtcd() {
	// A bounded start: etcd is ready in well under a second.
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	etcd, err := storage.StartEmbeddedEtcd(ctx, storage.EmbeddedOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer etcd.Close()

	store, err := storage.NewStore(etcd.Client(), storage.StoreOptions{
		GroupResource: storagetest.WidgetResource,
		NewFunc:       storagetest.NewWidget,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	keyFunc := storage.NewKeyFunc(storage.ResourcePrefix(storagetest.WidgetResource), true)
	key, err := keyFunc("default", "w1")
	if err != nil {
		fmt.Println(err)
		return
	}
	created, err := store.Create(ctx, key, &storagetest.Widget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "w1"},
		Spec:       storagetest.WidgetSpec{Color: "red"},
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("created", key)

	w, err := store.Watch(ctx, key, storage.ListOptions{ResourceVersion: metav1.MustAccessor(created).ResourceVersion})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer w.Stop()
	_, err = store.GuaranteedUpdate(ctx, key, storage.UpdateOptions{}, func(cur runtime.Object) (runtime.Object, error) {
		cur.(*storagetest.Widget).Spec.Color = "blue"
		return cur, nil
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	if _, err := store.Delete(ctx, key, storage.DeleteOptions{}); err != nil {
		fmt.Println(err)
		return
	}
	for range 2 {
		ev := <-w.ResultChan()
		fmt.Println(ev.Type, ev.Object.(*storagetest.Widget).Spec.Color)
	}
	// Output:
	// created /widgets.test.minicp.io/default/w1
	// MODIFIED blue
	// DELETED blue
}
