package kubelet

import (
	"testing"

	"github.com/stretchr/testify/assert"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

func TestGetPhase(t *testing.T) {
	waiting := corev1.ContainerStatus{State: corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "ContainerCreating"}}}
	runningCS := corev1.ContainerStatus{State: corev1.ContainerState{Running: &corev1.ContainerStateRunning{}}}
	exited := func(code int32) corev1.ContainerStatus {
		return corev1.ContainerStatus{State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: code}}}
	}
	backingOff := corev1.ContainerStatus{
		State:                corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}},
		LastTerminationState: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{ExitCode: 1}},
	}
	tests := []struct {
		name        string
		policy      corev1.RestartPolicy
		init, main  []corev1.ContainerStatus
		terminating bool
		want        corev1.PodPhase
	}{
		{name: "creating", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{waiting}, want: corev1.PodPending},
		{name: "running", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{runningCS}, want: corev1.PodRunning},
		{name: "one of two waits", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{runningCS, waiting}, want: corev1.PodPending},
		{name: "init running", policy: corev1.RestartPolicyAlways, init: []corev1.ContainerStatus{runningCS}, main: []corev1.ContainerStatus{waiting}, want: corev1.PodPending},
		{name: "init failed, Never", policy: corev1.RestartPolicyNever, init: []corev1.ContainerStatus{exited(1)}, main: []corev1.ContainerStatus{waiting}, want: corev1.PodFailed},
		{name: "init failed, OnFailure", policy: corev1.RestartPolicyOnFailure, init: []corev1.ContainerStatus{backingOff}, main: []corev1.ContainerStatus{waiting}, want: corev1.PodPending},
		{name: "crash loop, Always", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{backingOff}, want: corev1.PodRunning},
		{name: "exit 0, Always", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{exited(0)}, want: corev1.PodRunning},
		{name: "exit 0, OnFailure", policy: corev1.RestartPolicyOnFailure, main: []corev1.ContainerStatus{exited(0)}, want: corev1.PodSucceeded},
		{name: "exit 3, OnFailure", policy: corev1.RestartPolicyOnFailure, main: []corev1.ContainerStatus{exited(3)}, want: corev1.PodRunning},
		{name: "exit 3, Never", policy: corev1.RestartPolicyNever, main: []corev1.ContainerStatus{exited(3)}, want: corev1.PodFailed},
		{name: "one of two failed, Never", policy: corev1.RestartPolicyNever, main: []corev1.ContainerStatus{exited(0), exited(2)}, want: corev1.PodFailed},
		{name: "deleted, exit 0", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{exited(0)}, terminating: true, want: corev1.PodSucceeded},
		{name: "deleted, killed", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{exited(137)}, terminating: true, want: corev1.PodFailed},
		{name: "deleted before start", policy: corev1.RestartPolicyAlways, main: []corev1.ContainerStatus{waiting}, terminating: true, want: corev1.PodFailed},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{Spec: corev1.PodSpec{RestartPolicy: tc.policy}}
			assert.Equal(t, tc.want, getPhase(pod, tc.init, tc.main, tc.terminating), "getPhase(%s)", tc.name)
		})
	}
}

func TestExpand(t *testing.T) {
	vars := map[string]string{"A": "x", "B": "y y"}
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"$(A)", "x"},
		{"a-$(A)-$(B)", "a-x-y y"},
		{"$(UNKNOWN)", "$(UNKNOWN)"},
		{"$$(A)", "$(A)"},
		{"$A", "$A"},
		{"$(A", "$(A"},
		{"end$", "end$"},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, expand(tc.in, vars), "expand(%q)", tc.in)
	}
}
