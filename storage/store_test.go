package storage_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

// newStore returns a Widget store of its own on the shared etcd.
func newStore(t *testing.T) *storage.Store {
	t.Helper()
	s, err := storage.NewStore(storagetest.Client(t), storage.StoreOptions{
		Prefix:        storagetest.Prefix(t),
		GroupResource: storagetest.WidgetResource,
		NewFunc:       storagetest.NewWidget,
	})
	require.NoError(t, err, "NewStore")
	return s
}

func TestStore(t *testing.T) {
	storagetest.RunStorageTests(t, func(t *testing.T) storage.Interface { return newStore(t) })
}
