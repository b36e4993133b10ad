package storage

import (
	"bytes"
	"context"
	"fmt"
	"strconv"

	clientv3 "go.etcd.io/etcd/client/v3"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// GuaranteedUpdate is an optimistic read-modify-write loop:
//
//  1. start from opts.CachedExistingObject when there is one, else read
//     the object under key (ErrNotFound if there is none, unless
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
// A cached copy is only a guess at the current state. Steps 2 to 4 are
// final only on a state read from etcd: when one of them fails (or finds
// a no-op) on the copy, the loop reads etcd and starts again from 2, so a
// stale copy never causes a false conflict or a skipped write. A tryUpdate
// error is returned at once if etcd still holds the copy's revision. Step 5
// needs no such care: its revision check is a read of its own.
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
	getCurrentState := func() (*objState, error) {
		done := s.observe("get")
		resp, err := s.client.Get(ctx, preparedKey)
		done()
		if err != nil {
			return nil, fmt.Errorf("update %s %s: %w", s.gr, key, err)
		}
		return s.getState(ctx, key, resp, opts.IgnoreNotFound)
	}
	// stateIsCurrent (upstream: origStateIsCurrent) is false while state
	// is the cached copy, which etcd may have moved past.
	var state *objState
	stateIsCurrent := false
	if opts.CachedExistingObject != nil {
		state = s.getStateFromObject(ctx, opts.CachedExistingObject)
	}
	if state == nil {
		if state, err = getCurrentState(); err != nil {
			return nil, err
		}
		stateIsCurrent = true
	}
	for {
		if err := opts.Preconditions.Check(key, state.obj); err != nil {
			if stateIsCurrent {
				return nil, err
			}
			// The copy may be what fails them: check etcd's state.
			if state, err = getCurrentState(); err != nil {
				return nil, err
			}
			stateIsCurrent = true
			continue
		}
		// tryUpdate gets a copy it may modify. A cached copy belongs to
		// this loop and is never looked at again once tryUpdate has it
		// (every path after tryUpdate reads etcd or returns the write's
		// result), so it goes to tryUpdate as it is.
		current := state.obj
		if stateIsCurrent {
			current = current.DeepCopyObject()
		}
		updated, err := tryUpdate(current)
		if err != nil {
			if stateIsCurrent {
				return nil, err
			}
			// A registry refuses a stale state too (its resourceVersion
			// check): try again on etcd's, unless the copy was current.
			cachedRev, cachedErr := state.rev, err
			if state, err = getCurrentState(); err != nil {
				return nil, err
			}
			stateIsCurrent = true
			if state.rev == cachedRev {
				return nil, cachedErr
			}
			continue
		}
		data, err := s.encode(ctx, updated)
		if err != nil {
			return nil, err
		}
		if state.exists && bytes.Equal(data, state.data) {
			// A no-op: writing would bump the resourceVersion and wake every
			// watcher for nothing. On a copy, only if etcd agrees.
			if !stateIsCurrent {
				if state, err = getCurrentState(); err != nil {
					return nil, err
				}
				stateIsCurrent = true
				if !state.exists || !bytes.Equal(data, state.data) {
					continue
				}
			}
			return state.obj, nil
		}
		hop := s.startTxn(ctx, "update", key, state.rev)
		done := s.observe("update")
		txn, err := s.client.Txn(hop.ctx).
			If(clientv3.Compare(clientv3.ModRevision(preparedKey), "=", state.rev)).
			Then(clientv3.OpPut(preparedKey, string(data))).
			Else(clientv3.OpGet(preparedKey)).
			Commit()
		done()
		if err != nil {
			hop.failed(err)
			return nil, fmt.Errorf("update %s %s: %w", s.gr, key, err)
		}
		if !txn.Succeeded {
			// Lost the race, or the copy was stale: the Else branch read the
			// state that won it.
			hop.retried(state.rev)
			fresh := (*clientv3.GetResponse)(txn.Responses[0].GetResponseRange())
			if state, err = s.getState(ctx, key, fresh, opts.IgnoreNotFound); err != nil {
				return nil, err
			}
			stateIsCurrent = true
			continue
		}
		rev := txn.Header.Revision
		hop.committed(rev)
		return s.written(ctx, key, updated, data, rev)
	}
}

// getStateFromObject turns a cached copy of the object, which it takes,
// into the objState a read of etcd would give: the revision from its
// resourceVersion, and the stored bytes by encoding it as a write does.
// nil when the copy cannot be used (no resourceVersion, or its conversion
// to the stored form failed): the caller reads etcd instead.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.getStateFromObject).
func (s *Store) getStateFromObject(ctx context.Context, obj runtime.Object) *objState {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil
	}
	rv := meta.ResourceVersion
	rev, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || rev <= 0 {
		return nil
	}
	// encode clears the resourceVersion, which is not stored; put it back,
	// since preconditions and tryUpdate read it.
	data, err := s.encode(ctx, obj)
	meta.ResourceVersion = rv
	if err != nil {
		return nil
	}
	return &objState{obj: obj, data: data, rev: rev, exists: true}
}
