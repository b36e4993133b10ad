package admission_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

// serviceAccounts is an in-memory admission.ServiceAccountGetter of the
// namespace "ns".
type serviceAccounts map[string]*corev1.ServiceAccount

func (s serviceAccounts) GetServiceAccount(_ context.Context, ns, name string) (*corev1.ServiceAccount, error) {
	if sa, ok := s[name]; ok && ns == "ns" {
		return sa, nil
	}
	return nil, apierrors.NewNotFound(runtime.GroupResource{Resource: "serviceaccounts"}, name)
}

func newServiceAccountPlugin() *admission.ServiceAccount {
	no := false
	return &admission.ServiceAccount{
		ServiceAccounts: serviceAccounts{
			"default": {ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: "ns"},
				ImagePullSecrets: []corev1.LocalObjectReference{{Name: "registry"}}},
			"quiet": {ObjectMeta: metav1.ObjectMeta{Name: "quiet", Namespace: "ns"}, AutomountServiceAccountToken: &no},
		},
		GenerateName: func(base string) string { return base + "abcde" },
	}
}

func podAttributes(pod *corev1.Pod) *admission.Attributes {
	return &admission.Attributes{Operation: admission.Create, Resource: podsResource, Namespace: "ns", Name: pod.Name, Object: pod}
}

const tokenPath = "/var/run/secrets/kubernetes.io/serviceaccount"

func TestServiceAccountMountsToken(t *testing.T) {
	p := newServiceAccountPlugin()
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{
		InitContainers: []corev1.Container{{Name: "init"}},
		Containers: []corev1.Container{
			{Name: "app"},
			{Name: "own", VolumeMounts: []corev1.VolumeMount{{Name: "mine", MountPath: tokenPath}}},
		},
	}}
	a := podAttributes(pod)
	require.NoError(t, p.Admit(t.Context(), a))
	require.NoError(t, p.Validate(t.Context(), a))

	assert.Equal(t, "default", pod.Spec.ServiceAccountName)
	assert.Equal(t, []corev1.LocalObjectReference{{Name: "registry"}}, pod.Spec.ImagePullSecrets, "the service account's pull secrets")
	require.Len(t, pod.Spec.Volumes, 1)
	v := pod.Spec.Volumes[0]
	assert.Equal(t, "kube-api-access-abcde", v.Name)
	require.NotNil(t, v.Projected)
	require.Len(t, v.Projected.Sources, 3)
	assert.Equal(t, int64(3607), *v.Projected.Sources[0].ServiceAccountToken.ExpirationSeconds)
	assert.Equal(t, "token", v.Projected.Sources[0].ServiceAccountToken.Path)
	assert.Equal(t, "kube-root-ca.crt", v.Projected.Sources[1].ConfigMap.Name)
	assert.Equal(t, "metadata.namespace", v.Projected.Sources[2].DownwardAPI.Items[0].FieldRef.FieldPath)
	assert.Equal(t, int32(0o644), *v.Projected.DefaultMode)

	want := corev1.VolumeMount{Name: "kube-api-access-abcde", ReadOnly: true, MountPath: tokenPath}
	assert.Equal(t, []corev1.VolumeMount{want}, pod.Spec.InitContainers[0].VolumeMounts)
	assert.Equal(t, []corev1.VolumeMount{want}, pod.Spec.Containers[0].VolumeMounts)
	assert.Equal(t, []corev1.VolumeMount{{Name: "mine", MountPath: tokenPath}}, pod.Spec.Containers[1].VolumeMounts,
		"a container's own mount at the path wins")
}

func TestServiceAccountAutomountOff(t *testing.T) {
	no, yes := false, true
	tests := []struct {
		name      string
		sa        string
		automount *bool
		wantToken bool
	}{
		{name: "the pod says no", automount: &no},
		{name: "the service account says no", sa: "quiet"},
		{name: "the pod overrides its service account", sa: "quiet", automount: &yes, wantToken: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{
				ServiceAccountName: tc.sa, AutomountServiceAccountToken: tc.automount, Containers: []corev1.Container{{Name: "app"}},
			}}
			require.NoError(t, newServiceAccountPlugin().Admit(t.Context(), podAttributes(pod)))
			assert.Equal(t, tc.wantToken, len(pod.Spec.Volumes) == 1, "volumes: %+v", pod.Spec.Volumes)
		})
	}
}

func TestServiceAccountMissing(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: corev1.PodSpec{
		ServiceAccountName: "ghost", Containers: []corev1.Container{{Name: "app"}},
	}}
	err := newServiceAccountPlugin().Admit(t.Context(), podAttributes(pod))
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err), "%v", err)
	assert.EqualError(t, err, `pods "p" is forbidden: error looking up service account ns/ghost: serviceaccount "ghost" not found`)
}

func TestServiceAccountLeavesOthersAlone(t *testing.T) {
	p := newServiceAccountPlugin()
	mirror := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "static", Annotations: map[string]string{"kubernetes.io/config.mirror": "x"}}}
	require.NoError(t, p.Admit(t.Context(), podAttributes(mirror)))
	assert.Empty(t, mirror.Spec.ServiceAccountName, "a mirror pod")

	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p"}}
	status := podAttributes(pod)
	status.Subresource = "status"
	require.NoError(t, p.Admit(t.Context(), status))
	assert.Empty(t, pod.Spec.ServiceAccountName, "a subresource")

	assert.False(t, p.Handles(admission.Update))
}
