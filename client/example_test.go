package client_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
)

// Talking to a cluster: create a pod, read it back, and recognise errors
// with the apierrors predicates.
func ExampleNewClientset() {
	c, err := cluster.New(cluster.Options{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	<-c.Ready()

	cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()})
	if err != nil {
		panic(err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		panic(err)
	}
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "hello"},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
	if _, err := cs.Pods("default").Create(ctx, pod, client.WriteOptions{}); err != nil {
		panic(err)
	}
	got, err := cs.Pods("default").Get(ctx, "hello", client.GetOptions{})
	fmt.Println(got.Name, got.Spec.Containers[0].Image, err)
	_, err = cs.Pods("default").Create(ctx, pod, client.WriteOptions{})
	fmt.Println(apierrors.IsAlreadyExists(err))

	cl.CloseIdleConnections()
	cancel()
	fmt.Println(<-done)
	// Output:
	// hello busybox <nil>
	// true
	// <nil>
}

// An embedded component talks to the API server in the same process: the
// in-memory transport runs the whole handler chain (authentication
// included) without TCP or TLS.
func ExampleNewInMemoryTransport() {
	c, err := cluster.New(cluster.Options{})
	if err != nil {
		panic(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	<-c.Ready()

	cl, err := client.New(client.Config{
		Host:        "http://in-memory",
		Transport:   client.NewInMemoryTransport(c.APIServer().Handler()),
		BearerToken: c.Token(),
	})
	if err != nil {
		panic(err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		panic(err)
	}
	ns, err := cs.Namespaces().Get(ctx, "kube-system", client.GetOptions{})
	fmt.Println(ns.Name, err)

	cancel()
	fmt.Println(<-done)
	// Output:
	// kube-system <nil>
	// <nil>
}

// A read-modify-write that survives losing a race: re-read, change, write,
// and again on a 409 Conflict.
func ExampleRetryOnConflict() {
	attempts := 0
	update := func() error {
		attempts++
		if attempts < 3 {
			// What a stale Update gets from the server.
			return apierrors.NewConflict(corev1.SchemeGroupVersion.WithResource("pods").GroupResource(), "web",
				errors.New("the object has been modified"))
		}
		return nil
	}
	err := client.RetryOnConflict(context.Background(), client.DefaultRetry, update)
	fmt.Println(attempts, err)
	// Output: 3 <nil>
}
