package storage

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"

	"github.com/minicp/minicp/api/runtime"
)

// maxListPageSize caps how many keys one etcd range reads while a selector
// thins a paged list out. Each refill doubles the page to need fewer round
// trips; 10000 is Kubernetes' cap, which keeps a single etcd response (and
// the memory to decode it) bounded when a selector matches almost nothing.
const maxListPageSize = 10000

// The details of ErrExpired on lists, spelled as Kubernetes spells them.
const (
	listExpired     = "The resourceVersion for the provided list is too old."
	continueExpired = "The provided continue parameter is too old to display a consistent list result. " +
		"You can start a new list without the continue parameter."
)

// GetList reads the objects under key (every key below it when
// opts.Recursive, else key itself) that match opts.Predicate, in key order,
// all at one revision, which the result's ResourceVersion reports.
//
// Which revision, by opts.ResourceVersion and ResourceVersionMatch:
//
//	""  or "0"          the latest
//	"N", NotOlderThan   the latest; N newer than etcd is ErrTooLargeResourceVersion
//	"N", Exact          N itself; compacted is ErrExpired, future is ErrTooLargeResourceVersion
//	continue token      the token's revision; compacted is ErrExpired
//
// With Predicate.Limit > 0 (recursive lists only) a page holds at most
// Limit matching objects; while a selector drops objects GetList keeps
// reading from etcd until the page is full or the keys run out, so a page
// is short only at the end. Continue is set when more keys remain, and
// RemainingItemCount too when there is no selector (with one, the count of
// matching keys is unknown). A token that does not decode is
// ErrInvalidContinue. GetList blocks for one etcd round trip per refill;
// the caller owns the items.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.GetList).
func (s *Store) GetList(ctx context.Context, key string, opts ListOptions) (*ListResult, error) {
	preparedKey, err := s.prepareKey(key)
	if err != nil {
		return nil, err
	}
	// A recursive list of "/pods/default" must not return "/pods/default2/x":
	// list the prefix "/pods/default/".
	listKey := "/" + strings.TrimPrefix(key, "/")
	if opts.Recursive && !strings.HasSuffix(listKey, "/") {
		listKey += "/"
		preparedKey += "/"
	}
	pred := opts.Predicate
	fromRV, err := parseResourceVersion(key, opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	switch opts.ResourceVersionMatch {
	case "", ResourceVersionMatchNotOlderThan, ResourceVersionMatchExact:
	default:
		return nil, fmt.Errorf("list %s %s: unknown resourceVersionMatch %q", s.gr, key, opts.ResourceVersionMatch)
	}

	startKey := preparedKey
	// withRev is the revision every read of this list is pinned to; 0 until
	// the first read says which revision "the latest" is.
	var withRev int64
	continuing := opts.Recursive && pred.Continue != ""
	switch {
	case continuing:
		fromKey, continueRV, err := DecodeContinue(pred.Continue, listKey)
		if err != nil {
			return nil, err
		}
		if startKey, err = s.prepareKey(fromKey); err != nil {
			return nil, NewInvalidContinueError(key, err.Error())
		}
		// rv -1 continues at the latest revision.
		if continueRV > 0 {
			withRev = continueRV
		}
	case opts.ResourceVersionMatch == ResourceVersionMatchExact && fromRV > 0:
		withRev = fromRV
	}

	paging := opts.Recursive && pred.Limit > 0
	limit := pred.Limit
	var rangeEnd string
	if opts.Recursive {
		rangeEnd = clientv3.GetPrefixRangeEnd(preparedKey)
	}
	var (
		items   []runtime.Object
		lastKey []byte
		hasMore bool
		resp    *clientv3.GetResponse
	)
	for {
		var ops []clientv3.OpOption
		if rangeEnd != "" {
			ops = append(ops, clientv3.WithRange(rangeEnd))
		}
		if paging {
			ops = append(ops, clientv3.WithLimit(limit))
		}
		if withRev != 0 {
			ops = append(ops, clientv3.WithRev(withRev))
		}
		done := s.observe("list")
		resp, err = s.client.Get(ctx, startKey, ops...)
		done()
		if err != nil {
			return nil, s.listError(ctx, key, preparedKey, withRev, continuing, err)
		}
		if err := validateMinimumResourceVersion(key, fromRV, resp.Header.Revision); err != nil {
			return nil, err
		}
		if len(resp.Kvs) == 0 && resp.More {
			return nil, fmt.Errorf("list %s %s: etcd returned no keys but said more remain", s.gr, key)
		}
		if withRev == 0 {
			withRev = resp.Header.Revision
		}
		if items == nil {
			items = make([]runtime.Object, 0, len(resp.Kvs))
		}
		hasMore = resp.More
		// The read's objects are decoded, and converted, together: a
		// conversion webhook gets one review per etcd read, not one per
		// object. When a selector drops objects, the last read may decode
		// some past the limit that the page then leaves out.
		objs, err := s.decodeAll(ctx, s.storedValues(resp.Kvs))
		if err != nil {
			return nil, err
		}
		for i, kv := range resp.Kvs {
			if paging && int64(len(items)) >= pred.Limit {
				hasMore = true
				break
			}
			lastKey = kv.Key
			obj := objs[i]
			matched, err := pred.Matches(obj)
			if err != nil {
				return nil, fmt.Errorf("list %s %s: %w", s.gr, key, err)
			}
			if matched {
				items = append(items, obj)
			}
		}
		if !paging || !hasMore || int64(len(items)) >= pred.Limit {
			break
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		// The selector dropped objects: read more from just after the last
		// key ("\x00" is the smallest byte to append), twice as many as last
		// time (up to maxListPageSize) so a sparse selector needs few reads.
		limit = min(2*limit, max(limit, maxListPageSize))
		startKey = string(lastKey) + "\x00"
	}

	result := &ListResult{Items: items, ResourceVersion: withRev}
	if hasMore {
		// Upstream: k8s.io/apiserver/pkg/storage (PrepareContinueToken).
		token, err := EncodeContinue(s.unprefix(lastKey)+"\x00", listKey, withRev)
		if err != nil {
			return nil, err
		}
		result.Continue = token
		// resp.Count counts every key from the last read's start to the end
		// of the range, matching or not; without a selector there was only
		// one read, so Count minus the page is what remains.
		if pred.Empty() {
			remaining := resp.Count - pred.Limit
			result.RemainingItemCount = &remaining
		}
	}
	return result, nil
}

// listError turns an etcd error of a list read at withRev into a storage
// error where one fits.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (interpretListError).
func (s *Store) listError(ctx context.Context, key, preparedKey string, withRev int64, continuing bool, err error) error {
	switch {
	case errors.Is(err, rpctypes.ErrCompacted):
		if continuing {
			return NewExpiredError(key, withRev, continueExpired)
		}
		return NewExpiredError(key, withRev, listExpired)
	case errors.Is(err, rpctypes.ErrFutureRev):
		// Ask for the current revision only to say it in the message.
		resp, cerr := s.client.Get(ctx, preparedKey, clientv3.WithCountOnly())
		if cerr != nil {
			return fmt.Errorf("list %s %s: %w", s.gr, key, err)
		}
		return NewTooLargeResourceVersionError(key, withRev, resp.Header.Revision)
	}
	return fmt.Errorf("list %s %s: %w", s.gr, key, err)
}

// unprefix turns an etcd key back into the key the caller used.
func (s *Store) unprefix(etcdKey []byte) string {
	return "/" + strings.TrimPrefix(string(etcdKey), s.pathPrefix)
}
