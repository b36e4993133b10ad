package informer_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/labels"
)

func mustSelector(t *testing.T, s string) labels.Selector {
	t.Helper()
	sel, err := labels.Parse(s)
	require.NoError(t, err, "labels.Parse(%q)", s)
	return sel
}
