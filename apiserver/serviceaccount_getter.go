package apiserver

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/storage"
)

var _ authn.ServiceAccountGetter = (*Server)(nil)

// getCachedOrLive reads ns/name of gvr from the watch cache and, when the
// cache does not have it, from etcd: a token is often used right after
// its ServiceAccount or pod was created, before the cache has caught up.
// The result is shared: callers must not modify it.
//
// Upstream: k8s.io/kubernetes/pkg/controller/serviceaccount
// (NewGetterFromClient with live lookups).
func (s *Server) getCachedOrLive(ctx context.Context, gvr runtime.GroupVersionResource, ns, name string) (runtime.Object, error) {
	store, ok := s.Store(gvr)
	if !ok {
		return nil, fmt.Errorf("%s are not served", gvr.Resource)
	}
	obj, err := store.Storage.Get(ctx, store.Key(ns, name), storage.GetOptions{ResourceVersion: "0"})
	if errors.Is(err, storage.ErrNotFound) {
		obj, err = store.Storage.Get(ctx, store.Key(ns, name), storage.GetOptions{})
	}
	if errors.Is(err, storage.ErrNotFound) {
		return nil, apierrors.NewNotFound(gvr.GroupResource(), name)
	}
	return obj, err
}

// GetServiceAccount implements authn.ServiceAccountGetter.
func (s *Server) GetServiceAccount(ctx context.Context, ns, name string) (*corev1.ServiceAccount, error) {
	obj, err := s.getCachedOrLive(ctx, corev1.SchemeGroupVersion.WithResource("serviceaccounts"), ns, name)
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.ServiceAccount), nil
}

// GetPod implements authn.ServiceAccountGetter and admission.PodGetter.
func (s *Server) GetPod(ctx context.Context, ns, name string) (*corev1.Pod, error) {
	obj, err := s.getCachedOrLive(ctx, gvrPods, ns, name)
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Pod), nil
}

// GetSecret implements authn.ServiceAccountGetter.
func (s *Server) GetSecret(ctx context.Context, ns, name string) (*corev1.Secret, error) {
	obj, err := s.getCachedOrLive(ctx, corev1.SchemeGroupVersion.WithResource("secrets"), ns, name)
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Secret), nil
}

// GetNode implements authn.ServiceAccountGetter.
func (s *Server) GetNode(ctx context.Context, name string) (*corev1.Node, error) {
	obj, err := s.getCachedOrLive(ctx, corev1.SchemeGroupVersion.WithResource("nodes"), "", name)
	if err != nil {
		return nil, err
	}
	return obj.(*corev1.Node), nil
}
