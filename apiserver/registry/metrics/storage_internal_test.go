package metrics

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	statsv1alpha1 "github.com/minicp/minicp/api/stats/v1alpha1"
)

func TestKeyParts(t *testing.T) {
	const root = "/pods.metrics.k8s.io"
	tests := []struct {
		key  string
		want []string
	}{
		{root, nil},
		{root + "/default", []string{"default"}},
		{root + "/default/web", []string{"default", "web"}},
	}
	for _, tc := range tests {
		got, err := keyParts(root, tc.key)
		require.NoError(t, err, "keyParts(%q)", tc.key)
		assert.Equal(t, tc.want, got, "keyParts(%q)", tc.key)
	}
	for _, key := range []string{"/pods/default/web", root + "x/default"} {
		_, err := keyParts(root, key)
		assert.True(t, apierrors.IsBadRequest(err), "keyParts(%q): %v", key, err)
	}
}

func TestUsageList(t *testing.T) {
	nano, ws := uint64(1_500_001), uint64(3<<20)
	usage, ok := usageList(&statsv1alpha1.CPUStats{UsageNanoCores: &nano}, &statsv1alpha1.MemoryStats{WorkingSetBytes: &ws})
	require.True(t, ok)
	assert.Equal(t, "2m", usage.Cpu().String(), "a part of a millicore rounds up")
	assert.Equal(t, "3Mi", usage.Memory().String())
	_, ok = usageList(&statsv1alpha1.CPUStats{UsageNanoCores: &nano}, nil)
	assert.False(t, ok, "memory missing")
	_, ok = usageList(&statsv1alpha1.CPUStats{}, &statsv1alpha1.MemoryStats{WorkingSetBytes: &ws})
	assert.False(t, ok, "CPU missing")
}
