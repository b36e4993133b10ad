package storage_test

import (
	"testing"

	"github.com/minicp/minicp/storage/storagetest"
)

// The tests of package storage are in package storage_test: storagetest
// imports storage, so only an external test package can use it.
func TestMain(m *testing.M) { storagetest.Main(m) }
