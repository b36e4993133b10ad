package storage

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/runtime"
)

// Get reads the object under key at etcd's latest revision: ErrNotFound if
// there is none, or a zero object from NewFunc with opts.IgnoreNotFound.
// opts.ResourceVersion, when set, is a minimum: a revision newer than etcd's
// is ErrTooLargeResourceVersion. Get blocks for one etcd round trip; the
// caller owns the result.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.Get).
func (s *Store) Get(ctx context.Context, key string, opts GetOptions) (runtime.Object, error) {
	preparedKey, err := s.prepareKey(key)
	if err != nil {
		return nil, err
	}
	minRV, err := parseResourceVersion(key, opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	done := s.observe("get")
	resp, err := s.client.Get(ctx, preparedKey)
	done()
	if err != nil {
		return nil, fmt.Errorf("get %s %s: %w", s.gr, key, err)
	}
	if err := validateMinimumResourceVersion(key, minRV, resp.Header.Revision); err != nil {
		return nil, err
	}
	state, err := s.getState(ctx, key, resp, opts.IgnoreNotFound)
	if err != nil {
		return nil, err
	}
	return state.obj, nil
}
