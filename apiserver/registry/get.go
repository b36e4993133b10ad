package registry

import (
	"context"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

// Get returns the object ns/name (ns is ignored for cluster-scoped
// resources), or NotFound.
func (s *Store) Get(ctx context.Context, ns, name string) (runtime.Object, error) {
	obj, err := s.Storage.Get(ctx, s.Key(ns, name), storage.GetOptions{})
	if err != nil {
		return nil, interpretGetError(err, s.GroupResource(), name)
	}
	return s.setTypeMeta(obj), nil
}
