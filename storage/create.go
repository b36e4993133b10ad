package storage

import (
	"context"
	"errors"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Create stores obj under key in one transaction that succeeds only if the
// key has never been written or was deleted: ErrExists otherwise. obj must
// not have a resourceVersion (the registry clears it); Create does not
// modify obj. The result is a copy of obj, with the resourceVersion of
// the write (see written). Create blocks for one etcd round trip.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.Create).
func (s *Store) Create(ctx context.Context, key string, obj runtime.Object) (runtime.Object, error) {
	preparedKey, err := s.prepareKey(key)
	if err != nil {
		return nil, err
	}
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("create %s %s: %w", s.gr, key, err)
	}
	if meta.ResourceVersion != "" {
		return nil, fmt.Errorf("create %s %s: %w", s.gr, key,
			errors.New("resourceVersion should not be set on objects to be created"))
	}
	// The resourceVersion is empty, so obj's JSON is already its stored
	// form: encode it without copying it.
	stored, err := s.toStorage(ctx, obj)
	if err != nil {
		return nil, fmt.Errorf("create %s %s: %w", s.gr, key, err)
	}
	data, err := runtime.Encode(stored)
	if err != nil {
		return nil, fmt.Errorf("create %s %s: encode: %w", s.gr, key, err)
	}
	hop := s.startTxn(ctx, "create", key, 0)
	done := s.observe("create")
	resp, err := s.client.Txn(hop.ctx).
		If(clientv3.Compare(clientv3.CreateRevision(preparedKey), "=", 0)).
		Then(clientv3.OpPut(preparedKey, string(data))).
		Commit()
	done()
	if err != nil {
		hop.failed(err)
		return nil, fmt.Errorf("create %s %s: %w", s.gr, key, err)
	}
	if !resp.Succeeded {
		err := NewExistsError(key, 0)
		hop.failed(err)
		return nil, err
	}
	rev := resp.Header.Revision
	hop.committed(rev)
	// Create does not modify obj: the result is a copy.
	out := obj
	if s.converter == nil {
		out = obj.DeepCopyObject()
	}
	return s.written(ctx, key, out, data, rev)
}
