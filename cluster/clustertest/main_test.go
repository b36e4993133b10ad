package clustertest_test

import (
	"testing"

	"github.com/minicp/minicp/cluster/clustertest"
)

func TestMain(m *testing.M) { clustertest.Main(m) }
