package kubelet_test

import (
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

// createConfigMap creates a ConfigMap in default.
func (h *harness) createConfigMap(name string, data map[string]string) *corev1.ConfigMap {
	h.t.Helper()
	cm, err := h.cs.ConfigMaps("default").Create(h.t.Context(), &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: data},
		client.WriteOptions{})
	require.NoError(h.t, err, "create configmap %s", name)
	return cm
}

// createSecret creates a Secret in default.
func (h *harness) createSecret(name string, data map[string]string) {
	h.t.Helper()
	sec := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: name}, Data: map[string][]byte{}}
	for k, v := range data {
		sec.Data[k] = []byte(v)
	}
	_, err := h.cs.Secrets("default").Create(h.t.Context(), sec, client.WriteOptions{})
	require.NoError(h.t, err, "create secret %s", name)
}

func ref(name string) corev1.LocalObjectReference { return corev1.LocalObjectReference{Name: name} }

func configMapKey(name, key string, optional bool) *corev1.EnvVarSource {
	return &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{LocalObjectReference: ref(name), Key: key, Optional: ptr(optional)}}
}

func secretKey(name, key string) *corev1.EnvVarSource {
	return &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{LocalObjectReference: ref(name), Key: key}}
}

// waitingWith reports whether the container waits with reason and
// message.
func waitingWith(name, reason, message string) func(*corev1.Pod) bool {
	return func(p *corev1.Pod) bool {
		cs := containerStatus(p, name)
		return cs != nil && cs.State.Waiting != nil && cs.State.Waiting.Reason == reason && cs.State.Waiting.Message == message
	}
}

// eventMessages returns the messages of the kubelet's events about pod
// with reason.
func eventMessages(events []corev1.Event, reason string) []string {
	var out []string
	for _, e := range events {
		if e.Reason == reason {
			out = append(out, e.Message)
		}
	}
	return out
}

// TestEnvFromConfigMapsAndSecrets: a container's env takes values from
// ConfigMap and Secret keys, and every key of envFrom sources (after
// their prefix); env replaces a variable envFrom set, $(VAR) sees both,
// and an optional reference to a missing key adds nothing.
func TestEnvFromConfigMapsAndSecrets(t *testing.T) {
	h := newHarness(t)
	h.createConfigMap("cfg", map[string]string{"FOO": "foo", "k": "v", "app.mode": "fast"})
	h.createSecret("creds", map[string]string{"user": "admin", "password": "s3cr3t"})
	pod := busybox("env", corev1.RestartPolicyNever, `echo "$FOO $PW $CFG_k $user $password $A [$OPT] [$NONE]"; printenv CFG_app.mode`)
	pod.Spec.Containers[0].EnvFrom = []corev1.EnvFromSource{
		{Prefix: "CFG_", ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: ref("cfg")}},
		{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: ref("creds")}},
		{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: ref("absent"), Optional: ptr(true)}},
	}
	pod.Spec.Containers[0].Env = []corev1.EnvVar{
		{Name: "FOO", ValueFrom: configMapKey("cfg", "FOO", false)},
		{Name: "PW", ValueFrom: secretKey("creds", "password")},
		{Name: "password", Value: "replaced"},
		{Name: "A", Value: "$(FOO)-$(CFG_k)"},
		{Name: "OPT", ValueFrom: configMapKey("cfg", "nope", true)},
		{Name: "NONE", ValueFrom: configMapKey("absent", "x", true)},
	}
	h.run(pod)
	h.waitPod("env", "Succeeded", phaseIs(corev1.PodSucceeded))
	code, body := h.kubeletLogs("env", "main", nil)
	assert.Equal(t, http.StatusOK, code)
	assert.Equal(t, "foo s3cr3t v admin replaced foo-v [] []\nfast\n", body)
}

// TestMissingConfigIsCreateContainerConfigError: a container whose env
// names a ConfigMap, Secret or key that does not exist waits in
// CreateContainerConfigError with upstream's message, with a Failed
// event, and starts once the object is there, at the next retry.
func TestMissingConfigIsCreateContainerConfigError(t *testing.T) {
	h := newHarness(t)
	h.createConfigMap("cfg", map[string]string{"FOO": "foo"})
	tests := []struct {
		pod     string
		env     corev1.EnvVar
		from    []corev1.EnvFromSource
		wantMsg string
	}{
		{pod: "no-cm", env: corev1.EnvVar{Name: "X", ValueFrom: configMapKey("later", "X", false)}, wantMsg: `configmap "later" not found`},
		{pod: "no-key", env: corev1.EnvVar{Name: "X", ValueFrom: configMapKey("cfg", "nope", false)},
			wantMsg: "couldn't find key nope in ConfigMap default/cfg"},
		{pod: "no-secret", env: corev1.EnvVar{Name: "X", ValueFrom: secretKey("creds", "user")}, wantMsg: `secret "creds" not found`},
		{pod: "no-secret-key", env: corev1.EnvVar{Name: "X", ValueFrom: secretKey("other", "nope")},
			wantMsg: "couldn't find key nope in Secret default/other"},
		{pod: "no-envfrom", from: []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{LocalObjectReference: ref("bulk")}}},
			wantMsg: `secret "bulk" not found`},
	}
	h.createSecret("other", map[string]string{"user": "u"})
	for _, tc := range tests {
		pod := busybox(tc.pod, corev1.RestartPolicyNever, "echo $X")
		if tc.env.Name != "" {
			pod.Spec.Containers[0].Env = []corev1.EnvVar{tc.env}
		}
		pod.Spec.Containers[0].EnvFrom = tc.from
		h.run(pod)
	}
	for _, tc := range tests {
		p := h.waitPod(tc.pod, "CreateContainerConfigError: "+tc.wantMsg, waitingWith("main", "CreateContainerConfigError", tc.wantMsg))
		assert.Equal(t, corev1.PodPending, p.Status.Phase, "pod %s", tc.pod)
		events := h.waitEvents(tc.pod, "Failed")
		assert.Contains(t, eventMessages(events, "Failed"), "Error: "+tc.wantMsg, "pod %s", tc.pod)
	}

	h.createConfigMap("later", map[string]string{"X": "arrived"})
	h.step(10 * time.Second)
	h.waitPod("no-cm", "Succeeded once the ConfigMap exists", phaseIs(corev1.PodSucceeded))
	_, body := h.kubeletLogs("no-cm", "main", nil)
	assert.Equal(t, "arrived\n", body)
}

// TestConfigMapUpdateShowsOnRestart: env is read at each container
// start, so a restart sees the ConfigMap's new value.
func TestConfigMapUpdateShowsOnRestart(t *testing.T) {
	h := newHarness(t)
	cm := h.createConfigMap("cfg", map[string]string{"FOO": "one"})
	pod := busybox("restarts", corev1.RestartPolicyAlways, "echo $FOO; sleep 5; exit 1")
	pod.Spec.Containers[0].Env = []corev1.EnvVar{{Name: "FOO", ValueFrom: configMapKey("cfg", "FOO", false)}}
	h.run(pod)
	h.waitPod("restarts", "Running", running("main", 0))

	cm.Data["FOO"] = "two"
	_, err := h.cs.ConfigMaps("default").Update(t.Context(), cm, client.WriteOptions{})
	require.NoError(t, err, "update configmap cfg")
	h.step(5 * time.Second)
	h.waitPod("restarts", "restarted", running("main", 1))
	_, body := h.kubeletLogs("restarts", "main", nil)
	assert.Equal(t, "two\n", body, "the restart reads the ConfigMap again")
	_, body = h.kubeletLogs("restarts", "main", url.Values{"previous": {"true"}})
	assert.Equal(t, "one\n", body)
}

// TestConfigMapAndSecretVolumes: configMap, secret and projected volumes
// are mounted as read-only files, all keys or the items listed, and a
// subPath mounts one file.
func TestConfigMapAndSecretVolumes(t *testing.T) {
	h := newHarness(t)
	h.createConfigMap("cfg", map[string]string{"a": "alpha\n", "b": "beta\n"})
	h.createSecret("creds", map[string]string{"user": "admin\n", "password": "s3cr3t\n"})
	pod := busybox("vols", corev1.RestartPolicyNever,
		"cat /etc/cfg/a /etc/cfg/b /etc/sec/u/name /etc/a.conf /proj/b /proj/password; [ -f /etc/sec/password ] || echo listed only; "+
			"echo x > /etc/cfg/a || echo read-only; [ -d /opt/empty ] || echo empty")
	pod.Spec.Volumes = []corev1.Volume{
		{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: ref("cfg")}}},
		{Name: "sec", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "creds",
			Items: []corev1.KeyToPath{{Key: "user", Path: "u/name"}}}}},
		{Name: "proj", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
			{ConfigMap: &corev1.ConfigMapProjection{LocalObjectReference: ref("cfg"), Items: []corev1.KeyToPath{{Key: "b", Path: "b"}}}},
			{Secret: &corev1.SecretProjection{LocalObjectReference: ref("creds")}},
		}}}},
		{Name: "opt", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: ref("absent"), Optional: ptr(true)}}},
	}
	pod.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{
		{Name: "cfg", MountPath: "/etc/cfg"},
		{Name: "sec", MountPath: "/etc/sec"},
		{Name: "cfg", MountPath: "/etc/a.conf", SubPath: "a"},
		{Name: "proj", MountPath: "/proj"},
		{Name: "opt", MountPath: "/opt/empty"},
	}
	h.run(pod)
	h.waitPod("vols", "Succeeded", phaseIs(corev1.PodSucceeded))
	_, body := h.kubeletLogs("vols", "main", nil)
	assert.Equal(t, "alpha\nbeta\nadmin\nalpha\nbeta\ns3cr3t\nlisted only\n"+
		"sh: can't create /etc/cfg/a: Read-only file system\nread-only\nempty\n", body)
}

// TestMissingVolumeSourceFailsMount: a pod whose configMap volume names a
// ConfigMap that does not exist gets no sandbox: it stays Pending, its
// container ContainerCreating, with FailedMount events in upstream's
// words, until the ConfigMap is there.
func TestMissingVolumeSourceFailsMount(t *testing.T) {
	h := newHarness(t)
	pod := busybox("mount", corev1.RestartPolicyNever, "cat /etc/cfg/k")
	pod.Spec.Volumes = []corev1.Volume{
		{Name: "cfg", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: ref("later")}}},
	}
	pod.Spec.Containers[0].VolumeMounts = []corev1.VolumeMount{{Name: "cfg", MountPath: "/etc/cfg"}}
	h.run(pod)
	events := h.waitEvents("mount", "FailedMount")
	assert.Contains(t, eventMessages(events, "FailedMount"), `MountVolume.SetUp failed for volume "cfg" : configmap "later" not found`)
	assert.Empty(t, eventMessages(events, "Created"), "no container was created")
	h.waitIdle()
	p, err := h.cs.Pods("default").Get(t.Context(), "mount", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.PodPending, p.Status.Phase)
	assert.Empty(t, p.Status.PodIP, "no sandbox, no IP")
	assert.True(t, waitingFor("main", "ContainerCreating", 0)(p), "state %s", describe(p))

	h.createConfigMap("later", map[string]string{"k": "mounted\n"})
	h.step(10 * time.Second)
	h.waitPod("mount", "Succeeded once the ConfigMap exists", phaseIs(corev1.PodSucceeded))
	_, body := h.kubeletLogs("mount", "main", nil)
	assert.Equal(t, "mounted\n", body)
}
