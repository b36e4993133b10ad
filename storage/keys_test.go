package storage_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
)

func TestKeyFunc(t *testing.T) {
	tests := []struct {
		name       string
		namespaced bool
		ns, obj    string
		want       string
		wantErr    bool
	}{
		{"namespaced", true, "default", "web", "/pods/default/web", false},
		{"cluster-scoped", false, "", "n1", "/pods/n1", false},
		{"cluster-scoped ignores ns", false, "default", "n1", "/pods/n1", false},
		{"namespaced without ns", true, "", "web", "", true},
		{"empty name", true, "default", "", "", true},
		{"dot", true, "default", ".", "", true},
		{"dot dot", false, "", "..", "", true},
		{"slash in name", true, "default", "a/b", "", true},
		{"slash in ns", true, "a/b", "web", "", true},
		{"percent", true, "default", "a%2F", "", true},
		{"dot dot ns", true, "..", "web", "", true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := storage.NewKeyFunc("/pods", tc.namespaced)(tc.ns, tc.obj)
			if tc.wantErr {
				require.ErrorIs(t, err, storage.ErrInvalidKey, "key of %q/%q", tc.ns, tc.obj)
				return
			}
			require.NoError(t, err, "key of %q/%q", tc.ns, tc.obj)
			assert.Equal(t, tc.want, got, "key of %q/%q", tc.ns, tc.obj)
		})
	}
}

func TestNamespaceRootKey(t *testing.T) {
	assert.Equal(t, "/pods/default", storage.NamespaceRootKey("/pods", "default"), "one namespace")
	assert.Equal(t, "/pods", storage.NamespaceRootKey("/pods", ""), "every namespace")
}

func TestResourcePrefix(t *testing.T) {
	tests := []struct {
		gr   runtime.GroupResource
		want string
	}{
		{runtime.GroupResource{Resource: "pods"}, "/pods"},
		{runtime.GroupResource{Group: "apps", Resource: "deployments"}, "/deployments.apps"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, storage.ResourcePrefix(tc.gr), "ResourcePrefix(%v)", tc.gr)
	}
}
