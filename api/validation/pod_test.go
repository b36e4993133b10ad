package validation

import (
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

// validPod is a defaulted pod that passes ValidatePod.
func validPod() *corev1.Pod {
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web-0", Namespace: "shop", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{
			Volumes: []corev1.Volume{
				{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
				{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{
					LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"},
					Items:                []corev1.KeyToPath{{Key: "a", Path: "conf/a"}},
				}}},
			},
			InitContainers: []corev1.Container{{Name: "init", Image: "busybox:1.36"}},
			Containers: []corev1.Container{{
				Name:  "web",
				Image: "nginx:1.27",
				Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 8080}, {ContainerPort: 53, Protocol: corev1.ProtocolUDP, HostPort: 5353}},
				Env: []corev1.EnvVar{
					{Name: "A", Value: "b"},
					{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
					{Name: "APP", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.labels['app']"}}},
					{Name: "CPU", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu", Divisor: resource.MustParse("1m")}}},
					{Name: "PW", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: corev1.LocalObjectReference{Name: "db"}, Key: "password"}}},
				},
				EnvFrom: []corev1.EnvFromSource{{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "cfg"}}}},
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1"), "example.com/gpu": resource.MustParse("1")},
				},
				VolumeMounts:   []corev1.VolumeMount{{Name: "data", MountPath: "/data"}, {Name: "cfg", MountPath: "/etc/web", SubPath: "conf"}},
				LivenessProbe:  &corev1.Probe{ProbeHandler: corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromString("http")}}},
				ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(8080)}}},
				Lifecycle:      &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 5}}},
			}},
			NodeSelector: map[string]string{"kubernetes.io/os": "linux"},
			Tolerations: []corev1.Toleration{
				{Key: "node.kubernetes.io/not-ready", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptrTo(int64(300))},
				{Key: "dedicated", Value: "web", Effect: corev1.TaintEffectNoSchedule},
				{Operator: corev1.TolerationOpExists},
			},
			ServiceAccountName: "web",
		},
	}
	pod.Spec.Containers[0].Resources.Requests["example.com/gpu"] = resource.MustParse("1")
	corev1.SetDefaults(pod)
	return pod
}

func TestValidatePodValid(t *testing.T) {
	assert.Empty(t, ValidatePod(validPod()), "validPod")

	// The manifest the corev1 decode tests use, defaulted, is valid too.
	data, err := os.ReadFile("../core/v1/testdata/pod-manifest.yaml")
	require.NoError(t, err)
	var pod corev1.Pod
	_, err = runtime.Decode(data, &pod)
	require.NoError(t, err)
	corev1.SetDefaults(&pod)
	assert.Empty(t, ValidatePod(&pod), "pod-manifest.yaml")
}

func TestValidatePod(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*corev1.Pod)
		want   []string
	}{
		// Metadata.
		{name: "no namespace", mutate: func(p *corev1.Pod) { p.Namespace = "" }, want: []string{"FieldValueRequired metadata.namespace"}},
		{name: "bad name", mutate: func(p *corev1.Pod) { p.Name = "Web" }, want: []string{"FieldValueInvalid metadata.name"}},

		// Containers.
		{name: "no containers", mutate: func(p *corev1.Pod) { p.Spec.Containers = nil }, want: []string{"FieldValueRequired spec.containers"}},
		{name: "no container name", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Name = "" },
			want: []string{"FieldValueRequired spec.containers[0].name"}},
		{name: "bad container name", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Name = "Web_1" },
			want: []string{"FieldValueInvalid spec.containers[0].name"}},
		{name: "duplicate container name", mutate: func(p *corev1.Pod) {
			p.Spec.Containers = append(p.Spec.Containers, corev1.Container{Name: "web", Image: "x", ImagePullPolicy: "Always", TerminationMessagePolicy: "File"})
		}, want: []string{"FieldValueDuplicate spec.containers[1].name"}},
		{name: "init container named like a container", mutate: func(p *corev1.Pod) { p.Spec.InitContainers[0].Name = "web" },
			want: []string{"FieldValueDuplicate spec.initContainers[0].name"}},
		{name: "no image", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Image = "" }, want: []string{"FieldValueRequired spec.containers[0].image"}},
		{name: "no init image", mutate: func(p *corev1.Pod) { p.Spec.InitContainers[0].Image = "" },
			want: []string{"FieldValueRequired spec.initContainers[0].image"}},
		{name: "bad pull policy", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].ImagePullPolicy = "Sometimes" },
			want: []string{"FieldValueNotSupported spec.containers[0].imagePullPolicy"}},
		{name: "undefaulted pull policy", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].ImagePullPolicy = "" },
			want: []string{"FieldValueRequired spec.containers[0].imagePullPolicy"}},
		{name: "bad termination message policy", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].TerminationMessagePolicy = "Log" },
			want: []string{"FieldValueInvalid spec.containers[0].terminationMessagePolicy"}},
		{name: "restartPolicy on a container", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].RestartPolicy = ptrTo(corev1.ContainerRestartPolicyAlways)
		}, want: []string{"FieldValueForbidden spec.containers[0].restartPolicy"}},
		{name: "probe on an init container", mutate: func(p *corev1.Pod) {
			p.Spec.InitContainers[0].ReadinessProbe = p.Spec.Containers[0].ReadinessProbe
		}, want: []string{"FieldValueForbidden spec.initContainers[0].readinessProbe"}},
		{name: "init container restartPolicy Never", mutate: func(p *corev1.Pod) {
			p.Spec.InitContainers[0].RestartPolicy = ptrTo(corev1.ContainerRestartPolicy("Never"))
		}, want: []string{"FieldValueNotSupported spec.initContainers[0].restartPolicy"}},
		{name: "probe on a sidecar", mutate: func(p *corev1.Pod) {
			p.Spec.InitContainers[0].RestartPolicy = ptrTo(corev1.ContainerRestartPolicyAlways)
			p.Spec.InitContainers[0].ReadinessProbe = p.Spec.Containers[0].ReadinessProbe
		}, want: []string{}},

		// Ports.
		{name: "port 0", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 0 },
			want: []string{"FieldValueRequired spec.containers[0].ports[0].containerPort"}},
		{name: "port too big", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 65536 },
			want: []string{"FieldValueInvalid spec.containers[0].ports[0].containerPort"}},
		{name: "host port negative", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].HostPort = -1 },
			want: []string{"FieldValueInvalid spec.containers[0].ports[0].hostPort"}},
		{name: "undefaulted protocol", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].Protocol = "" },
			want: []string{"FieldValueRequired spec.containers[0].ports[0].protocol"}},
		{name: "bad protocol", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].Protocol = "ICMP" },
			want: []string{"FieldValueNotSupported spec.containers[0].ports[0].protocol"}},
		{name: "port name too long", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].Name = "a-very-long-port-name" },
			want: []string{"FieldValueInvalid spec.containers[0].ports[0].name"}},
		{name: "duplicate port name", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[1].Name = "http" },
			want: []string{"FieldValueDuplicate spec.containers[0].ports[1].name"}},
		{name: "duplicate host port", mutate: func(p *corev1.Pod) {
			p.Spec.InitContainers[0].Ports = []corev1.ContainerPort{{ContainerPort: 1, HostPort: 5353, Protocol: corev1.ProtocolUDP}}
		}, want: []string{"FieldValueDuplicate spec.initContainers[0].ports[0].hostPort"}},
		{name: "hostNetwork port mismatch", mutate: func(p *corev1.Pod) { p.Spec.HostNetwork = true; p.Spec.Containers[0].Ports[0].HostPort = 0 },
			want: []string{"FieldValueInvalid spec.containers[0].ports[0].containerPort", "FieldValueInvalid spec.containers[0].ports[1].containerPort"}},

		// Environment.
		{name: "env name", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Env[0].Name = "1A" },
			want: []string{"FieldValueInvalid spec.containers[0].env[0].name"}},
		{name: "no env name", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Env[0].Name = "" },
			want: []string{"FieldValueRequired spec.containers[0].env[0].name"}},
		{name: "value and valueFrom", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Env[1].Value = "x" },
			want: []string{"FieldValueInvalid spec.containers[0].env[1].valueFrom"}},
		{name: "empty valueFrom", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Env[1].ValueFrom = &corev1.EnvVarSource{} },
			want: []string{"FieldValueInvalid spec.containers[0].env[1].valueFrom"}},
		{name: "unsupported fieldPath", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Env[1].ValueFrom.FieldRef.FieldPath = "spec.hostname" },
			want: []string{"FieldValueNotSupported spec.containers[0].env[1].valueFrom.fieldRef.fieldPath"}},
		{name: "fieldRef apiVersion", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Env[1].ValueFrom.FieldRef.APIVersion = "v2" },
			want: []string{"FieldValueInvalid spec.containers[0].env[1].valueFrom.fieldRef.fieldPath"}},
		{name: "bad resourceFieldRef", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Env[3].ValueFrom.ResourceFieldRef = &corev1.ResourceFieldSelector{Resource: "limits.gpu"}
		}, want: []string{"FieldValueNotSupported spec.containers[0].env[3].valueFrom.resourceFieldRef.resource"}},
		{name: "bad cpu divisor", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Env[3].ValueFrom.ResourceFieldRef.Divisor = resource.MustParse("10m")
		}, want: []string{"FieldValueInvalid spec.containers[0].env[3].valueFrom.resourceFieldRef.divisor"}},
		{name: "secretKeyRef without key", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Env[4].ValueFrom.SecretKeyRef.Key = "" },
			want: []string{"FieldValueRequired spec.containers[0].env[4].valueFrom.secretKeyRef.key"}},
		{name: "envFrom without source", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].EnvFrom[0].ConfigMapRef = nil },
			want: []string{"FieldValueInvalid spec.containers[0].envFrom"}},

		// Resources.
		{name: "request over limit", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("2")
		}, want: []string{"FieldValueInvalid spec.containers[0].resources.requests"}},
		{name: "negative request", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse("-1")
		}, want: []string{"FieldValueInvalid spec.containers[0].resources.requests[memory]"}},
		{name: "unknown resource", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits["gpu"] = resource.MustParse("1")
		}, want: []string{"FieldValueInvalid spec.containers[0].resources.limits[gpu]"}},
		{name: "extended resource overcommitted", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits["example.com/gpu"] = resource.MustParse("2")
		}, want: []string{"FieldValueInvalid spec.containers[0].resources.requests"}},
		{name: "extended resource fraction", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Limits["example.com/gpu"] = resource.MustParse("500m")
			p.Spec.Containers[0].Resources.Requests["example.com/gpu"] = resource.MustParse("500m")
		}, want: []string{"FieldValueInvalid spec.containers[0].resources.limits[example.com/gpu]", "FieldValueInvalid spec.containers[0].resources.requests[example.com/gpu]"}},

		// Probes and hooks.
		{name: "probe without handler", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].ReadinessProbe.TCPSocket = nil },
			want: []string{"FieldValueRequired spec.containers[0].readinessProbe"}},
		{name: "probe with two handlers", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].ReadinessProbe.Exec = &corev1.ExecAction{Command: []string{"true"}}
		}, want: []string{"FieldValueForbidden spec.containers[0].readinessProbe.tcpSocket"}},
		{name: "liveness successThreshold", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].LivenessProbe.SuccessThreshold = 2 },
			want: []string{"FieldValueInvalid spec.containers[0].livenessProbe.successThreshold"}},
		{name: "negative period", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].ReadinessProbe.PeriodSeconds = -1 },
			want: []string{"FieldValueInvalid spec.containers[0].readinessProbe.periodSeconds"}},
		{name: "probe port name", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].LivenessProbe.HTTPGet.Port = intstr.FromString("HTTP") },
			want: []string{"FieldValueInvalid spec.containers[0].livenessProbe.httpGet.port", "FieldValueInvalid spec.containers[0].livenessProbe.httpGet.port"}},
		{name: "probe scheme", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].LivenessProbe.HTTPGet.Scheme = "FTP" },
			want: []string{"FieldValueNotSupported spec.containers[0].livenessProbe.httpGet.scheme"}},
		{name: "exec without command", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].ReadinessProbe.ProbeHandler = corev1.ProbeHandler{Exec: &corev1.ExecAction{}}
		}, want: []string{"FieldValueRequired spec.containers[0].readinessProbe.exec.command"}},
		{name: "sleep past the grace period", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Lifecycle.PreStop.Sleep.Seconds = 31 },
			want: []string{"FieldValueInvalid spec.containers[0].lifecycle.preStop.sleep.seconds"}},

		// Volumes and mounts. A mount of an invalid volume is also "not
		// found", as upstream reports it.
		{name: "mount of a missing volume", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].VolumeMounts[0].Name = "nope" },
			want: []string{"FieldValueNotFound spec.containers[0].volumeMounts[0].name"}},
		{name: "duplicate mount path", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].VolumeMounts[1].MountPath = "/data" },
			want: []string{"FieldValueInvalid spec.containers[0].volumeMounts[1].mountPath"}},
		{name: "subPath escapes", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].VolumeMounts[1].SubPath = "../x" },
			want: []string{"FieldValueInvalid spec.containers[0].volumeMounts[1].subPath"}},
		{name: "duplicate volume", mutate: func(p *corev1.Pod) { p.Spec.Volumes[1].Name = "data" },
			want: []string{"FieldValueDuplicate spec.volumes[1].name", "FieldValueNotFound spec.containers[0].volumeMounts[1].name"}},
		{name: "volume without source", mutate: func(p *corev1.Pod) { p.Spec.Volumes[0].EmptyDir = nil },
			want: []string{"FieldValueRequired spec.volumes[0]", "FieldValueNotFound spec.containers[0].volumeMounts[0].name"}},
		{name: "volume with two sources", mutate: func(p *corev1.Pod) {
			p.Spec.Volumes[0].HostPath = &corev1.HostPathVolumeSource{Path: "/x"}
		}, want: []string{"FieldValueForbidden spec.volumes[0].emptyDir", "FieldValueNotFound spec.containers[0].volumeMounts[0].name"}},
		{name: "bad volume mode", mutate: func(p *corev1.Pod) { p.Spec.Volumes[1].ConfigMap.DefaultMode = ptrTo(int32(0o1000)) },
			want: []string{"FieldValueInvalid spec.volumes[1].configMap.defaultMode", "FieldValueNotFound spec.containers[0].volumeMounts[1].name"}},
		{name: "absolute item path", mutate: func(p *corev1.Pod) { p.Spec.Volumes[1].ConfigMap.Items[0].Path = "/etc/a" },
			want: []string{"FieldValueInvalid spec.volumes[1].configMap.items[0].path", "FieldValueNotFound spec.containers[0].volumeMounts[1].name"}},

		// Pod-level fields.
		{name: "bad restartPolicy", mutate: func(p *corev1.Pod) { p.Spec.RestartPolicy = "Sometimes" },
			want: []string{"FieldValueNotSupported spec.restartPolicy"}},
		{name: "undefaulted restartPolicy", mutate: func(p *corev1.Pod) { p.Spec.RestartPolicy = "" },
			want: []string{"FieldValueRequired spec.restartPolicy"}},
		{name: "bad dnsPolicy", mutate: func(p *corev1.Pod) { p.Spec.DNSPolicy = "Google" }, want: []string{"FieldValueNotSupported spec.dnsPolicy"}},
		{name: "dnsPolicy None without config", mutate: func(p *corev1.Pod) { p.Spec.DNSPolicy = corev1.DNSNone },
			want: []string{"FieldValueRequired spec.dnsConfig"}},
		{name: "bad nameserver", mutate: func(p *corev1.Pod) { p.Spec.DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"dns"}} },
			want: []string{"FieldValueInvalid spec.dnsConfig.nameservers[0]"}},
		{name: "negative grace period", mutate: func(p *corev1.Pod) { p.Spec.TerminationGracePeriodSeconds = ptrTo(int64(-1)) },
			want: []string{"FieldValueInvalid spec.containers[0].lifecycle.preStop.sleep.seconds", "FieldValueInvalid spec.terminationGracePeriodSeconds"}},
		{name: "zero grace period", mutate: func(p *corev1.Pod) {
			p.Spec.TerminationGracePeriodSeconds = ptrTo(int64(0))
			p.Spec.Containers[0].Lifecycle = nil
		}, want: []string{}},
		{name: "zero active deadline", mutate: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(0)) },
			want: []string{"FieldValueInvalid spec.activeDeadlineSeconds"}},
		{name: "active deadline", mutate: func(p *corev1.Pod) { p.Spec.ActiveDeadlineSeconds = ptrTo(int64(60)) }, want: []string{}},
		{name: "bad nodeSelector key", mutate: func(p *corev1.Pod) { p.Spec.NodeSelector["a/b/c"] = "x" },
			want: []string{"FieldValueInvalid spec.nodeSelector"}},
		{name: "bad nodeSelector value", mutate: func(p *corev1.Pod) { p.Spec.NodeSelector["disk"] = "s s d" },
			want: []string{"FieldValueInvalid spec.nodeSelector"}},
		{name: "bad nodeName", mutate: func(p *corev1.Pod) { p.Spec.NodeName = "Node_1" }, want: []string{"FieldValueInvalid spec.nodeName"}},
		{name: "bad serviceAccountName", mutate: func(p *corev1.Pod) { p.Spec.ServiceAccountName = "a b"; p.Spec.DeprecatedServiceAccount = "a b" },
			want: []string{"FieldValueInvalid spec.serviceAccountName"}},
		{name: "bad hostname", mutate: func(p *corev1.Pod) { p.Spec.Hostname = "a.b" }, want: []string{"FieldValueInvalid spec.hostname"}},
		{name: "bad runAsUser", mutate: func(p *corev1.Pod) { p.Spec.SecurityContext.RunAsUser = ptrTo(int64(-1)) },
			want: []string{"FieldValueInvalid spec.securityContext.runAsUser"}},
		{name: "privileged without escalation", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].SecurityContext = &corev1.SecurityContext{Privileged: ptrTo(true), AllowPrivilegeEscalation: ptrTo(false)}
		}, want: []string{"FieldValueInvalid spec.containers[0].securityContext"}},
		{name: "seccomp localhost without profile", mutate: func(p *corev1.Pod) {
			p.Spec.SecurityContext.SeccompProfile = &corev1.SeccompProfile{Type: "Localhost"}
		}, want: []string{"FieldValueRequired spec.securityContext.seccompProfile.localhostProfile"}},
		{name: "sysctls", mutate: func(p *corev1.Pod) {
			p.Spec.SecurityContext.Sysctls = []corev1.Sysctl{
				{Name: "foo-", Value: "bar"}, {Name: "kernel.shmmax", Value: "1"}, {Name: "safe-and-unsafe", Value: "1"},
				{Name: "bar..", Value: "42"}, {Name: "net/ipv4/ip_local_port_range", Value: "1024 65535"},
				{Name: "", Value: "1"}, {Name: "kernel.shmmax", Value: "2"},
			}
		}, want: []string{
			"FieldValueInvalid spec.securityContext.sysctls[0].name",
			"FieldValueInvalid spec.securityContext.sysctls[3].name",
			"FieldValueRequired spec.securityContext.sysctls[5].name",
			"FieldValueDuplicate spec.securityContext.sysctls[6].name",
		}},
		{name: "sysctl too long", mutate: func(p *corev1.Pod) {
			p.Spec.SecurityContext.Sysctls = []corev1.Sysctl{{Name: strings.Repeat("a.", 126) + "ab", Value: "1"}}
		}, want: []string{"FieldValueInvalid spec.securityContext.sysctls[0].name"}},
		{name: "ipc sysctl with hostIPC", mutate: func(p *corev1.Pod) {
			p.Spec.HostIPC = true
			p.Spec.SecurityContext.Sysctls = []corev1.Sysctl{
				{Name: "kernel.shmmax", Value: "1"}, {Name: "fs/mqueue/msg_max", Value: "1"}, {Name: "net.ipv4.tcp_syncookies", Value: "1"},
			}
		}, want: []string{"FieldValueInvalid spec.securityContext.sysctls[0].name", "FieldValueInvalid spec.securityContext.sysctls[1].name"}},
		{name: "bad preemptionPolicy", mutate: func(p *corev1.Pod) { p.Spec.PreemptionPolicy = ptrTo(corev1.PreemptionPolicy("Sometimes")) },
			want: []string{"FieldValueNotSupported spec.preemptionPolicy"}},

		// Tolerations.
		{name: "toleration bad operator", mutate: func(p *corev1.Pod) { p.Spec.Tolerations[1].Operator = "In" },
			want: []string{"FieldValueNotSupported spec.tolerations[1].operator"}},
		{name: "toleration Exists with value", mutate: func(p *corev1.Pod) { p.Spec.Tolerations[0].Value = "x" },
			want: []string{"FieldValueInvalid spec.tolerations[0].operator"}},
		{name: "toleration empty key with Equal", mutate: func(p *corev1.Pod) { p.Spec.Tolerations[2].Operator = corev1.TolerationOpEqual },
			want: []string{"FieldValueInvalid spec.tolerations[2].operator"}},
		{name: "toleration bad effect", mutate: func(p *corev1.Pod) { p.Spec.Tolerations[1].Effect = "NoRun" },
			want: []string{"FieldValueNotSupported spec.tolerations[1].effect"}},
		{name: "tolerationSeconds without NoExecute", mutate: func(p *corev1.Pod) { p.Spec.Tolerations[1].TolerationSeconds = ptrTo(int64(1)) },
			want: []string{"FieldValueInvalid spec.tolerations[1].effect"}},
		{name: "toleration bad key", mutate: func(p *corev1.Pod) { p.Spec.Tolerations[1].Key = "-x" },
			want: []string{"FieldValueInvalid spec.tolerations[1].key"}},

		// Affinity and spreading.
		{name: "node affinity without terms", mutate: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}}
		}, want: []string{"FieldValueRequired spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms"}},
		{name: "node affinity In without values", mutate: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchExpressions: []corev1.NodeSelectorRequirement{{Key: "zone", Operator: "In"}}}},
			}}}
		}, want: []string{"FieldValueRequired spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchExpressions[0].values"}},
		{name: "node affinity bad field key", mutate: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{
				NodeSelectorTerms: []corev1.NodeSelectorTerm{{MatchFields: []corev1.NodeSelectorRequirement{{Key: "spec.nodeName", Operator: "In", Values: []string{"n"}}}}},
			}}}
		}, want: []string{"FieldValueInvalid spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms[0].matchFields[0].key"}},
		{name: "preferred weight", mutate: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.PreferredSchedulingTerm{{Weight: 101}}}}
		}, want: []string{"FieldValueInvalid spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight"}},
		{name: "pod anti-affinity without topologyKey", mutate: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			}}}}
		}, want: []string{
			"FieldValueRequired spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey",
		}},
		{name: "pod affinity bad selector", mutate: func(p *corev1.Pod) {
			p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{
				Weight: 1, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "zone", LabelSelector: &metav1.LabelSelector{
					MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "app", Operator: "Exists", Values: []string{"x"}}},
				}},
			}}}}
		}, want: []string{"FieldValueForbidden spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].podAffinityTerm.labelSelector.matchExpressions[0].values"}},
		{name: "spread constraint", mutate: func(p *corev1.Pod) {
			p.Spec.TopologySpreadConstraints = []corev1.TopologySpreadConstraint{
				{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule},
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule},
				{MaxSkew: 1, WhenUnsatisfiable: "Maybe"},
			}
		}, want: []string{
			"FieldValueInvalid spec.topologySpreadConstraints[0].maxSkew",
			"FieldValueDuplicate spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}",
			"FieldValueRequired spec.topologySpreadConstraints[2].topologyKey",
			"FieldValueNotSupported spec.topologySpreadConstraints[2].whenUnsatisfiable",
		}},
		{name: "bad host alias", mutate: func(p *corev1.Pod) { p.Spec.HostAliases = []corev1.HostAlias{{IP: "x", Hostnames: []string{"a"}}} },
			want: []string{"FieldValueInvalid spec.hostAliases[0].ip"}},
		{name: "bad readiness gate", mutate: func(p *corev1.Pod) { p.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "a b"}} },
			want: []string{"FieldValueInvalid spec.readinessGates[0].conditionType"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := validPod()
			tc.mutate(pod)
			got := ValidatePod(pod)
			assert.Equal(t, tc.want, summary(got), "ValidatePod(%s): %v", tc.name, got)
		})
	}
}

func TestValidatePodMessages(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(*corev1.Pod)
		want   string
	}{
		{name: "image", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Image = "" },
			want: "spec.containers[0].image: Required value"},
		{name: "restartPolicy", mutate: func(p *corev1.Pod) { p.Spec.RestartPolicy = "Sometimes" },
			want: `spec.restartPolicy: Unsupported value: "Sometimes": supported values: "Always", "OnFailure", "Never"`},
		{name: "request over limit", mutate: func(p *corev1.Pod) {
			p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("1500m")
		}, want: `spec.containers[0].resources.requests: Invalid value: "1500m": must be less than or equal to cpu limit of 1`},
		{name: "port", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Ports[0].ContainerPort = 70000 },
			want: "spec.containers[0].ports[0].containerPort: Invalid value: 70000: must be between 1 and 65535, inclusive"},
		{name: "duplicate", mutate: func(p *corev1.Pod) { p.Spec.InitContainers[0].Name = "web" },
			want: `spec.initContainers[0].name: Duplicate value: "web"`},
		{name: "toleration", mutate: func(p *corev1.Pod) { p.Spec.Tolerations[0].Value = "x" },
			want: `spec.tolerations[0].operator: Invalid value: "x": value must be empty when ` + "`operator`" + ` is 'Exists'`},
		{name: "sysctl name", mutate: func(p *corev1.Pod) { p.Spec.SecurityContext.Sysctls = []corev1.Sysctl{{Name: "foo-", Value: "bar"}} },
			want: `spec.securityContext.sysctls[0].name: Invalid value: "foo-": must have at most 253 characters and match regex ^([a-z0-9]([-_a-z0-9]*[a-z0-9])?[\./])*[a-z0-9]([-_a-z0-9]*[a-z0-9])?$`},
		{name: "duplicate sysctl", mutate: func(p *corev1.Pod) {
			p.Spec.SecurityContext.Sysctls = []corev1.Sysctl{{Name: "kernel.shmmax", Value: "1"}, {Name: "kernel.shmmax", Value: "2"}}
		}, want: `spec.securityContext.sysctls[1].name: Duplicate value: "kernel.shmmax"`},
		{name: "net sysctl with hostNetwork", mutate: func(p *corev1.Pod) {
			p.Spec.HostNetwork = true
			p.Spec.Containers[0].Ports = nil
			p.Spec.SecurityContext.Sysctls = []corev1.Sysctl{{Name: "net.ipv4.tcp_syncookies", Value: "1"}}
		}, want: `spec.securityContext.sysctls[0].name: Invalid value: "net.ipv4.tcp_syncookies": may not be specified when 'hostNetwork' is true`},
		{name: "container name", mutate: func(p *corev1.Pod) { p.Spec.Containers[0].Name = "Web" },
			want: `spec.containers[0].name: Invalid value: "Web": a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},
	}
	for _, tc := range tests {
		pod := validPod()
		tc.mutate(pod)
		assert.EqualError(t, ValidatePod(pod), tc.want, "ValidatePod(%s)", tc.name)
	}
}

func TestValidatePodSpecPath(t *testing.T) {
	spec := validPod().Spec
	spec.Containers[0].Image = ""
	errs := ValidatePodSpec(&spec, "spec.template.spec")
	require.Len(t, errs, 1)
	assert.Equal(t, "spec.template.spec.containers[0].image", errs[0].Field)
	assert.True(t, strings.HasPrefix(errs.Error(), "spec.template.spec."))
}
