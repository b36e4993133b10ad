package admission_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/apiserver/admission"
)

// limitRanges is a LimitRangeLister over a fixed list.
type limitRanges []*corev1.LimitRange

func (l limitRanges) ListLimitRanges(context.Context, string) ([]*corev1.LimitRange, error) {
	return l, nil
}

func resources(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

func podWith(name string, requests, limits corev1.ResourceList) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "main", Image: "nginx",
			Resources: corev1.ResourceRequirements{Requests: requests, Limits: limits}}}},
	}
}

func podCreate(pod *corev1.Pod) *admission.Attributes {
	return &admission.Attributes{Operation: admission.Create, Resource: podsResource, Namespace: pod.Namespace, Name: pod.Name, Object: pod}
}

func TestLimitRangerDefaults(t *testing.T) {
	l := &admission.LimitRanger{LimitRanges: limitRanges{{
		ObjectMeta: metav1.ObjectMeta{Name: "cpu", Namespace: "default"},
		Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{{
			Type: corev1.LimitTypeContainer, DefaultRequest: resources("cpu", "100m", "memory", "64Mi"), Default: resources("cpu", "200m"),
		}}},
	}}}
	pod := podWith("web", nil, resources("memory", "128Mi"))
	require.NoError(t, l.Admit(t.Context(), podCreate(pod)))
	c := pod.Spec.Containers[0]
	assert.Equal(t, resources("cpu", "100m", "memory", "64Mi"), c.Resources.Requests)
	assert.Equal(t, resources("cpu", "200m", "memory", "128Mi"), c.Resources.Limits, "the container's own limit stays")
	assert.Equal(t, "LimitRanger plugin set: cpu, memory request for container main; cpu limit for container main",
		pod.Annotations["kubernetes.io/limit-ranger"])

	bare := podWith("bare", nil, nil)
	bare.Spec.InitContainers = []corev1.Container{{Name: "init", Image: "busybox"}}
	require.NoError(t, l.Admit(t.Context(), podCreate(bare)))
	assert.Equal(t, "LimitRanger plugin set: cpu, memory request for init container init; cpu limit for init container init; "+
		"cpu, memory request for container main; cpu limit for container main", bare.Annotations["kubernetes.io/limit-ranger"])

	status := &admission.Attributes{Operation: admission.Create, Resource: podsResource, Subresource: "status", Object: podWith("s", nil, nil)}
	require.NoError(t, l.Admit(t.Context(), status))
	assert.Nil(t, status.Object.(*corev1.Pod).Spec.Containers[0].Resources.Requests, "subresources are left alone")
}

func TestLimitRangerBounds(t *testing.T) {
	l := &admission.LimitRanger{LimitRanges: limitRanges{{
		ObjectMeta: metav1.ObjectMeta{Name: "bounds", Namespace: "default"},
		Spec: corev1.LimitRangeSpec{Limits: []corev1.LimitRangeItem{
			{Type: corev1.LimitTypeContainer, Min: resources("cpu", "50m"), Max: resources("cpu", "1"), MaxLimitRequestRatio: resources("cpu", "4")},
			{Type: corev1.LimitTypePod, Max: resources("memory", "1Gi")},
		}},
	}}}
	tests := []struct {
		name             string
		requests, limits corev1.ResourceList
		want             string
	}{
		{name: "within", requests: resources("cpu", "100m"), limits: resources("cpu", "200m", "memory", "512Mi")},
		{name: "over max", requests: resources("cpu", "500m"), limits: resources("cpu", "2", "memory", "512Mi"),
			want: `pods "p" is forbidden: maximum cpu usage per Container is 1, but limit is 2`},
		{name: "under min", requests: resources("cpu", "10m"), limits: resources("cpu", "20m", "memory", "512Mi"),
			want: `pods "p" is forbidden: minimum cpu usage per Container is 50m, but request is 10m`},
		{name: "no limit", requests: resources("cpu", "100m"), limits: resources("memory", "512Mi"),
			want: `pods "p" is forbidden: [maximum cpu usage per Container is 1.  No limit is specified, cpu max limit to request ratio per Container is 4, but no limit is specified or limit is 0]`},
		{name: "ratio", requests: resources("cpu", "100m"), limits: resources("cpu", "500m", "memory", "512Mi"),
			want: `pods "p" is forbidden: cpu max limit to request ratio per Container is 4, but provided ratio is 5.000000`},
		{name: "pod max", requests: resources("cpu", "100m"), limits: resources("cpu", "200m", "memory", "2Gi"),
			want: `pods "p" is forbidden: maximum memory usage per Pod is 1Gi, but limit is 2Gi`},
	}
	for _, tc := range tests {
		err := l.Validate(t.Context(), podCreate(podWith("p", tc.requests, tc.limits)))
		if tc.want == "" {
			assert.NoError(t, err, tc.name)
			continue
		}
		require.Error(t, err, tc.name)
		assert.True(t, apierrors.IsForbidden(err), "%s: %v", tc.name, err)
		assert.Equal(t, tc.want, err.Error(), tc.name)
	}
}
