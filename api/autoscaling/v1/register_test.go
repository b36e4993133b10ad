package v1

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/runtime"
)

func TestAddToScheme(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, AddToScheme(s))
	obj, err := s.New(SchemeGroupVersion.WithKind("Scale"))
	require.NoError(t, err)
	assert.Equal(t, runtime.TypeMeta{APIVersion: "autoscaling/v1", Kind: "Scale"}, *obj.GetTypeMeta())
	assert.Empty(t, s.Resources(), "Scale is only a subresource's kind: autoscaling/v1 has no resource in minicp")
}
