package storage

import "context"

// cacheableObjectsKey is the context key of WithCacheableObjects.
type cacheableObjectsKey struct{}

// WithCacheableObjects returns a context that asks a storage.Interface
// able to share serializations (the watch cache's Cacher) to send the
// objects of the watch events it dispatches as runtime.CacheableObject.
// A consumer that serializes them (the API server's watch handler) asks
// for it; every other consumer gets the objects themselves. Storage that
// cannot share serializations ignores it.
func WithCacheableObjects(ctx context.Context) context.Context {
	return context.WithValue(ctx, cacheableObjectsKey{}, true)
}

// CacheableObjectsRequested reports whether ctx was made by
// WithCacheableObjects.
func CacheableObjectsRequested(ctx context.Context) bool {
	v, _ := ctx.Value(cacheableObjectsKey{}).(bool)
	return v
}
