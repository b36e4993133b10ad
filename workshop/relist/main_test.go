package relist

import (
	"testing"

	"github.com/minicp/minicp/workshop/workshoptest"
)

func TestMain(m *testing.M) { workshoptest.Main(m) }
