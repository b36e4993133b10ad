package v1

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
)

func TestDecodeRoundTrip(t *testing.T) {
	tests := []struct {
		file string
		obj  runtime.Object
		// exact says the file is upstream output, so encoding must give it
		// back (modulo upstreamOnly). Hand-written manifests use other
		// spellings (quantities, octal modes) and are checked field by
		// field instead.
		exact bool
	}{
		{file: "pod-live.json", obj: &Pod{}, exact: true},
		{file: "kubectl-run-pod.json", obj: &Pod{}, exact: true},
		{file: "node-kubelet.json", obj: &Node{}, exact: true},
		{file: "event.json", obj: &Event{}, exact: true},
		{file: "namespace.yaml", obj: &Namespace{}, exact: true},
		{file: "pod-manifest.yaml", obj: &Pod{}},
	}
	for _, tc := range tests {
		t.Run(tc.file, func(t *testing.T) {
			data := runtimetest.DecodeFile(t, tc.file, tc.obj)
			out, err := runtime.Encode(tc.obj)
			require.NoError(t, err, "Encode(%s)", tc.file)

			// Encoding then decoding again gives the same object.
			again := reflect.New(reflect.TypeOf(tc.obj).Elem()).Interface().(runtime.Object)
			unknown, err := runtime.Decode(out, again)
			require.NoError(t, err, "Decode(Encode(%s))", tc.file)
			assert.Empty(t, unknown, "unknown fields in Encode(%s)", tc.file)
			assert.Equal(t, tc.obj, again, "Decode(Encode(%s))", tc.file)

			if tc.exact {
				want := upstreamOnly(runtimetest.ToGeneric(t, data))
				got := upstreamOnly(runtimetest.ToGeneric(t, out))
				assert.Equal(t, want, got, "Encode(Decode(%s)) differs from the upstream output", tc.file)
			}
		})
	}
}

func TestDecodeManifestFields(t *testing.T) {
	var pod Pod
	runtimetest.DecodeFile(t, "pod-manifest.yaml", &pod)
	spec := pod.Spec

	assert.Equal(t, "Pod", pod.Kind)
	assert.Equal(t, "shop", pod.Namespace)
	require.Len(t, spec.Containers, 2)
	require.Len(t, spec.InitContainers, 2)
	web := spec.Containers[0]
	assert.Equal(t, "nginx:1.27", web.Image)
	assert.Equal(t, resource.MustParse("250m"), web.Resources.Requests[ResourceCPU])
	assert.Equal(t, int64(1000), web.Resources.Limits.Cpu().MilliValue(), "limits.cpu: 1 decodes from a YAML number")
	assert.Equal(t, "128Mi", web.Resources.Limits.Memory().String())
	assert.Equal(t, "0", web.Resources.Requests.Pods().String(), "a missing resource is zero")
	assert.Equal(t, intstr.FromString("http"), web.LivenessProbe.HTTPGet.Port)
	assert.Equal(t, intstr.FromInt32(8080), web.ReadinessProbe.TCPSocket.Port)
	assert.Equal(t, []string{"cat", "/tmp/started"}, web.StartupProbe.Exec.Command)
	assert.Equal(t, "status.podIP", web.Env[2].ValueFrom.FieldRef.FieldPath)
	assert.Equal(t, "1m", web.Env[3].ValueFrom.ResourceFieldRef.Divisor.String())
	assert.Equal(t, "password", web.Env[5].ValueFrom.SecretKeyRef.Key)
	assert.Equal(t, "db", web.Env[5].ValueFrom.SecretKeyRef.Name)
	assert.Equal(t, []Capability{"ALL"}, web.SecurityContext.Capabilities.Drop)
	assert.Equal(t, ptrTo(ContainerRestartPolicyAlways), spec.InitContainers[1].RestartPolicy)

	aff := spec.Affinity
	require.NotNil(t, aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	term := aff.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution.NodeSelectorTerms[0]
	assert.Equal(t, NodeSelectorOpIn, term.MatchExpressions[0].Operator)
	assert.Equal(t, "metadata.name", term.MatchFields[0].Key)
	assert.Equal(t, int32(10), aff.NodeAffinity.PreferredDuringSchedulingIgnoredDuringExecution[0].Weight)
	assert.Equal(t, "kubernetes.io/hostname", aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].TopologyKey)
	assert.Equal(t, "In", aff.PodAntiAffinity.RequiredDuringSchedulingIgnoredDuringExecution[0].LabelSelector.MatchExpressions[0].Operator)

	require.Len(t, spec.Tolerations, 2)
	assert.Equal(t, TolerationOpExists, spec.Tolerations[0].Operator)
	assert.Equal(t, ptrTo(int64(300)), spec.Tolerations[0].TolerationSeconds)
	assert.Equal(t, TaintEffectNoSchedule, spec.Tolerations[1].Effect)

	vols := map[string]Volume{}
	for _, v := range spec.Volumes {
		vols[v.Name] = v
	}
	assert.Equal(t, "web-data", vols["data"].PersistentVolumeClaim.ClaimName)
	assert.Equal(t, ptrTo(int32(0o400)), vols["config"].ConfigMap.Items[0].Mode, "YAML 0400 is octal")
	assert.Equal(t, "256Mi", vols["logs"].EmptyDir.SizeLimit.String())
	assert.Equal(t, ptrTo(HostPathType("Directory")), vols["host"].HostPath.Type)
	assert.Equal(t, VolumeSource{}, vols["scratch"].VolumeSource, "a volume with no source decodes empty")
}

func TestDecodeReportsUnknownFields(t *testing.T) {
	data := []byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"x"},
		"spec":{"containers":[{"name":"c","image":"i","imagePullSecret":"typo"}],"nodeNmae":"n"}}`)
	var pod Pod
	unknown, err := runtime.Decode(data, &pod)
	require.NoError(t, err)
	assert.Equal(t, []string{"spec.containers[0].imagePullSecret", "spec.nodeNmae"}, unknown)
}

func TestKubeletNodeFields(t *testing.T) {
	var node Node
	runtimetest.DecodeFile(t, "node-kubelet.json", &node)
	assert.Equal(t, int32(10250), node.Status.DaemonEndpoints.KubeletEndpoint.Port)
	assert.Equal(t, "v1.31.0", node.Status.NodeInfo.KubeletVersion)
	assert.Equal(t, int64(8000), node.Status.Allocatable.Cpu().MilliValue())
	assert.Equal(t, int64(110), node.Status.Capacity.Pods().Value())
	assert.Equal(t, int64(32761220*1024), node.Status.Allocatable.Memory().Value())
	assert.Equal(t, NodeInternalIP, node.Status.Addresses[0].Type)
	assert.Equal(t, TaintEffectNoSchedule, node.Spec.Taints[0].Effect)
	ready := node.Status.Conditions[3]
	assert.Equal(t, NodeReady, ready.Type)
	assert.Equal(t, ConditionTrue, ready.Status)
	assert.False(t, ready.LastHeartbeatTime.IsZero())
}

// upstreamOnly is runtimetest.UpstreamOnly with the keys under which
// upstream writes the core group's empty objects.
func upstreamOnly(v any) any {
	return runtimetest.UpstreamOnly(v, "resources", "status", "spec", "lastState", "loadBalancer")
}
