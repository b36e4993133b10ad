package v1

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/runtime/runtimetest"
)

func TestSetDefaultsPod(t *testing.T) {
	var pod Pod
	runtimetest.DecodeFile(t, "kubectl-run-pod.json", &pod)
	SetDefaults(&pod)

	spec := pod.Spec
	assert.Equal(t, RestartPolicyAlways, spec.RestartPolicy)
	assert.Equal(t, ptrTo(int64(30)), spec.TerminationGracePeriodSeconds)
	assert.Equal(t, DNSClusterFirst, spec.DNSPolicy)
	assert.Equal(t, "default-scheduler", spec.SchedulerName)
	assert.Equal(t, &PodSecurityContext{}, spec.SecurityContext)
	assert.Equal(t, ptrTo(true), spec.EnableServiceLinks)
	c := spec.Containers[0]
	assert.Equal(t, "/dev/termination-log", c.TerminationMessagePath)
	assert.Equal(t, TerminationMessageReadFile, c.TerminationMessagePolicy)
	assert.Equal(t, PullAlways, c.ImagePullPolicy, "untagged image")
	assert.Equal(t, PodPhase(""), pod.Status.Phase, "the phase is set by the pod strategy, not defaults")
}

func TestSetDefaultsPodManifest(t *testing.T) {
	var pod Pod
	runtimetest.DecodeFile(t, "pod-manifest.yaml", &pod)
	SetDefaults(&pod)
	spec := pod.Spec

	assert.Equal(t, ptrTo(int64(45)), spec.TerminationGracePeriodSeconds, "set values are kept")
	assert.Equal(t, "web", spec.DeprecatedServiceAccount, "serviceAccount follows serviceAccountName")

	web := spec.Containers[0]
	assert.Equal(t, PullIfNotPresent, web.ImagePullPolicy)
	assert.Equal(t, TerminationMessageFallbackToLogsOnError, web.TerminationMessagePolicy, "set values are kept")
	assert.Equal(t, ProtocolTCP, web.Ports[1].Protocol)
	assert.Equal(t, "v1", web.Env[1].ValueFrom.FieldRef.APIVersion)
	assert.Equal(t, resource.MustParse("250m"), web.Resources.Requests[ResourceCPU], "a request is kept")
	assert.Equal(t, resource.MustParse("1Gi"), web.Resources.Requests[ResourceEphemeralStorage], "a missing request is copied from its limit")

	live := web.LivenessProbe
	assert.Equal(t, int32(2), live.TimeoutSeconds)
	assert.Equal(t, int32(1), live.SuccessThreshold)
	ready := web.ReadinessProbe
	assert.Equal(t, int32(1), ready.TimeoutSeconds)
	assert.Equal(t, int32(5), ready.PeriodSeconds)
	assert.Equal(t, int32(1), ready.SuccessThreshold)
	assert.Equal(t, int32(3), ready.FailureThreshold)
	assert.Equal(t, int32(30), web.StartupProbe.FailureThreshold)
	preStop := web.Lifecycle.PreStop.HTTPGet
	assert.Equal(t, URISchemeHTTP, preStop.Scheme)
	assert.Equal(t, "/drain", preStop.Path)

	grpc := spec.Containers[1]
	assert.Equal(t, PullIfNotPresent, grpc.ImagePullPolicy, "digest without tag")
	assert.Equal(t, ptrTo(""), grpc.LivenessProbe.GRPC.Service)
	assert.Equal(t, int32(10), grpc.LivenessProbe.PeriodSeconds)
	assert.Equal(t, PullIfNotPresent, spec.InitContainers[0].ImagePullPolicy, "registry port is not a tag")

	vols := map[string]Volume{}
	for _, v := range spec.Volumes {
		vols[v.Name] = v
	}
	assert.Equal(t, &EmptyDirVolumeSource{}, vols["scratch"].EmptyDir, "no source means emptyDir")
	assert.Equal(t, ptrTo(int32(0o644)), vols["config"].ConfigMap.DefaultMode)
	assert.Equal(t, ptrTo(int32(0o440)), vols["certs"].Secret.DefaultMode, "set values are kept")
	assert.Equal(t, ptrTo(int32(0o644)), vols["podinfo"].DownwardAPI.DefaultMode)
	assert.Equal(t, "v1", vols["podinfo"].DownwardAPI.Items[0].FieldRef.APIVersion)
	assert.Equal(t, ptrTo(HostPathType("Directory")), vols["host"].HostPath.Type)
}

func TestDefaultPullPolicy(t *testing.T) {
	tests := []struct {
		image string
		want  PullPolicy
	}{
		{"nginx", PullAlways},
		{"nginx:latest", PullAlways},
		{"nginx:1.27", PullIfNotPresent},
		{"docker.io/library/nginx", PullAlways},
		{"localhost:5000/app", PullAlways},
		{"localhost:5000/app:v1", PullIfNotPresent},
		{"localhost:5000/app:latest", PullAlways},
		{"app@sha256:abc", PullIfNotPresent},
		{"app:latest@sha256:abc", PullAlways},
		{"app:v1@sha256:abc", PullIfNotPresent},
		{"", PullIfNotPresent},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, defaultPullPolicy(tc.image), "defaultPullPolicy(%q)", tc.image)
	}
}

func TestSetDefaultsPodHostNetworkAndLimits(t *testing.T) {
	pod := &Pod{Spec: PodSpec{
		HostNetwork: true,
		Containers: []Container{{
			Name: "c", Image: "i:1",
			Ports:     []ContainerPort{{ContainerPort: 53, Protocol: ProtocolUDP}, {ContainerPort: 80, HostPort: 8080}},
			Resources: ResourceRequirements{Limits: ResourceList{ResourceCPU: resource.MustParse("1"), ResourceMemory: resource.MustParse("1Gi")}},
		}},
		InitContainers: []Container{{Name: "init", Image: "i:1", Resources: ResourceRequirements{
			Limits:   ResourceList{ResourceCPU: resource.MustParse("2")},
			Requests: ResourceList{ResourceMemory: resource.MustParse("1Mi")},
		}}},
		DeprecatedServiceAccount: "legacy",
	}}
	SetDefaults(pod)
	c := pod.Spec.Containers[0]
	assert.Equal(t, int32(53), c.Ports[0].HostPort, "hostNetwork copies the container port")
	assert.Equal(t, ProtocolUDP, c.Ports[0].Protocol, "set protocol kept")
	assert.Equal(t, int32(8080), c.Ports[1].HostPort, "set host port kept")
	assert.Equal(t, c.Resources.Limits, c.Resources.Requests, "requests default to limits")
	init := pod.Spec.InitContainers[0]
	assert.Equal(t, ResourceList{ResourceCPU: resource.MustParse("2"), ResourceMemory: resource.MustParse("1Mi")}, init.Resources.Requests)
	assert.Equal(t, "legacy", pod.Spec.ServiceAccountName, "serviceAccount fills serviceAccountName")

	before := pod.DeepCopy()
	SetDefaults(pod)
	assert.Equal(t, before, pod, "SetDefaults is idempotent")
}

func TestSetDefaultsNamespace(t *testing.T) {
	var ns Namespace
	runtimetest.DecodeFile(t, "namespace.yaml", &ns)
	SetDefaults(&ns)
	assert.Equal(t, []FinalizerName{FinalizerKubernetes}, ns.Spec.Finalizers)
	assert.Equal(t, NamespaceActive, ns.Status.Phase)
	assert.Equal(t, "shop", ns.Labels[LabelMetadataName])
	assert.Equal(t, "payments", ns.Labels["team"])

	other := &Namespace{ObjectMeta: metav1.ObjectMeta{Name: "x"}, Spec: NamespaceSpec{Finalizers: []FinalizerName{"example.com/cleanup"}}}
	SetDefaults(other)
	assert.Equal(t, []FinalizerName{"example.com/cleanup", FinalizerKubernetes}, other.Spec.Finalizers)

	// The finalize request of the namespace controller carries the stored
	// creationTimestamp and an empty finalizer list: it must stay empty.
	finalized := &Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: "x", CreationTimestamp: metav1.NewTime(time.Unix(1, 0))},
		Status:     NamespaceStatus{Phase: NamespaceTerminating},
	}
	SetDefaults(finalized)
	assert.Empty(t, finalized.Spec.Finalizers, "no finalizer is added once created")
	assert.Equal(t, NamespaceTerminating, finalized.Status.Phase, "phase kept")

	generated := &Namespace{ObjectMeta: metav1.ObjectMeta{GenerateName: "ns-"}}
	SetDefaults(generated)
	assert.Nil(t, generated.Labels, "no name, no name label")
}

func TestSetDefaultsNode(t *testing.T) {
	node := &Node{Status: NodeStatus{Capacity: ResourceList{ResourceCPU: resource.MustParse("4"), ResourcePods: resource.MustParse("110")}}}
	SetDefaults(node)
	assert.Equal(t, node.Status.Capacity, node.Status.Allocatable)
	node.Status.Allocatable[ResourceCPU] = resource.MustParse("3")
	assert.Equal(t, "4", node.Status.Capacity.Cpu().String(), "allocatable is a copy")

	set := &Node{Status: NodeStatus{Capacity: ResourceList{ResourceCPU: resource.MustParse("4")}, Allocatable: ResourceList{ResourceCPU: resource.MustParse("3")}}}
	SetDefaults(set)
	assert.Equal(t, "3", set.Status.Allocatable.Cpu().String(), "set allocatable kept")
}

func TestSetDefaultsLists(t *testing.T) {
	objs := []runtime.Object{
		&PodList{Items: []Pod{{Spec: PodSpec{Containers: []Container{{Name: "c", Image: "i"}}}}}},
		&NamespaceList{Items: []Namespace{{ObjectMeta: metav1.ObjectMeta{Name: "n"}}}},
		&NodeList{Items: []Node{{Status: NodeStatus{Capacity: ResourceList{ResourcePods: resource.MustParse("1")}}}}},
	}
	for _, obj := range objs {
		SetDefaults(obj)
	}
	assert.Equal(t, RestartPolicyAlways, objs[0].(*PodList).Items[0].Spec.RestartPolicy)
	assert.Equal(t, NamespaceActive, objs[1].(*NamespaceList).Items[0].Status.Phase)
	require.NotNil(t, objs[2].(*NodeList).Items[0].Status.Allocatable)

	ev := &Event{Reason: "x"}
	SetDefaults(ev)
	assert.Equal(t, &Event{Reason: "x"}, ev, "events have no defaults")
}
