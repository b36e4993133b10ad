package storage

import (
	"context"
	"fmt"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Delete removes the object under key in a read-check-delete loop:
//
//  1. read the object (ErrNotFound if there is none);
//  2. check opts.Preconditions (ErrConflict) and call
//     opts.ValidateDeletion, which must not modify the object; its error
//     aborts the delete and is returned as it is;
//  3. delete in a transaction that succeeds only if the key's revision is
//     still the one read, so the checks held for the state deleted; if
//     another writer got there first, the transaction returns the fresh
//     state and the loop goes back to 1.
//
// The result is the last state, with the revision of the delete as its
// resourceVersion, as a watcher's DELETED event carries it.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.Delete, conditionalDelete).
func (s *Store) Delete(ctx context.Context, key string, opts DeleteOptions) (runtime.Object, error) {
	preparedKey, err := s.prepareKey(key)
	if err != nil {
		return nil, err
	}
	done := s.observe("get")
	resp, err := s.client.Get(ctx, preparedKey)
	done()
	if err != nil {
		return nil, fmt.Errorf("delete %s %s: %w", s.gr, key, err)
	}
	for {
		state, err := s.getState(ctx, key, resp, false)
		if err != nil {
			return nil, err
		}
		if err := opts.Preconditions.Check(key, state.obj); err != nil {
			return nil, err
		}
		if opts.ValidateDeletion != nil {
			if err := opts.ValidateDeletion(state.obj); err != nil {
				return nil, err
			}
		}
		hop := s.startTxn(ctx, "delete", key, state.rev)
		done := s.observe("delete")
		txn, err := s.client.Txn(hop.ctx).
			If(clientv3.Compare(clientv3.ModRevision(preparedKey), "=", state.rev)).
			Then(clientv3.OpDelete(preparedKey)).
			Else(clientv3.OpGet(preparedKey)).
			Commit()
		done()
		if err != nil {
			hop.failed(err)
			return nil, fmt.Errorf("delete %s %s: %w", s.gr, key, err)
		}
		if !txn.Succeeded {
			hop.retried(state.rev)
			resp = (*clientv3.GetResponse)(txn.Responses[0].GetResponseRange())
			continue
		}
		rev := txn.Header.Revision
		hop.committed(rev)
		metav1.MustAccessor(state.obj).ResourceVersion = strconv.FormatInt(rev, 10)
		return state.obj, nil
	}
}
