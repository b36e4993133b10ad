package framework_test

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/scheduler/framework"
	st "github.com/minicp/minicp/scheduler/framework/frameworktest"
)

type rl = map[corev1.ResourceName]string

const (
	mi  = 1024 * 1024
	gpu = corev1.ResourceName("example.com/gpu")
)

func TestPodRequests(t *testing.T) {
	tests := []struct {
		name        string
		pod         *corev1.Pod
		want        framework.Resource
		wantNonZero framework.Resource
	}{
		{
			name:        "no containers",
			pod:         st.MakePod().Obj(),
			want:        framework.Resource{},
			wantNonZero: framework.Resource{},
		},
		{
			name:        "best effort container counts the scoring defaults only when non-zero",
			pod:         st.MakePod().Req(nil).Obj(),
			want:        framework.Resource{},
			wantNonZero: framework.Resource{MilliCPU: 100, Memory: 200 * mi},
		},
		{
			name:        "explicit zero stays zero",
			pod:         st.MakePod().Req(rl{"cpu": "0", "memory": "0"}).Obj(),
			want:        framework.Resource{},
			wantNonZero: framework.Resource{},
		},
		{
			name:        "containers add up",
			pod:         st.MakePod().Req(rl{"cpu": "500m", "memory": "1Gi"}).Req(rl{"cpu": "1", "ephemeral-storage": "1Gi"}).Obj(),
			want:        framework.Resource{MilliCPU: 1500, Memory: 1024 * mi, EphemeralStorage: 1024 * mi},
			wantNonZero: framework.Resource{MilliCPU: 1500, Memory: 1224 * mi, EphemeralStorage: 1024 * mi},
		},
		{
			// Upstream's example in computePodResourceRequest.
			name: "init containers take the max",
			pod: st.MakePod().
				InitReq(rl{"cpu": "2", "memory": "1G"}).InitReq(rl{"cpu": "2", "memory": "3G"}).
				Req(rl{"cpu": "2", "memory": "1G"}).Req(rl{"cpu": "1", "memory": "1G"}).Obj(),
			want:        framework.Resource{MilliCPU: 3000, Memory: 3e9},
			wantNonZero: framework.Resource{MilliCPU: 3000, Memory: 3e9},
		},
		{
			// KEP-753: the sidecar runs next to the containers and next to
			// the init container after it: max(1+1, 1+3) = 4.
			name:        "sidecars add to containers and later init containers",
			pod:         st.MakePod().SidecarReq(rl{"cpu": "1"}).InitReq(rl{"cpu": "3"}).Req(rl{"cpu": "1"}).Obj(),
			want:        framework.Resource{MilliCPU: 4000},
			wantNonZero: framework.Resource{MilliCPU: 4000, Memory: 200 * mi * 2},
		},
		{
			name:        "init container before the sidecar does not count it",
			pod:         st.MakePod().InitReq(rl{"cpu": "3"}).SidecarReq(rl{"cpu": "1"}).Req(rl{"cpu": "1"}).Obj(),
			want:        framework.Resource{MilliCPU: 3000},
			wantNonZero: framework.Resource{MilliCPU: 3000, Memory: 200 * mi * 2},
		},
		{
			name:        "overhead is added and never defaulted",
			pod:         st.MakePod().Req(rl{"cpu": "1"}).Overhead(rl{"cpu": "250m", "memory": "64Mi"}).Obj(),
			want:        framework.Resource{MilliCPU: 1250, Memory: 64 * mi},
			wantNonZero: framework.Resource{MilliCPU: 1250, Memory: 264 * mi},
		},
		{
			name: "scalar resources, unknown native ones ignored",
			pod:  st.MakePod().Req(rl{"cpu": "1", gpu: "2", "hugepages-2Mi": "4Mi", "foo": "3", "pods": "7"}).Obj(),
			want: framework.Resource{MilliCPU: 1000, ScalarResources: map[corev1.ResourceName]int64{gpu: 2, "hugepages-2Mi": 4 * mi}},
			wantNonZero: framework.Resource{MilliCPU: 1000, Memory: 200 * mi,
				ScalarResources: map[corev1.ResourceName]int64{gpu: 2, "hugepages-2Mi": 4 * mi}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, framework.PodRequests(tc.pod, framework.PodRequestsOptions{}), "PodRequests")
			assert.Equal(t, tc.wantNonZero, framework.PodRequests(tc.pod, framework.PodRequestsOptions{NonZero: true}), "PodRequests(NonZero)")
		})
	}
}

func TestIsScalarResourceName(t *testing.T) {
	tests := []struct {
		name corev1.ResourceName
		want bool
	}{
		{"cpu", false},
		{"memory", false},
		{"example.com/gpu", true},
		{"nvidia.com/gpu", true},
		{"kubernetes.io/foo", true},
		{"hugepages-1Gi", true},
		{"attachable-volumes-csi-x", true},
		{"requests.example.com/gpu", false},
		{"foo", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, framework.IsScalarResourceName(tc.name), "IsScalarResourceName(%q)", tc.name)
	}
}

func TestResourceClone(t *testing.T) {
	r := framework.NewResource(st.ResourceList(rl{"cpu": "1", gpu: "1", "pods": "110"}))
	assert.Equal(t, framework.Resource{MilliCPU: 1000, AllowedPodNumber: 110, ScalarResources: map[corev1.ResourceName]int64{gpu: 1}}, r)
	c := r.Clone()
	c.ScalarResources[gpu] = 5
	assert.Equal(t, int64(1), r.ScalarResources[gpu], "Clone copies the scalar map")
}
