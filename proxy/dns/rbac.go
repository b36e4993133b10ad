package dns

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/client"
)

// ServiceAccountName is the ServiceAccount in kube-system the DNS server
// acts as, and RoleName the ClusterRole (and ClusterRoleBinding) that
// lets it read what it answers from.
const (
	ServiceAccountName = "coredns"
	RoleName           = "system:coredns"
)

// EnsureRBAC creates what kubeadm's CoreDNS addon gives the server: the
// ServiceAccount kube-system/coredns, the ClusterRole system:coredns
// (list and watch endpoints, services, pods, namespaces and
// endpointslices) and the ClusterRoleBinding of one to the other. An
// object that exists already is left as it is, so it is safe to call
// from many servers at once.
//
// Upstream: kubernetes/cmd/kubeadm/app/phases/addons/dns (the CoreDNS
// ServiceAccount, ClusterRole and ClusterRoleBinding manifests).
func EnsureRBAC(ctx context.Context, cs *client.Clientset) error {
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: ServiceAccountName, Namespace: metav1.NamespaceSystem}}
	if _, err := cs.ServiceAccounts(metav1.NamespaceSystem).Create(ctx, sa, client.WriteOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create service account %s: %w", ServiceAccountName, err)
	}
	role := &rbacv1.ClusterRole{
		ObjectMeta: metav1.ObjectMeta{Name: RoleName},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"endpoints", "services", "pods", "namespaces"}, Verbs: []string{"list", "watch"}},
			{APIGroups: []string{"discovery.k8s.io"}, Resources: []string{"endpointslices"}, Verbs: []string{"list", "watch"}},
		},
	}
	if err := create[*rbacv1.ClusterRole, *rbacv1.ClusterRoleList](ctx, cs, "clusterroles", role); err != nil {
		return err
	}
	binding := &rbacv1.ClusterRoleBinding{
		ObjectMeta: metav1.ObjectMeta{Name: RoleName},
		RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "ClusterRole", Name: RoleName},
		Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: ServiceAccountName, Namespace: metav1.NamespaceSystem}},
	}
	return create[*rbacv1.ClusterRoleBinding, *rbacv1.ClusterRoleBindingList](ctx, cs, "clusterrolebindings", binding)
}

// create creates obj, an rbac.authorization.k8s.io/v1 resource, unless
// it exists.
func create[T metav1.Object, L metav1.ListInterface](ctx context.Context, cs *client.Clientset, resource string, obj T) error {
	res, err := client.NewResource[T, L](cs.Client(), rbacv1.SchemeGroupVersion.WithResource(resource))
	if err != nil {
		return fmt.Errorf("dns: %w", err)
	}
	if _, err := res.Create(ctx, obj, client.WriteOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create %s %s: %w", resource, obj.GetObjectMeta().Name, err)
	}
	return nil
}
