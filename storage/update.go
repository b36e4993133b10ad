package storage

import (
	"bytes"
	"context"
	"fmt"

	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/minicp/minicp/api/runtime"
)

// GuaranteedUpdate is an optimistic read-modify-write loop:
//
//  1. read the object under key (ErrNotFound if there is none, unless
//     opts.IgnoreNotFound: then tryUpdate gets a zero object, an upsert);
//  2. check opts.Preconditions against it (ErrConflict);
//  3. call tryUpdate with a deep copy; its error aborts the loop and is
//     returned as it is, so a registry can return its own conflict;
//  4. if the encoded result equals the stored bytes, write nothing and
//     return the stored object (its resourceVersion does not move);
//  5. otherwise write it in a transaction that succeeds only if the key's
//     revision is still the one read; if another writer got there first,
//     the transaction returns the fresh state and the loop goes back to 2.
//
// Storage owns the object tryUpdate returns: it clears its resourceVersion
// before encoding it. The result is decoded from the written bytes, with the
// revision of the write as resourceVersion. The loop retries for as long as
// it loses races, each round one etcd round trip; ctx bounds it.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.GuaranteedUpdate).
func (s *Store) GuaranteedUpdate(ctx context.Context, key string, opts UpdateOptions, tryUpdate UpdateFunc) (runtime.Object, error) {
	preparedKey, err := s.prepareKey(key)
	if err != nil {
		return nil, err
	}
	resp, err := s.client.Get(ctx, preparedKey)
	if err != nil {
		return nil, fmt.Errorf("update %s %s: %w", s.gr, key, err)
	}
	state, err := s.getState(key, resp, opts.IgnoreNotFound)
	if err != nil {
		return nil, err
	}
	for {
		if err := opts.Preconditions.Check(key, state.obj); err != nil {
			return nil, err
		}
		updated, err := tryUpdate(state.obj.DeepCopyObject())
		if err != nil {
			return nil, err
		}
		data, err := s.encode(updated)
		if err != nil {
			return nil, err
		}
		if state.exists && bytes.Equal(data, state.data) {
			// A no-op: writing would bump the resourceVersion and wake every
			// watcher for nothing.
			return state.obj, nil
		}
		txn, err := s.client.Txn(ctx).
			If(clientv3.Compare(clientv3.ModRevision(preparedKey), "=", state.rev)).
			Then(clientv3.OpPut(preparedKey, string(data))).
			Else(clientv3.OpGet(preparedKey)).
			Commit()
		if err != nil {
			return nil, fmt.Errorf("update %s %s: %w", s.gr, key, err)
		}
		if !txn.Succeeded {
			// Lost the race: the Else branch read the state that won it.
			s.logger.DebugContext(ctx, "etcd txn", "hop", "etcd.txn", "verb", "update", "key", key, "rv", state.rev, "retry", true)
			fresh := (*clientv3.GetResponse)(txn.Responses[0].GetResponseRange())
			if state, err = s.getState(key, fresh, opts.IgnoreNotFound); err != nil {
				return nil, err
			}
			continue
		}
		rev := txn.Header.Revision
		s.logger.DebugContext(ctx, "etcd txn", "hop", "etcd.txn", "verb", "update", "key", key, "rv", rev)
		return s.decode(key, data, rev)
	}
}
