package apiserver

import (
	"context"
	"errors"
	"fmt"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/registry"
)

// SystemNamespaces are created by the server itself, as kube-apiserver's
// bootstrap controller does: every cluster has them.
var SystemNamespaces = []string{
	metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic, metav1.NamespaceNodeLease,
}

// EnsureSystemNamespaces creates the SystemNamespaces that do not exist.
// It is safe to call from many servers sharing one etcd prefix: a
// namespace another server created first is left as it is.
func (s *Server) EnsureSystemNamespaces(ctx context.Context) error {
	store, ok := s.Store(gvrNamespaces)
	if !ok {
		return fmt.Errorf("namespaces are not served")
	}
	// At once: each is one etcd write, and a cluster's start waits for
	// all of them.
	errs := make([]error, len(SystemNamespaces))
	var wg sync.WaitGroup
	for i, name := range SystemNamespaces {
		wg.Go(func() {
			ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}
			_, err := store.Create(ctx, ns, nil, registry.CreateOptions{})
			if err != nil && !apierrors.IsAlreadyExists(err) {
				errs[i] = fmt.Errorf("create namespace %s: %w", name, err)
			}
		})
	}
	wg.Wait()
	return errors.Join(errs...)
}
