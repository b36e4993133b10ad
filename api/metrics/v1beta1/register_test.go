package v1beta1

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

func TestAddToScheme(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, AddToScheme(s))
	for _, kind := range []string{"NodeMetrics", "NodeMetricsList", "PodMetrics", "PodMetricsList"} {
		obj, err := s.New(SchemeGroupVersion.WithKind(kind))
		require.NoError(t, err, "New(%s)", kind)
		assert.Equal(t, runtime.TypeMeta{APIVersion: "metrics.k8s.io/v1beta1", Kind: kind}, *obj.GetTypeMeta())
	}
	nodes, ok := s.Resource(SchemeGroupVersion.WithResource("nodes"))
	require.True(t, ok)
	assert.False(t, nodes.Namespaced)
	assert.Equal(t, []string{"get", "list"}, nodes.Verbs, "metrics are read, never written or watched")
	pods, ok := s.Resource(SchemeGroupVersion.WithResource("pods"))
	require.True(t, ok)
	assert.True(t, pods.Namespaced)
	assert.Equal(t, "PodMetrics", pods.Kind)
}

func podMetrics() *PodMetrics {
	return &PodMetrics{
		TypeMeta:   metav1.TypeMeta{APIVersion: "metrics.k8s.io/v1beta1", Kind: "PodMetrics"},
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Timestamp:  metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)),
		Window:     metav1.Duration{Duration: 10 * time.Second},
		Containers: []ContainerMetrics{{Name: "server", Usage: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("73m"), corev1.ResourceMemory: resource.MustParse("32Mi"),
		}}},
	}
}

// TestPodMetricsJSON pins the wire shape metrics-server writes: the
// window is a duration string, the usage a map of quantities.
func TestPodMetricsJSON(t *testing.T) {
	b, err := json.Marshal(podMetrics())
	require.NoError(t, err)
	assert.JSONEq(t, `{"kind":"PodMetrics","apiVersion":"metrics.k8s.io/v1beta1",
		"metadata":{"name":"web","namespace":"shop"},
		"timestamp":"2026-01-02T03:04:00Z","window":"10s",
		"containers":[{"name":"server","usage":{"cpu":"73m","memory":"32Mi"}}]}`, string(b))
	var back PodMetrics
	require.NoError(t, json.Unmarshal(b, &back))
	assert.Equal(t, 10*time.Second, back.Window.Duration)
	assert.Error(t, json.Unmarshal([]byte(`{"window":"ten seconds"}`), &back), "a window that is no duration")
}

// TestPodMetricsProtobuf round-trips PodMetrics through protobuf, which
// client-go's typed clients ask for.
func TestPodMetricsProtobuf(t *testing.T) {
	in := podMetrics()
	b, err := runtime.EncodeProtobuf(in)
	require.NoError(t, err)
	// window is field 3, a Duration message {1: nanoseconds}, as
	// upstream's generated code writes it.
	assert.Contains(t, string(b), string([]byte{0x1a, 0x06, 0x08, 0x80, 0xc8, 0xaf, 0xa0, 0x25}), "window 10s")
	var out PodMetrics
	require.NoError(t, runtime.DecodeProtobuf(b, &out))
	assert.Equal(t, in.Window, out.Window)
	assert.True(t, in.Timestamp.Equal(out.Timestamp.Time))
	assert.Equal(t, in.Containers, out.Containers)
}
