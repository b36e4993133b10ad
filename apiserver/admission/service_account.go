package admission

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// Names of the ServiceAccount plugin's world, as upstream spells them.
const (
	// DefaultServiceAccountName is the service account of a pod that
	// names none.
	DefaultServiceAccountName = "default"
	// ServiceAccountTokenMountPath is where every container finds its
	// token, CA bundle and namespace (client-go's in-cluster config reads
	// them there).
	ServiceAccountTokenMountPath = "/var/run/secrets/kubernetes.io/serviceaccount"
	// ServiceAccountVolumePrefix starts the name of the token volume; a
	// random suffix follows.
	ServiceAccountVolumePrefix = "kube-api-access-"
	// RootCAConfigMapName is the ConfigMap of the CA bundle in every
	// namespace (see controllers/rootcacertpublisher).
	RootCAConfigMapName = "kube-root-ca.crt"
	// ServiceAccountTokenExpirationSeconds is the lifetime the token
	// volume asks for: an hour and seven seconds, the odd number that
	// lets upstream tell these tokens from others.
	ServiceAccountTokenExpirationSeconds int64 = 60*60 + 7
	// mirrorPodAnnotation marks a kubelet's static pod in the API.
	mirrorPodAnnotation = "kubernetes.io/config.mirror"
)

// ServiceAccountGetter reads service accounts for the ServiceAccount
// plugin: from a cache first and etcd when the cache does not have it.
// A missing one is an error satisfying apierrors.IsNotFound.
type ServiceAccountGetter interface {
	GetServiceAccount(ctx context.Context, ns, name string) (*corev1.ServiceAccount, error)
}

// ServiceAccount gives every new pod a service account and the means to
// use it: spec.serviceAccountName "default" when unset, and, unless the
// pod or its service account turns automountServiceAccountToken off, a
// projected kube-api-access-<random> volume (a token of the service
// account, the namespace's kube-root-ca.crt and the pod's namespace)
// mounted read-only at ServiceAccountTokenMountPath in every container.
// A pod naming a service account that does not exist is rejected (403).
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/serviceaccount.
type ServiceAccount struct {
	// ServiceAccounts looks up the pod's service account. Required.
	ServiceAccounts ServiceAccountGetter
	// GenerateName appends a random suffix to the volume's name.
	// Required.
	GenerateName func(base string) string
}

var (
	_ MutationInterface   = (*ServiceAccount)(nil)
	_ ValidationInterface = (*ServiceAccount)(nil)
)

// Name implements Plugin.
func (*ServiceAccount) Name() string { return "ServiceAccount" }

// Handles implements Plugin: pods are only changed as they are created.
func (*ServiceAccount) Handles(op Operation) bool { return op == Create }

// podOf returns the pod a admits, or nil for anything else: another
// resource, a subresource, or a mirror pod, which the kubelet made from
// a file and which may use no service account.
func podOf(a *Attributes) (*corev1.Pod, error) {
	if a.Resource.Group != "" || a.Resource.Resource != "pods" || a.Subresource != "" {
		return nil, nil
	}
	pod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a Pod, got %T", a.Object))
	}
	if _, mirror := pod.Annotations[mirrorPodAnnotation]; mirror {
		return nil, nil
	}
	return pod, nil
}

// Admit implements MutationInterface.
//
// Upstream: Plugin.Admit.
func (p *ServiceAccount) Admit(ctx context.Context, a *Attributes) error {
	pod, err := podOf(a)
	if pod == nil {
		return err
	}
	if pod.Spec.ServiceAccountName == "" {
		pod.Spec.ServiceAccountName = DefaultServiceAccountName
	}
	sa, err := p.serviceAccount(ctx, a, pod.Spec.ServiceAccountName)
	if err != nil {
		return err
	}
	if automount(pod, sa) {
		p.mountToken(pod)
	}
	if len(pod.Spec.ImagePullSecrets) == 0 {
		pod.Spec.ImagePullSecrets = slices.Clone(sa.ImagePullSecrets)
	}
	return nil
}

// automount reports whether the pod gets its token: the pod's say first,
// then its service account's; yes by default.
func automount(pod *corev1.Pod, sa *corev1.ServiceAccount) bool {
	if b := pod.Spec.AutomountServiceAccountToken; b != nil {
		return *b
	}
	if b := sa.AutomountServiceAccountToken; b != nil {
		return *b
	}
	return true
}

// serviceAccount returns the service account name of a's namespace, or
// the Forbidden error of a pod that names a missing one.
func (p *ServiceAccount) serviceAccount(ctx context.Context, a *Attributes, name string) (*corev1.ServiceAccount, error) {
	sa, err := p.ServiceAccounts.GetServiceAccount(ctx, a.Namespace, name)
	if err == nil {
		return sa, nil
	}
	if apierrors.IsNotFound(err) {
		// Upstream names the resource in the singular here.
		err = fmt.Errorf("serviceaccount %q not found", name)
	}
	return nil, apierrors.NewForbidden(a.Resource.GroupResource(), a.Name,
		fmt.Errorf("error looking up service account %s/%s: %w", a.Namespace, name, err))
}

// mountToken mounts the token volume in every container that has
// nothing mounted at the token's path, adding the volume if one of them
// needs it and the pod has none of that name yet.
//
// Upstream: Plugin.mountServiceAccountToken.
func (p *ServiceAccount) mountToken(pod *corev1.Pod) {
	volumeName := ""
	for _, v := range pod.Spec.Volumes {
		if strings.HasPrefix(v.Name, ServiceAccountVolumePrefix) {
			volumeName = v.Name
			break
		}
	}
	hasVolume := volumeName != ""
	if !hasVolume {
		volumeName = p.GenerateName(ServiceAccountVolumePrefix)
	}
	mount := corev1.VolumeMount{Name: volumeName, ReadOnly: true, MountPath: ServiceAccountTokenMountPath}
	mountedThere := func(m corev1.VolumeMount) bool { return m.MountPath == ServiceAccountTokenMountPath }
	needsVolume := false
	for _, containers := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for i := range containers {
			// A container's own mount at the path wins over the token.
			if !slices.ContainsFunc(containers[i].VolumeMounts, mountedThere) {
				containers[i].VolumeMounts = append(containers[i].VolumeMounts, mount)
				needsVolume = true
			}
		}
	}
	if !hasVolume && needsVolume {
		pod.Spec.Volumes = append(pod.Spec.Volumes, tokenVolume(volumeName))
	}
}

// tokenVolume is the projected volume of a pod's service account: its
// token, the cluster's CA bundle and the pod's namespace, the three files
// in-cluster clients read.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/serviceaccount
// (TokenVolumeSource).
func tokenVolume(name string) corev1.Volume {
	mode := corev1.DefaultVolumeMode
	exp := ServiceAccountTokenExpirationSeconds
	return corev1.Volume{Name: name, VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{
		DefaultMode: &mode,
		Sources: []corev1.VolumeProjection{
			{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: &exp}},
			{ConfigMap: &corev1.ConfigMapProjection{
				LocalObjectReference: corev1.LocalObjectReference{Name: RootCAConfigMapName},
				Items:                []corev1.KeyToPath{{Key: "ca.crt", Path: "ca.crt"}},
			}},
			{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{
				Path: "namespace", FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.namespace"},
			}}}},
		},
	}}}
}

// Validate implements ValidationInterface: the pod's service account
// must still exist once the other plugins are done with the pod.
func (p *ServiceAccount) Validate(ctx context.Context, a *Attributes) error {
	pod, err := podOf(a)
	if pod == nil || pod.Spec.ServiceAccountName == "" {
		return err
	}
	_, err = p.serviceAccount(ctx, a, pod.Spec.ServiceAccountName)
	return err
}
