package watchcache

import (
	"context"
	"strings"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// Get reads the object under key. With opts.ResourceVersion "0" it is
// served from the cache (after waiting, bounded by ctx, for the cache to be
// ready), and the object is shared: do not modify it. Any other
// resourceVersion goes to the underlying storage.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.Get).
func (c *Cacher) Get(ctx context.Context, key string, opts storage.GetOptions) (runtime.Object, error) {
	if opts.ResourceVersion != "0" || !c.isObjectKey(key) {
		// Storage also rejects malformed keys as it always does.
		return c.storage.Get(ctx, key, opts)
	}
	if err := c.ready.wait(ctx); err != nil {
		return nil, err
	}
	wc := c.watchCache
	wc.mu.RLock()
	e, ok := wc.store.get(key)
	rv := wc.resourceVersion
	wc.mu.RUnlock()
	switch {
	case ok:
		return e.Object, nil
	case opts.IgnoreNotFound:
		return c.newFunc(), nil
	}
	return nil, storage.NewNotFoundError(key, rv)
}

// GetList lists the objects under key that match opts.Predicate, in key
// order. Which reads the cache serves, by opts.ResourceVersion and
// ResourceVersionMatch:
//
//	""                    underlying storage: a consistent read, from etcd
//	"0"                   the cache's current state
//	"N", NotOlderThan/""  the cache, once it is current to N (bounded wait;
//	                      then ErrTooLargeResourceVersion)
//	"N", Exact            underlying storage: the state at N
//
// Served from the cache, pages (Predicate.Limit) are read at the cache's
// revision and their continue tokens are storage's own (EncodeContinue): a
// token is served from the cache while the cache's state is still the one
// it was issued at, and by the underlying storage, at the token's
// revision, once it has changed. A page is short only at the end, and
// RemainingItemCount is set when there is no selector. The result's
// objects are shared: do not modify them.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (Cacher.GetList).
func (c *Cacher) GetList(ctx context.Context, key string, opts storage.ListOptions) (*storage.ListResult, error) {
	if !servedFromCache(opts) || !c.holds(key) {
		return c.storage.GetList(ctx, key, opts)
	}
	rv, err := parseResourceVersion(key, opts.ResourceVersion)
	if err != nil {
		return nil, err
	}
	if err := c.ready.wait(ctx); err != nil {
		return nil, err
	}
	if err := c.waitUntilFresh(ctx, key, rv); err != nil {
		return nil, err
	}
	res, served, err := c.listFromCache(key, opts)
	if err != nil || served {
		return res, err
	}
	// A continue token from a state the cache no longer holds.
	return c.storage.GetList(ctx, key, opts)
}

// servedFromCache reports whether the cache may answer a list with opts.
func servedFromCache(opts storage.ListOptions) bool {
	if opts.ResourceVersion == "" {
		return false
	}
	switch opts.ResourceVersionMatch {
	case "", storage.ResourceVersionMatchNotOlderThan:
		return true
	}
	// Exact, or a value storage will reject.
	return false
}

// isObjectKey reports whether key can name an object of the cache:
// prefix/namespace/name or prefix/name, each a valid path segment.
func (c *Cacher) isObjectKey(key string) bool {
	rest, ok := strings.CutPrefix(key, c.resourcePrefix+"/")
	if !ok {
		return false
	}
	var built string
	var err error
	if ns, name, namespaced := strings.Cut(rest, "/"); namespaced {
		built, err = storage.NamespaceKey(c.resourcePrefix, ns, name)
	} else {
		built, err = storage.ClusterKey(c.resourcePrefix, rest)
	}
	return err == nil && built == key
}

// holds reports whether key is the resource prefix or under it.
func (c *Cacher) holds(key string) bool {
	k := "/" + strings.Trim(key, "/")
	return k == c.resourcePrefix || strings.HasPrefix(k, c.resourcePrefix+"/")
}

// listFromCache serves a list from the store; served is false when a
// continue token names a state the cache no longer has.
func (c *Cacher) listFromCache(key string, opts storage.ListOptions) (res *storage.ListResult, served bool, err error) {
	pred := opts.Predicate
	wc := c.watchCache
	wc.mu.RLock()
	defer wc.mu.RUnlock()
	res = &storage.ListResult{ResourceVersion: wc.resourceVersion}
	if !opts.Recursive {
		res.Items = []runtime.Object{}
		if e, ok := wc.store.get(key); ok && predicateMatches(pred, e) {
			res.Items = append(res.Items, e.Object)
		}
		return res, true, nil
	}
	// As storage: a recursive list of "/pods/default" must not return
	// "/pods/default2/x".
	listKey := "/" + strings.TrimPrefix(key, "/")
	if !strings.HasSuffix(listKey, "/") {
		listKey += "/"
	}
	from := listKey
	if pred.Continue != "" {
		fromKey, tokenRV, err := storage.DecodeContinue(pred.Continue, listKey)
		if err != nil {
			return nil, false, err
		}
		if tokenRV < wc.stateRV || tokenRV > wc.resourceVersion {
			return nil, false, nil
		}
		from, res.ResourceVersion = fromKey, tokenRV
	}

	capacity := 0
	if pred.Empty() {
		lo, hi := wc.store.keyRange(listKey, from)
		capacity = hi - lo
		if pred.Limit > 0 {
			capacity = min(capacity, int(pred.Limit))
		}
	}
	res.Items = make([]runtime.Object, 0, capacity)
	var lastKey string
	more := false
	for e := range wc.store.scan(listKey, from, pred.Field) {
		if !predicateMatches(pred, e) {
			continue
		}
		if pred.Limit > 0 && int64(len(res.Items)) == pred.Limit {
			more = true
			break
		}
		res.Items = append(res.Items, e.Object)
		lastKey = e.Key
	}
	if !more {
		return res, true, nil
	}
	// "\x00" is the smallest byte to append: the next page starts just
	// after the last key, as storage's tokens do.
	next := lastKey + "\x00"
	if res.Continue, err = storage.EncodeContinue(next, listKey, res.ResourceVersion); err != nil {
		return nil, false, err
	}
	if pred.Empty() {
		lo, hi := wc.store.keyRange(listKey, next)
		remaining := int64(hi - lo)
		res.RemainingItemCount = &remaining
	}
	return res, true, nil
}

// predicateMatches matches p's selectors against e's labels and fields,
// computed by Options.GetAttrs when e arrived.
func predicateMatches(p storage.Predicate, e *storeElement) bool {
	if p.Label != nil && !p.Label.Empty() && !p.Label.Matches(e.Labels) {
		return false
	}
	if p.Field != nil && !p.Field.Empty() && !p.Field.Matches(e.Fields) {
		return false
	}
	return true
}
