package v1

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
)

func TestDeepCopyIndependence(t *testing.T) {
	var pod Pod
	runtimetest.DecodeFile(t, "pod-manifest.yaml", &pod)
	var live Pod
	runtimetest.DecodeFile(t, "pod-live.json", &live)
	var node Node
	runtimetest.DecodeFile(t, "node-kubelet.json", &node)
	var ns Namespace
	runtimetest.DecodeFile(t, "namespace.yaml", &ns)
	var ev Event
	runtimetest.DecodeFile(t, "event.json", &ev)

	tests := []struct {
		name   string
		obj    runtime.Object
		mutate func(runtime.Object)
	}{
		{name: "pod spec", obj: &pod, mutate: func(o runtime.Object) {
			p := o.(*Pod)
			p.Labels["tier"] = "changed"
			p.Spec.Containers[0].Env[1].ValueFrom.FieldRef.FieldPath = "changed"
			p.Spec.Containers[0].Resources.Limits[ResourceCPU] = resource.MustParse("9")
			p.Spec.Containers[0].LivenessProbe.HTTPGet.HTTPHeaders[0].Value = "changed"
			*p.Spec.TerminationGracePeriodSeconds = 1
			p.Spec.Affinity.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0].MatchExpressions[0].Values[0] = "changed"
			p.Spec.Affinity.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions[0].Values[0] = "changed"
			*p.Spec.Tolerations[0].TolerationSeconds = 1
			p.Spec.Volumes[0].PersistentVolumeClaim.ClaimName = "changed"
			p.Spec.NodeSelector["kubernetes.io/os"] = "changed"
		}},
		{name: "pod status", obj: &live, mutate: func(o runtime.Object) {
			p := o.(*Pod)
			p.OwnerReferences[0].Name = "changed"
			*p.OwnerReferences[0].Controller = false
			p.Status.Conditions[0].Status = ConditionFalse
			p.Status.ContainerStatuses[0].State.Running.StartedAt.Time = p.Status.ContainerStatuses[0].State.Running.StartedAt.AddDate(1, 0, 0)
			p.Status.ContainerStatuses[0].User.Linux.SupplementalGroups[0] = 7
			p.Status.StartTime.Time = p.Status.StartTime.AddDate(1, 0, 0)
		}},
		{name: "node", obj: &node, mutate: func(o runtime.Object) {
			n := o.(*Node)
			n.Status.Capacity[ResourcePods] = resource.MustParse("1")
			n.Status.Images[0].Names[0] = "changed"
			n.Spec.Taints[0].Value = "changed"
			n.ManagedFields[0].FieldsV1.Raw[0] = '['
			*n.Status.RuntimeHandlers[0].Features.RecursiveReadOnlyMounts = false
		}},
		{name: "namespace", obj: &ns, mutate: func(o runtime.Object) {
			o.(*Namespace).Annotations["owner"] = "changed"
		}},
		{name: "event", obj: &ev, mutate: func(o runtime.Object) {
			o.(*Event).InvolvedObject.Name = "changed"
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			before, err := runtime.Encode(tc.obj)
			require.NoError(t, err)
			cp := tc.obj.DeepCopyObject()
			assert.Equal(t, tc.obj, cp, "DeepCopyObject of %s is equal", tc.name)
			tc.mutate(cp)
			after, err := runtime.Encode(tc.obj)
			require.NoError(t, err)
			assert.JSONEq(t, string(before), string(after), "mutating the copy of %s changed the original", tc.name)
			assert.NotEqual(t, tc.obj, cp, "the mutation of %s took effect on the copy", tc.name)
		})
	}
}

func TestDeepCopyNil(t *testing.T) {
	var p *Pod
	assert.Nil(t, p.DeepCopy())
	assert.Nil(t, p.DeepCopyObject(), "a nil pod copies to a nil Object, not a typed nil")
	var l *NodeList
	assert.Nil(t, l.DeepCopyObject())
}

func TestDeepCopyList(t *testing.T) {
	list := &PodList{Items: []Pod{{Spec: PodSpec{Containers: []Container{{Name: "a"}}}}}}
	list.ResourceVersion = "5"
	cp := list.DeepCopy()
	cp.Items[0].Spec.Containers[0].Name = "b"
	assert.Equal(t, "a", list.Items[0].Spec.Containers[0].Name)
	assert.Equal(t, "5", cp.ResourceVersion)
}

// BenchmarkDeepCopyPod copies a running pod as the API server and the
// informers do on every update:
//
//	go test -run='^$' -bench=BenchmarkDeepCopyPod -benchmem ./api/core/v1/
func BenchmarkDeepCopyPod(b *testing.B) {
	var pod Pod
	runtimetest.DecodeFile(b, "pod-live.json", &pod)
	b.ReportAllocs()
	for b.Loop() {
		_ = pod.DeepCopy()
	}
}
