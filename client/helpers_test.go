package client_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/storage/storagetest"
)

const adminToken = "admin-token"

// waitTimeout bounds every wait for the server or a watch event. Events
// arrive in milliseconds; 30s is for a loaded CI machine under -race, and
// turns a lost event into a failure instead of a hang.
const waitTimeout = 30 * time.Second

// transportMode is one way of reaching an API server.
type transportMode struct {
	name string
	// connect starts an API server on the shared etcd for the test and
	// returns a client config for it.
	connect func(t *testing.T) client.Config
}

// modes are the transports every client test runs over: HTTPS to a real
// cluster, and the in-memory transport straight into the handler chain.
var modes = []transportMode{
	{name: "https", connect: connectHTTPS},
	{name: "in-memory", connect: connectInMemory},
}

// forEachMode runs body once per transport, each against a fresh API
// server with its own etcd prefix.
func forEachMode(t *testing.T, body func(t *testing.T, cs *client.Clientset)) {
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			body(t, newClientset(t, m.connect(t)))
		})
	}
}

func newClientset(t *testing.T, cfg client.Config) *client.Clientset {
	t.Helper()
	c, err := client.New(cfg)
	require.NoError(t, err, "client.New(%+v)", cfg)
	cs, err := client.NewClientset(c)
	require.NoError(t, err, "NewClientset")
	return cs
}

// startCluster runs a cluster (API server over HTTPS) on the shared etcd
// until the test ends.
func startCluster(t *testing.T, prefix string) *cluster.Cluster {
	t.Helper()
	c, err := cluster.New(cluster.Options{Etcd: storagetest.Client(t), StoragePrefix: prefix})
	require.NoError(t, err, "cluster.New")
	ctx, cancel := context.WithCancel(t.Context())
	errCh := make(chan error, 1)
	go func() { errCh <- c.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		assert.NoError(t, <-errCh, "cluster stops cleanly")
	})
	select {
	case <-c.Ready():
	case err := <-errCh:
		t.Fatalf("cluster did not start: %v", err)
	}
	return c
}

func connectHTTPS(t *testing.T) client.Config {
	c := startCluster(t, storagetest.Prefix(t))
	return client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()}
}

// newAPIServer returns an API server on the shared etcd under prefix, not
// listening: for the in-memory transport.
func newAPIServer(t testing.TB, prefix string, mutate ...func(*apiserver.Options)) *apiserver.Server {
	t.Helper()
	opts := apiserver.Options{
		Etcd:          storagetest.Client(t),
		StoragePrefix: prefix,
		Authenticator: authn.NewTokenFile([]authn.TokenUser{{Token: adminToken, User: request.User{
			Name: "admin", Groups: []string{request.SystemPrivilegedGroup}}}}),
	}
	for _, m := range mutate {
		m(&opts)
	}
	api, err := apiserver.New(opts)
	require.NoError(t, err, "apiserver.New")
	// The server answers once its watch caches run and have synced.
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- api.Start(ctx) }()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	require.NoError(t, api.WaitReady(t.Context()), "watch caches sync")
	require.NoError(t, api.EnsureSystemNamespaces(t.Context()), "EnsureSystemNamespaces")
	return api
}

func connectInMemory(t *testing.T) client.Config {
	api := newAPIServer(t, storagetest.Prefix(t))
	return client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(api.Handler()), BearerToken: adminToken}
}

// newPod returns a pod to create in ns.
func newPod(ns, name string, labels map[string]string) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
}

// createPods creates n pods named prefix-0... in default.
func createPods(t *testing.T, cs *client.Clientset, prefix string, n int, labels map[string]string) []*corev1.Pod {
	t.Helper()
	out := make([]*corev1.Pod, 0, n)
	for i := range n {
		p, err := cs.Pods("default").Create(t.Context(), newPod("", fmt.Sprintf("%s-%d", prefix, i), labels), client.WriteOptions{})
		require.NoError(t, err, "create pod %s-%d", prefix, i)
		out = append(out, p)
	}
	return out
}

// nextEvent waits for w's next event; a closed channel or no event within
// waitTimeout fails the test.
func nextEvent(t *testing.T, w watch.Interface) watch.Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "watch closed while an event was expected")
		return ev
	case <-ctx.Done():
		t.Fatalf("no watch event within %v", waitTimeout)
		return watch.Event{}
	}
}

// expectClosed waits for w's channel to close, draining what is left.
func expectClosed(t *testing.T, w watch.Interface) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), waitTimeout)
	defer cancel()
	for {
		select {
		case _, ok := <-w.ResultChan():
			if !ok {
				return
			}
		case <-ctx.Done():
			t.Fatalf("watch not closed within %v", waitTimeout)
		}
	}
}
