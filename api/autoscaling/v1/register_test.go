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
	for _, kind := range []string{"HorizontalPodAutoscaler", "HorizontalPodAutoscalerList"} {
		_, err := s.New(SchemeGroupVersion.WithKind(kind))
		assert.NoError(t, err, "New(%s)", kind)
	}
	require.Len(t, s.Resources(), 1, "Scale is only a subresource's kind: horizontalpodautoscalers is the one resource")
	info := s.Resources()[0]
	assert.Equal(t, "horizontalpodautoscalers", info.GVR.Resource)
	assert.Equal(t, []string{"hpa"}, info.ShortNames)
	assert.Equal(t, []string{"all"}, info.Categories)
	assert.Equal(t, []string{"status"}, info.Subresources)
}
