package client_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

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

func connectHTTPS(t *testing.T) client.Config {
	c := clustertest.New(t, clustertest.WithNodes(0))
	return client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()}
}

func connectInMemory(t *testing.T) client.Config {
	api := apiservertest.New(t)
	return client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(api.Handler()), BearerToken: apiservertest.AdminToken}
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
