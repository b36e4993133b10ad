package dns

import (
	"context"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/proxy"
)

// ServiceName is the DNS Service's name in kube-system, which upstream
// clusters keep whatever server (kube-dns, CoreDNS) is behind it.
const ServiceName = "kube-dns"

// EnsureService creates the kube-dns Service in kube-system (ClusterIP
// 10.96.0.10, ports dns/UDP, dns-tcp/TCP and metrics 9153, selector
// k8s-app=kube-dns, and the label that keeps kube-proxy away) as kubeadm
// does, unless a Service of that name exists already. It is safe to call
// from many servers at once.
//
// Upstream: kubernetes/cmd/kubeadm/app/phases/addons/dns (the kube-dns
// Service manifest).
func EnsureService(ctx context.Context, cs *client.Clientset) error {
	services := cs.Services(metav1.NamespaceSystem)
	_, err := services.Get(ctx, ServiceName, client.GetOptions{})
	if err == nil {
		return nil
	}
	if !apierrors.IsNotFound(err) {
		return fmt.Errorf("get service %s: %w", ServiceName, err)
	}
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: ServiceName, Namespace: metav1.NamespaceSystem, Labels: map[string]string{
			"k8s-app": "kube-dns", "kubernetes.io/cluster-service": "true", "kubernetes.io/name": "CoreDNS",
			proxy.LabelServiceProxyName: "minicp-dns",
		}},
		Spec: corev1.ServiceSpec{
			ClusterIP: DefaultServiceIP.String(),
			Selector:  map[string]string{"k8s-app": "kube-dns"},
			Ports: []corev1.ServicePort{
				{Name: "dns", Port: Port, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromInt32(Port)},
				{Name: "dns-tcp", Port: Port, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(Port)},
				{Name: "metrics", Port: 9153, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(9153)},
			},
		},
	}
	_, err = services.Create(ctx, svc, client.WriteOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create service %s: %w", ServiceName, err)
	}
	return nil
}
