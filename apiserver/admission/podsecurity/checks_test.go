package podsecurity_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/apiserver/admission/podsecurity"
)

// checkCase is a pod changed by mutate, and the violation its level
// reports ("" when the pod is allowed).
type checkCase struct {
	name   string
	mutate func(p *corev1.Pod)
	want   string
}

// runChecks enforces level on every case, starting from base.
func runChecks(t *testing.T, level podsecurity.Level, base func(ns string) *corev1.Pod, tests []checkCase) {
	t.Helper()
	p := &podsecurity.Plugin{Namespaces: fakeNamespaces{
		"ns": namespace("ns", map[string]string{podsecurity.EnforceLevelLabel: string(level)}),
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := base("ns")
			tc.mutate(pod)
			err := validate(t, p, createPod(pod)).err
			if tc.want == "" {
				assert.NoError(t, err, "pod %s", tc.name)
				return
			}
			require.Error(t, err, "pod %s", tc.name)
			assert.True(t, apierrors.IsForbidden(err), "403: %v", err)
			assert.Equal(t, `pods "x" is forbidden: violates PodSecurity "`+string(level)+`:latest": `+tc.want, err.Error())
		})
	}
}

func sc(p *corev1.Pod) *corev1.SecurityContext {
	if p.Spec.Containers[0].SecurityContext == nil {
		p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{}
	}
	return p.Spec.Containers[0].SecurityContext
}

func podSC(p *corev1.Pod) *corev1.PodSecurityContext {
	if p.Spec.SecurityContext == nil {
		p.Spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	return p.Spec.SecurityContext
}

func TestBaselineChecks(t *testing.T) {
	runChecks(t, podsecurity.LevelBaseline, plainPod, []checkCase{
		{name: "plain pod", mutate: func(*corev1.Pod) {}},
		{name: "allowed settings", mutate: func(p *corev1.Pod) {
			sc(p).Capabilities = &corev1.Capabilities{Add: []corev1.Capability{"NET_BIND_SERVICE", "CHOWN"}}
			sc(p).Privileged = ptr(false)
			sc(p).ProcMount = ptr("Default")
			sc(p).SeccompProfile = &corev1.SeccompProfile{Type: "Localhost", LocalhostProfile: ptr("p.json")}
			sc(p).AppArmorProfile = &corev1.AppArmorProfile{Type: "RuntimeDefault"}
			sc(p).SELinuxOptions = &corev1.SELinuxOptions{Type: "container_init_t", Level: "s0:c1"}
			podSC(p).Sysctls = []corev1.Sysctl{{Name: "net.ipv4.tcp_keepalive_time", Value: "60"}}
			p.Annotations = map[string]string{"container.apparmor.security.beta.kubernetes.io/c": "localhost/mine"}
		}},
		{name: "host namespaces", mutate: func(p *corev1.Pod) { p.Spec.HostNetwork, p.Spec.HostPID, p.Spec.HostIPC = true, true, true },
			want: "host namespaces (hostIPC, hostNetwork, hostPID)"},
		{name: "privileged", mutate: func(p *corev1.Pod) { sc(p).Privileged = ptr(true) },
			want: `privileged (container "c" must not set securityContext.privileged=true)`},
		{name: "privileged init container", mutate: func(p *corev1.Pod) {
			p.Spec.InitContainers = []corev1.Container{{Name: "i", SecurityContext: &corev1.SecurityContext{Privileged: ptr(true)}}}
			sc(p).Privileged = ptr(true)
		}, want: `privileged (containers "i", "c" must not set securityContext.privileged=true)`},
		{name: "capabilities", mutate: func(p *corev1.Pod) {
			sc(p).Capabilities = &corev1.Capabilities{Add: []corev1.Capability{"SYS_ADMIN", "NET_RAW", "CHOWN"}}
		}, want: `non-default capabilities (container "c" must not include "NET_RAW", "SYS_ADMIN" in securityContext.capabilities.add)`},
		{name: "hostPath volume", mutate: func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}}}}
		}, want: `hostPath volumes (volume "host")`},
		{name: "hostPorts", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Ports = []corev1.ContainerPort{{ContainerPort: 80, HostPort: 8080}, {ContainerPort: 90, HostPort: 9090}}
		}, want: `hostPort (container "c" uses hostPorts 8080, 9090)`},
		{name: "AppArmor field", mutate: func(p *corev1.Pod) { sc(p).AppArmorProfile = &corev1.AppArmorProfile{Type: "Unconfined"} },
			want: `forbidden AppArmor profile (container "c" must not set AppArmor profile type to "Unconfined")`},
		{name: "AppArmor annotation", mutate: func(p *corev1.Pod) {
			p.Annotations = map[string]string{"container.apparmor.security.beta.kubernetes.io/c": "unconfined"}
		}, want: `forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/c="unconfined"")`},
		{name: "SELinux type", mutate: func(p *corev1.Pod) { podSC(p).SELinuxOptions = &corev1.SELinuxOptions{Type: "spc_t"} },
			want: `seLinuxOptions (pod set forbidden securityContext.seLinuxOptions: type "spc_t")`},
		{name: "SELinux user and role", mutate: func(p *corev1.Pod) { sc(p).SELinuxOptions = &corev1.SELinuxOptions{User: "u", Role: "r"} },
			want: `seLinuxOptions (container "c" set forbidden securityContext.seLinuxOptions: user may not be set; role may not be set)`},
		{name: "procMount", mutate: func(p *corev1.Pod) { sc(p).ProcMount = ptr("Unmasked") },
			want: `procMount (container "c" must not set securityContext.procMount to "Unmasked")`},
		{name: "procMount in a user namespace", mutate: func(p *corev1.Pod) {
			sc(p).ProcMount = ptr("Unmasked")
			p.Spec.HostUsers = ptr(false)
		}},
		{name: "seccomp Unconfined", mutate: func(p *corev1.Pod) {
			podSC(p).SeccompProfile = &corev1.SeccompProfile{Type: "Unconfined"}
			sc(p).SeccompProfile = &corev1.SeccompProfile{Type: "Unconfined"}
		}, want: `seccompProfile (pod and container "c" must not set securityContext.seccompProfile.type to "Unconfined")`},
		{name: "sysctls", mutate: func(p *corev1.Pod) {
			podSC(p).Sysctls = []corev1.Sysctl{{Name: "kernel.msgmax"}, {Name: "kernel.shm_rmid_forced"}, {Name: "net.core.somaxconn"}}
		}, want: "forbidden sysctls (kernel.msgmax, net.core.somaxconn)"},
		{name: "probe host", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].LivenessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Host: "10.0.0.1"}}}
		}, want: `probe or lifecycle host (container "c" uses probe or lifecycle host "10.0.0.1")`},
		{name: "several, in upstream's order", mutate: func(p *corev1.Pod) {
			sc(p).Privileged = ptr(true)
			p.Spec.HostPID = true
		}, want: `host namespaces (hostPID), privileged (container "c" must not set securityContext.privileged=true)`},
	})
}

func TestRestrictedChecks(t *testing.T) {
	runChecks(t, podsecurity.LevelRestricted, restrictedPod, []checkCase{
		{name: "compliant pod", mutate: func(*corev1.Pod) {}},
		{name: "container-level settings", mutate: func(p *corev1.Pod) {
			p.Spec.SecurityContext = nil
			sc(p).RunAsNonRoot = ptr(true)
			sc(p).RunAsUser = ptr(int64(1000))
			sc(p).SeccompProfile = &corev1.SeccompProfile{Type: "Localhost", LocalhostProfile: ptr("p.json")}
			sc(p).Capabilities.Add = []corev1.Capability{"NET_BIND_SERVICE"}
			p.Spec.Volumes = []corev1.Volume{{Name: "cm", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}},
				{Name: "tmp", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
		}},
		{name: "a baseline violation", mutate: func(p *corev1.Pod) { p.Spec.HostNetwork = true },
			want: "host namespaces (hostNetwork)"},
		{name: "hostPath is a restricted volume type", mutate: func(p *corev1.Pod) {
			p.Spec.Volumes = []corev1.Volume{{Name: "host", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/"}}}}
		}, want: `restricted volume types (volume "host" uses restricted volume type "hostPath")`},
		{name: "a volume of no known type", mutate: func(p *corev1.Pod) { p.Spec.Volumes = []corev1.Volume{{Name: "nfs"}} },
			want: `restricted volume types (volume "nfs" uses restricted volume type "unknown")`},
		{name: "allowPrivilegeEscalation", mutate: func(p *corev1.Pod) { sc(p).AllowPrivilegeEscalation = ptr(true) },
			want: `allowPrivilegeEscalation != false (container "c" must set securityContext.allowPrivilegeEscalation=false)`},
		{name: "capabilities not dropped", mutate: func(p *corev1.Pod) { sc(p).Capabilities = nil },
			want: `unrestricted capabilities (container "c" must set securityContext.capabilities.drop=["ALL"])`},
		{name: "capabilities added", mutate: func(p *corev1.Pod) { sc(p).Capabilities.Add = []corev1.Capability{"CHOWN", "NET_BIND_SERVICE"} },
			want: `unrestricted capabilities (container "c" must not include "CHOWN" in securityContext.capabilities.add)`},
		{name: "runAsNonRoot false", mutate: func(p *corev1.Pod) { sc(p).RunAsNonRoot = ptr(false) },
			want: `runAsNonRoot != true (container "c" must not set securityContext.runAsNonRoot=false)`},
		{name: "runAsNonRoot unset", mutate: func(p *corev1.Pod) { p.Spec.SecurityContext.RunAsNonRoot = nil },
			want: `runAsNonRoot != true (pod or container "c" must set securityContext.runAsNonRoot=true)`},
		{name: "runAsUser 0", mutate: func(p *corev1.Pod) { podSC(p).RunAsUser = ptr(int64(0)) },
			want: `runAsUser=0 (pod must not set runAsUser=0)`},
		{name: "root in a user namespace", mutate: func(p *corev1.Pod) {
			p.Spec.SecurityContext.RunAsNonRoot = nil
			sc(p).RunAsUser = ptr(int64(0))
			p.Spec.HostUsers = ptr(false)
		}},
		{name: "seccomp unset", mutate: func(p *corev1.Pod) { p.Spec.SecurityContext.SeccompProfile = nil },
			want: `seccompProfile (pod or container "c" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`},
		{name: "seccomp Unconfined", mutate: func(p *corev1.Pod) { sc(p).SeccompProfile = &corev1.SeccompProfile{Type: "Unconfined"} },
			want: `seccompProfile (container "c" must not set securityContext.seccompProfile.type to "Unconfined")`},
		{name: "procMount even in a user namespace", mutate: func(p *corev1.Pod) {
			sc(p).ProcMount = ptr("Unmasked")
			p.Spec.HostUsers = ptr(false)
		}, want: `procMount (container "c" must not set securityContext.procMount to "Unmasked")`},
		{name: "init containers too", mutate: func(p *corev1.Pod) {
			p.Spec.InitContainers = []corev1.Container{{Name: "i", SecurityContext: p.Spec.Containers[0].SecurityContext}}
			p.Spec.InitContainers[0].SecurityContext = &corev1.SecurityContext{AllowPrivilegeEscalation: ptr(false)}
		}, want: `unrestricted capabilities (container "i" must set securityContext.capabilities.drop=["ALL"])`},
		{name: "Windows pods skip the Linux-only checks", mutate: func(p *corev1.Pod) {
			p.Spec.OS = &corev1.PodOS{Name: "windows"}
			p.Spec.Containers[0].SecurityContext = nil
			p.Spec.SecurityContext.SeccompProfile = nil
		}},
	})
}
