package apiserver

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/storage/storagetest"
)

// TestHandlerChainOrder pins the order of the request path: who a caller is
// is known before it is audited, audited before it is authorized, and
// authorized before any limit or handler sees the request.
func TestHandlerChainOrder(t *testing.T) {
	s, err := New(Options{Etcd: storagetest.Client(t), StoragePrefix: storagetest.Prefix(t), AnonymousAuth: true})
	require.NoError(t, err)
	var names []string
	for _, f := range s.filters {
		names = append(names, f.name)
	}
	assert.Equal(t, []string{"panic-recovery", "request-info", "tracing", "metrics", "authentication", "audit", "impersonation", "authorization", "limits"}, names)
}
