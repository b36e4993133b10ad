package watchcache

import (
	"context"
	"sync"

	"github.com/minicp/minicp/api/runtime"
)

// CachingObject is the object of a watch event as the Cacher sends it to
// watches that asked for it (WithCachingObjects): the shared object, with
// room for its serialization, so that the N watchers an event is
// dispatched to encode it once between them instead of N times.
//
// One is made per dispatched event and shared by the watchers it goes to;
// it is dropped with their events, so the cache's window never holds
// serializations. It is safe for concurrent use. Like every object of the
// cache, it and the object it wraps must not be modified.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (cachingObject), and
// k8s.io/apimachinery/pkg/runtime (CacheableObject).
type CachingObject struct {
	object runtime.Object

	once sync.Once
	data []byte
	err  error
}

var _ runtime.Object = (*CachingObject)(nil)

func newCachingObject(obj runtime.Object) *CachingObject {
	return &CachingObject{object: obj}
}

// GetObject returns the wrapped object, which is shared: do not modify it.
func (o *CachingObject) GetObject() runtime.Object { return o.object }

// GetTypeMeta implements runtime.Object: the wrapped object's, which must
// not be modified.
func (o *CachingObject) GetTypeMeta() *runtime.TypeMeta { return o.object.GetTypeMeta() }

// DeepCopyObject implements runtime.Object: a deep copy of the wrapped
// object, which the caller owns, without the serialization.
func (o *CachingObject) DeepCopyObject() runtime.Object { return o.object.DeepCopyObject() }

// CacheEncode returns encode(GetObject()), calling encode only the first
// time: every later call, from any watcher, gets the same bytes (or
// error). Callers must pass equivalent encode functions (the API server's
// JSON of the object); the bytes are shared and must not be modified.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (cachingObject.CacheEncode).
func (o *CachingObject) CacheEncode(encode func(runtime.Object) ([]byte, error)) ([]byte, error) {
	o.once.Do(func() { o.data, o.err = encode(o.object) })
	return o.data, o.err
}

// cachingObjectsKey is the context key of WithCachingObjects.
type cachingObjectsKey struct{}

// WithCachingObjects returns a context that makes a Cacher's Watch send the
// objects of the events it dispatches as *CachingObject, for a consumer
// that serializes them (the API server's watch handler) and unwraps them
// (GetObject) otherwise. The initial events of a watch, which no other
// watcher shares, carry the objects themselves. Other consumers, such as
// the storage conformance suite, get the objects themselves throughout.
func WithCachingObjects(ctx context.Context) context.Context {
	return context.WithValue(ctx, cachingObjectsKey{}, true)
}

// cachingObjectsFrom reports whether ctx asks for CachingObjects.
func cachingObjectsFrom(ctx context.Context) bool {
	v, _ := ctx.Value(cachingObjectsKey{}).(bool)
	return v
}
