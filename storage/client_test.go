package storage_test

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

func TestNewClient(t *testing.T) {
	endpoints := storagetest.Endpoints(t)
	client, err := storage.NewClient(t.Context(), endpoints)
	require.NoError(t, err, "NewClient(%v)", endpoints)
	defer client.Close()
	_, err = client.Put(t.Context(), storagetest.Prefix(t)+"/k", "v")
	assert.NoError(t, err, "Put through a NewClient client")
}

func TestNewClientFails(t *testing.T) {
	_, err := storage.NewClient(t.Context(), nil)
	assert.Error(t, err, "NewClient without endpoints")

	// Nothing listens on port 1, so the check can only end by the deadline;
	// 200ms keeps the test short.
	ctx, cancel := context.WithTimeout(t.Context(), 200*time.Millisecond)
	defer cancel()
	_, err = storage.NewClient(ctx, []string{"http://127.0.0.1:1"})
	assert.Error(t, err, "NewClient on a closed port")
}
