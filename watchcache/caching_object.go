package watchcache

import (
	"sync"

	"github.com/minicp/minicp/api/runtime"
)

// cachingObject is the object of a watch event as the Cacher sends it to
// watches that asked for it (storage.WithCacheableObjects): the shared
// object, with room for its serializations, so that the N watchers an
// event is dispatched to encode it once per format between them instead
// of N times.
//
// One is made per dispatched event and shared by the watchers it goes to;
// it is dropped with their events, so the cache's window never holds
// serializations. It is safe for concurrent use. Like every object of the
// cache, it and the object it wraps must not be modified.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (cachingObject).
type cachingObject struct {
	object runtime.Object

	// mu guards serializations, which holds one entry per id asked for
	// (a watch stream's format: few, so a slice).
	mu             sync.Mutex
	serializations []*serialization
}

// serialization is one format of a cachingObject; once makes the first
// caller encode it while the others wait for the same bytes.
type serialization struct {
	id   string
	once sync.Once
	data []byte
	err  error
}

var _ runtime.CacheableObject = (*cachingObject)(nil)

func newCachingObject(obj runtime.Object) *cachingObject {
	return &cachingObject{object: obj}
}

// GetObject returns the wrapped object, which is shared: do not modify it.
func (o *cachingObject) GetObject() runtime.Object { return o.object }

// GetTypeMeta implements runtime.Object: the wrapped object's, which must
// not be modified.
func (o *cachingObject) GetTypeMeta() *runtime.TypeMeta { return o.object.GetTypeMeta() }

// DeepCopyObject implements runtime.Object: a deep copy of the wrapped
// object, which the caller owns, without the serializations.
func (o *cachingObject) DeepCopyObject() runtime.Object { return o.object.DeepCopyObject() }

// CacheEncode implements runtime.CacheableObject.
//
// Upstream: k8s.io/apiserver/pkg/storage/cacher (cachingObject.CacheEncode).
func (o *cachingObject) CacheEncode(id string, encode func(runtime.Object) ([]byte, error)) ([]byte, error) {
	o.mu.Lock()
	var s *serialization
	for _, e := range o.serializations {
		if e.id == id {
			s = e
			break
		}
	}
	if s == nil {
		s = &serialization{id: id}
		o.serializations = append(o.serializations, s)
	}
	// Encoding happens outside mu, so a slow format does not hold up
	// another format's watchers.
	o.mu.Unlock()
	s.once.Do(func() { s.data, s.err = encode(o.object) })
	return s.data, s.err
}
