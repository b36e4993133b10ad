package podsecurity_test

import (
	"testing"

	"github.com/minicp/minicp/storage/storagetest"
)

func TestMain(m *testing.M) { storagetest.Main(m) }
