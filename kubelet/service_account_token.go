package kubelet

import (
	"context"
	"fmt"
	"path"

	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

// addServiceAccountToken adds the token of a projected volume's
// serviceAccountToken source to files: a token of the pod's service
// account, bound to the pod, requested from the API server through
// serviceaccounts/token as the real kubelet requests it. Each setting up
// of the volumes requests a fresh one, so a token is never older than the
// pod's last sync.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/token (Manager.GetServiceAccountToken)
// and the projected volume plugin's collectData.
func addServiceAccountToken(ctx context.Context, files volumeFiles, pod *corev1.Pod, p *corev1.ServiceAccountTokenProjection, cs *client.Clientset) error {
	exp := corev1.DefaultTokenExpirationSeconds
	if p.ExpirationSeconds != nil {
		exp = *p.ExpirationSeconds
	}
	req := &authenticationv1.TokenRequest{
		TypeMeta: metav1.TypeMeta{APIVersion: authenticationv1.SchemeGroupVersion.String(), Kind: "TokenRequest"},
		Spec: authenticationv1.TokenRequestSpec{
			ExpirationSeconds: &exp,
			BoundObjectRef:    &authenticationv1.BoundObjectReference{APIVersion: "v1", Kind: "Pod", Name: pod.Name, UID: pod.UID},
		},
	}
	if p.Audience != "" {
		req.Spec.Audiences = []string{p.Audience}
	}
	sa := pod.Spec.ServiceAccountName
	var out authenticationv1.TokenRequest
	if err := cs.ServiceAccounts(pod.Namespace).CreateSubresource(ctx, sa, "token", req, &out, client.WriteOptions{}); err != nil {
		return fmt.Errorf("failed to fetch token: %w", err)
	}
	files[path.Clean(p.Path)] = out.Status.Token
	return nil
}

// addDownwardAPI adds the pod fields items name to files. Resource
// fields are left out: they belong to a container, and a projected
// volume is the pod's.
func addDownwardAPI(files volumeFiles, pod *corev1.Pod, items []corev1.DownwardAPIVolumeFile) error {
	for _, item := range items {
		if item.FieldRef == nil {
			continue
		}
		v, err := podField(pod, item.FieldRef.FieldPath, pod.Status.PodIP)
		if err != nil {
			return err
		}
		files[path.Clean(item.Path)] = v
	}
	return nil
}
