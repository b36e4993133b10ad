package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/resource"
)

// storedPod is validPod as read back from storage.
func storedPod() *corev1.Pod {
	p := validPod()
	p.UID = "uid-1"
	p.ResourceVersion = "10"
	return p
}

func TestValidatePodUpdate(t *testing.T) {
	tests := []struct {
		name      string
		mutateOld func(*corev1.Pod)
		mutateNew func(*corev1.Pod)
		want      []string
	}{
		{name: "no change", want: []string{}},
		{name: "labels", mutateNew: func(p *corev1.Pod) { p.Labels["v"] = "2" }, want: []string{}},
		{name: "container image", mutateNew: func(p *corev1.Pod) { p.Spec.Containers[0].Image = "nginx:1.28" }, want: []string{}},
		{name: "init container image", mutateNew: func(p *corev1.Pod) { p.Spec.InitContainers[0].Image = "busybox:1.37" }, want: []string{}},
		{name: "image with whitespace", mutateNew: func(p *corev1.Pod) { p.Spec.Containers[0].Image = " nginx" },
			want: []string{"FieldValueInvalid spec.containers[0].image"}},
		{name: "image removed", mutateNew: func(p *corev1.Pod) { p.Spec.Containers[0].Image = "" },
			want: []string{"FieldValueRequired spec.containers[0].image"}},
		{name: "activeDeadlineSeconds set", mutateNew: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(30)) }, want: []string{}},
		{name: "activeDeadlineSeconds lowered",
			mutateOld: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(30)) },
			mutateNew: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(10)) }, want: []string{}},
		{name: "activeDeadlineSeconds raised",
			mutateOld: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(30)) },
			mutateNew: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(60)) },
			want:      []string{"FieldValueInvalid spec.activeDeadlineSeconds"}},
		{name: "activeDeadlineSeconds unset",
			mutateOld: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(30)) },
			mutateNew: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = nil },
			want:      []string{"FieldValueInvalid spec.activeDeadlineSeconds"}},
		{name: "toleration added", mutateNew: func(p *corev1.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: "x", Operator: corev1.TolerationOpExists})
		}, want: []string{}},
		{name: "tolerationSeconds changed", mutateNew: func(p *corev1.Pod) { p.Spec.Tolerations[0].TolerationSeconds = ptrTo(int64(10)) },
			want: []string{}},
		{name: "toleration removed", mutateNew: func(p *corev1.Pod) { p.Spec.Tolerations = p.Spec.Tolerations[1:] },
			want: []string{"FieldValueForbidden spec.tolerations"}},
		{name: "toleration changed", mutateNew: func(p *corev1.Pod) { p.Spec.Tolerations[1].Value = "db" },
			want: []string{"FieldValueForbidden spec.tolerations"}},
		{name: "container added", mutateNew: func(p *corev1.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "b", Image: "b", ImagePullPolicy: "Always", TerminationMessagePolicy: "File"})
		}, want: []string{"FieldValueForbidden spec.containers"}},
		{name: "nodeName", mutateNew: func(p *corev1.Pod) { p.Spec.NodeName = "node-1" }, want: []string{"FieldValueForbidden spec"}},
		{name: "resources", mutateNew: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("200m")
		}, want: []string{"FieldValueForbidden spec"}},
		{name: "restartPolicy", mutateNew: func(p *corev1.Pod) { p.Spec.RestartPolicy = corev1.RestartPolicyNever },
			want: []string{"FieldValueForbidden spec"}},
		{name: "nil and empty are the same", mutateNew: func(p *corev1.Pod) {
			p.Spec.Volumes[1].ConfigMap.Items[0].Mode = nil
			p.Spec.HostAliases = []corev1.HostAlias{}
		},
			want: []string{}},
		{name: "same quantity spelled differently", mutateNew: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits[corev1.ResourceCPU] = resource.MustParse("1000m")
		}, want: []string{}},
		{name: "name", mutateNew: func(p *corev1.Pod) { p.Name = "web-1" }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "invalid label", mutateNew: func(p *corev1.Pod) { p.Labels["x"] = "-" }, want: []string{"FieldValueInvalid metadata.labels"}},
		{name: "invalid finalizer", mutateNew: func(p *corev1.Pod) { p.Finalizers = []string{"cleanup"} }, want: []string{"FieldValueInvalid metadata.finalizers"}},
		{name: "invalid new spec", mutateNew: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 0 },
			want: []string{"FieldValueRequired spec.containers[0].ports[0].containerPort", "FieldValueForbidden spec"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old := storedPod()
			if tc.mutateOld != nil {
				tc.mutateOld(old)
			}
			pod := old.DeepCopy()
			if tc.mutateNew != nil {
				tc.mutateNew(pod)
			}
			got := ValidatePodUpdate(pod, old)
			assert.Equal(t, tc.want, summary(got), "ValidatePodUpdate(%s): %v", tc.name, got)
		})
	}
}

func TestValidatePodUpdateMessage(t *testing.T) {
	old := storedPod()
	pod := old.DeepCopy()
	pod.Spec.NodeName = "node-1"
	pod.Spec.RestartPolicy = corev1.RestartPolicyNever
	errs := ValidatePodUpdate(pod, old)
	require.Len(t, errs, 1)
	assert.Equal(t, "spec", errs[0].Field)
	msg := errs[0].Error()
	assert.True(t, strings.HasPrefix(msg, "spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,"), msg)
	assert.True(t, strings.HasSuffix(msg, "\nchanged: spec.nodeName, spec.restartPolicy"), msg)
}

func TestValidatePodStatusUpdate(t *testing.T) {
	running := corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}
	exited := func(code int32) corev1.ContainerState {
		return corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}
	}
	tests := []struct {
		name      string
		mutateOld func(*corev1.Pod)
		mutateNew func(*corev1.Pod)
		want      []string
	}{
		{name: "running", mutateNew: func(p *corev1.Pod) {
			p.Status = corev1.PodStatus{
				Phase:      corev1.PodRunning,
				Conditions: []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}, {Type: "example.com/gate", Status: corev1.ConditionTrue}},
				PodIP:      "10.0.0.1", PodIPs: []corev1.PodIP{{IP: "10.0.0.1"}, {IP: "fd00::1"}},
				HostIPs:           []corev1.HostIP{{IP: "172.18.0.3"}},
				ContainerStatuses: []corev1.ContainerStatus{{Name: "web", State: running}},
			}
		}, want: []string{}},
		{name: "bad condition type", mutateNew: func(p *corev1.Pod) {
			p.Status.Conditions = []corev1.PodCondition{{Type: "not valid", Status: corev1.ConditionTrue}, {Status: corev1.ConditionTrue}}
		}, want: []string{"FieldValueInvalid status.conditions[0].type", "FieldValueRequired status.conditions[1].type"}},
		{name: "nodeName", mutateNew: func(p *corev1.Pod) { p.Spec.NodeName = "n" }, want: []string{"FieldValueForbidden status.nodeName"}},
		{name: "nominatedNodeName", mutateNew: func(p *corev1.Pod) { p.Status.NominatedNodeName = "Node_1" },
			want: []string{"FieldValueInvalid status.nominatedNodeName"}},
		{name: "bad pod IP", mutateNew: func(p *corev1.Pod) { p.Status.PodIPs = []corev1.PodIP{{IP: "x"}} },
			want: []string{"FieldValueInvalid status.podIPs[0]"}},
		{name: "two IPv4 pod IPs", mutateNew: func(p *corev1.Pod) { p.Status.PodIPs = []corev1.PodIP{{IP: "10.0.0.1"}, {IP: "10.0.0.2"}} },
			want: []string{"FieldValueInvalid status.podIPs"}},
		{name: "two IPv6 host IPs", mutateNew: func(p *corev1.Pod) { p.Status.HostIPs = []corev1.HostIP{{IP: "fd00::1"}, {IP: "fd00::2"}} },
			want: []string{"FieldValueInvalid status.hostIPs"}},
		{name: "restart after success under Never",
			mutateOld: func(p *corev1.Pod) {
				p.Spec.RestartPolicy = corev1.RestartPolicyNever
				p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: exited(0)}}
			},
			mutateNew: func(p *corev1.Pod) { p.Status.ContainerStatuses[0].State = running },
			want:      []string{"FieldValueForbidden status.containerStatuses[0].state"}},
		{name: "restart after failure under OnFailure",
			mutateOld: func(p *corev1.Pod) {
				p.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
				p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: exited(1)}}
			},
			mutateNew: func(p *corev1.Pod) { p.Status.ContainerStatuses[0].State = running },
			want:      []string{}},
		{name: "restart after success under OnFailure",
			mutateOld: func(p *corev1.Pod) {
				p.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
				p.Status.InitContainerStatuses = []corev1.ContainerStatus{{Name: "init", State: exited(0)}}
			},
			mutateNew: func(p *corev1.Pod) { p.Status.InitContainerStatuses[0].State = running },
			want:      []string{"FieldValueForbidden status.initContainerStatuses[0].state"}},
		{name: "restart under Always",
			mutateOld: func(p *corev1.Pod) {
				p.Status.ContainerStatuses = []corev1.ContainerStatus{{Name: "web", State: exited(0)}}
			},
			mutateNew: func(p *corev1.Pod) { p.Status.ContainerStatuses[0].State = running },
			want:      []string{}},
		{name: "uid", mutateNew: func(p *corev1.Pod) { p.UID = "other" }, want: []string{"FieldValueInvalid metadata.uid"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			old := storedPod()
			if tc.mutateOld != nil {
				tc.mutateOld(old)
			}
			pod := old.DeepCopy()
			if tc.mutateNew != nil {
				tc.mutateNew(pod)
			}
			got := ValidatePodStatusUpdate(pod, old)
			assert.Equal(t, tc.want, summary(got), "ValidatePodStatusUpdate(%s): %v", tc.name, got)
		})
	}
}
