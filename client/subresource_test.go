package client_test

import (
	"io"
	"net/url"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

func TestBindingSubresource(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		createPods(t, cs, "p", 1, nil)
		binding := &corev1.Binding{
			ObjectMeta: metav1.ObjectMeta{Name: "p-0"},
			Target:     corev1.ObjectReference{Kind: "Node", Name: "node-1"},
		}
		require.NoError(t, cs.Pods("default").CreateSubresource(t.Context(), "p-0", "binding", binding, nil, client.WriteOptions{}))
		p, err := cs.Pods("default").Get(t.Context(), "p-0", client.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, "node-1", p.Spec.NodeName)

		err = cs.Pods("default").CreateSubresource(t.Context(), "p-0", "binding", binding, nil, client.WriteOptions{})
		assert.True(t, apierrors.IsConflict(err), "a second binding: %v", err)
	})
}

func TestStreamUnknownSubresourceIsNotFound(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		createPods(t, cs, "p", 1, nil)
		rc, err := cs.Pods("default").Stream(t.Context(), "p-0", "nonsense", url.Values{})
		if rc != nil {
			_, _ = io.Copy(io.Discard, rc)
			rc.Close()
		}
		assert.True(t, apierrors.IsNotFound(err), "GET pods/p-0/nonsense: %v", err)
	})
}

func TestLeases(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		holder, duration := "node-1", int32(40)
		lease := &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: "node-1"},
			Spec:       coordinationv1.LeaseSpec{HolderIdentity: &holder, LeaseDurationSeconds: &duration},
		}
		created, err := cs.Leases("kube-node-lease").Create(t.Context(), lease, client.WriteOptions{})
		require.NoError(t, err)
		assert.Equal(t, "node-1", *created.Spec.HolderIdentity)
	})
}
