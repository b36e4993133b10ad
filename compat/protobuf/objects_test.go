package protobuf

import (
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
)

func ptr[T any](v T) *T { return &v }

var created = metav1.NewTime(time.Unix(1718000000, 0))

// webPod is a Pod as a Deployment's ReplicaSet would create it once
// scheduled and running: containers with resources, env, ports and probes,
// tolerations and affinity.
func webPod() *corev1.Pod {
	return &corev1.Pod{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Pod"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "web-7c9f8-abcde", GenerateName: "web-7c9f8-", Namespace: "default",
			UID: "6f1c2d3e-0000-4000-8000-000000000001", ResourceVersion: "4242", Generation: 1,
			CreationTimestamp: created,
			Labels:            map[string]string{"app": "web", "pod-template-hash": "7c9f8"},
			Annotations:       map[string]string{"kubectl.kubernetes.io/restartedAt": "2024-06-10T06:13:20Z"},
			OwnerReferences: []metav1.OwnerReference{{
				APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web-7c9f8",
				UID: "6f1c2d3e-0000-4000-8000-000000000002", Controller: ptr(true), BlockOwnerDeletion: ptr(true),
			}},
		},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{{Name: "cache", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{SizeLimit: ptr(resource.MustParse("1Gi"))}}}},
			Containers: []corev1.Container{{
				Name: "web", Image: "nginx:1.27", Command: []string{"nginx"}, Args: []string{"-g", "daemon off;"},
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80, Protocol: corev1.ProtocolTCP}},
				Env: []corev1.EnvVar{
					{Name: "MODE", Value: "production"},
					{Name: "POD_IP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "status.podIP"}}},
					{Name: "CPU_LIMIT", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu", Divisor: resource.MustParse("1m")}}},
				},
				Resources: corev1.ResourceRequirements{
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m"), corev1.ResourceMemory: resource.MustParse("256Mi")},
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("128Mi")},
				},
				VolumeMounts: []corev1.VolumeMount{{Name: "cache", MountPath: "/var/cache/nginx"}},
				LivenessProbe: &corev1.Probe{
					ProbeHandler:        corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/healthz", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}},
					InitialDelaySeconds: 5, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3,
				},
				ReadinessProbe: &corev1.Probe{
					ProbeHandler:   corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}},
					TimeoutSeconds: 1, PeriodSeconds: 5, SuccessThreshold: 1, FailureThreshold: 3,
				},
				TerminationMessagePath:   corev1.TerminationMessagePathDefault,
				TerminationMessagePolicy: corev1.TerminationMessageReadFile,
				ImagePullPolicy:          corev1.PullIfNotPresent,
			}},
			RestartPolicy:                 corev1.RestartPolicyAlways,
			TerminationGracePeriodSeconds: ptr(int64(30)),
			DNSPolicy:                     corev1.DNSClusterFirst,
			NodeSelector:                  map[string]string{"kubernetes.io/os": "linux"},
			ServiceAccountName:            "default", DeprecatedServiceAccount: "default",
			NodeName:           "node-1",
			SecurityContext:    &corev1.PodSecurityContext{RunAsNonRoot: ptr(true), SupplementalGroups: []int64{1000, 2000}},
			SchedulerName:      corev1.DefaultSchedulerName,
			EnableServiceLinks: ptr(true),
			PreemptionPolicy:   ptr(corev1.PreemptLowerPriority),
			Priority:           ptr(int32(0)),
			Affinity: &corev1.Affinity{
				NodeAffinity: &corev1.NodeAffinity{
					RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{NodeSelectorTerms: []corev1.NodeSelectorTerm{{
						MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "topology.kubernetes.io/zone", Operator: corev1.NodeSelectorOpIn, Values: []string{"a", "b"}}},
					}}},
				},
				PodAntiAffinity: &corev1.PodAntiAffinity{
					PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
						Weight: 100,
						PodAffinityTerm: corev1.PodAffinityTerm{
							LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
							TopologyKey:   corev1.LabelHostname,
						},
					}},
				},
			},
			Tolerations: []corev1.Toleration{
				{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
				{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr(int64(300))},
			},
		},
		Status: corev1.PodStatus{
			Phase: corev1.PodRunning,
			Conditions: []corev1.PodCondition{
				{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: created},
				{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(created.Add(3 * time.Second))},
			},
			HostIP: "10.0.0.11", HostIPs: []corev1.HostIP{{IP: "10.0.0.11"}},
			PodIP: "10.244.1.7", PodIPs: []corev1.PodIP{{IP: "10.244.1.7"}},
			StartTime: ptr(created),
			ContainerStatuses: []corev1.ContainerStatus{{
				Name:  "web",
				State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(created.Add(2 * time.Second))}},
				Ready: true, Image: "nginx:1.27", ImageID: "docker.io/library/nginx@sha256:0123",
				ContainerID: "containerd://abc", Started: ptr(true),
			}},
			QOSClass: corev1.PodQOSBurstable,
		},
	}
}

// kubeletNode is a Node as a kubelet registers it and reports its status.
func kubeletNode() *corev1.Node {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:              resource.MustParse("4"),
		corev1.ResourceMemory:           resource.MustParse("16302084Ki"),
		corev1.ResourcePods:             resource.MustParse("110"),
		corev1.ResourceEphemeralStorage: resource.MustParse("100Gi"),
	}
	allocatable := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("3900m"),
		corev1.ResourceMemory: resource.MustParse("15Gi"),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
	return &corev1.Node{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Node"},
		ObjectMeta: metav1.ObjectMeta{
			Name: "node-1", UID: "6f1c2d3e-0000-4000-8000-000000000003", ResourceVersion: "77",
			CreationTimestamp: created,
			Labels:            map[string]string{corev1.LabelHostname: "node-1", corev1.LabelOSStable: "linux", corev1.LabelArchStable: "amd64"},
		},
		Spec: corev1.NodeSpec{
			PodCIDR: "10.244.1.0/24", PodCIDRs: []string{"10.244.1.0/24"},
			Taints: []corev1.Taint{{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoExecute, TimeAdded: ptr(created)}},
		},
		Status: corev1.NodeStatus{
			Capacity: capacity, Allocatable: allocatable,
			Conditions: []corev1.NodeCondition{{
				Type: corev1.NodeReady, Status: corev1.ConditionTrue,
				LastHeartbeatTime: metav1.NewTime(created.Add(time.Minute)), LastTransitionTime: created,
				Reason: "KubeletReady", Message: "kubelet is posting ready status",
			}},
			Addresses:       []corev1.NodeAddress{{Type: corev1.NodeInternalIP, Address: "10.0.0.11"}, {Type: corev1.NodeHostName, Address: "node-1"}},
			DaemonEndpoints: corev1.NodeDaemonEndpoints{KubeletEndpoint: corev1.DaemonEndpoint{Port: 10250}},
			NodeInfo: corev1.NodeSystemInfo{
				MachineID: "m", SystemUUID: "u", BootID: "b", KernelVersion: "6.8.0", OSImage: "minicp",
				ContainerRuntimeVersion: "minicp://0.1", KubeletVersion: "v1.33.0", OperatingSystem: "linux", Architecture: "amd64",
			},
			Images: []corev1.ContainerImage{{Names: []string{"nginx:1.27"}, SizeBytes: 72_000_000}},
		},
	}
}

// notFoundStatus is the Status a GET of a missing pod answers.
func notFoundStatus() *metav1.Status {
	return &metav1.Status{
		TypeMeta: metav1.TypeMeta{APIVersion: "v1", Kind: "Status"},
		Status:   metav1.StatusFailure, Message: `pods "web" not found`, Reason: metav1.StatusReasonNotFound,
		Details: &metav1.StatusDetails{Name: "web", Kind: "pods", Causes: []metav1.StatusCause{{Type: metav1.CauseTypeFieldValueNotFound, Field: "metadata.name", Message: "not found"}}},
		Code:    404,
	}
}

// foregroundDelete is the body of kubectl delete --cascade=foreground
// --grace-period=0 with preconditions.
func foregroundDelete() *metav1.DeleteOptions {
	return &metav1.DeleteOptions{
		TypeMeta:           metav1.TypeMeta{APIVersion: "meta.k8s.io/v1", Kind: "DeleteOptions"},
		GracePeriodSeconds: ptr(int64(0)),
		Preconditions:      &metav1.Preconditions{UID: ptr("6f1c2d3e-0000-4000-8000-000000000001"), ResourceVersion: ptr("4242")},
		PropagationPolicy:  ptr(metav1.DeletePropagationForeground),
		DryRun:             []string{"All"},
	}
}
