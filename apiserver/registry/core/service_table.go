package core

import (
	"fmt"
	"net"
	"slices"
	"strconv"
	"strings"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/printers"
)

// ServiceTable prints services as `kubectl get services` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printService).
var ServiceTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Type", "string", "type determines how the Service is exposed.", 0),
		column("Cluster-IP", "string", "clusterIP is the IP address of the service and is usually assigned randomly.", 0),
		column("External-IP", "string", "externalIPs is a list of IP addresses for which nodes in the cluster will also accept traffic for this service.", 0),
		column("Port(s)", "string", "The list of ports that are exposed by this service.", 0),
		printers.AgeColumn,
		column("Selector", "string", "Route service traffic to pods with label keys and values matching this selector.", 1),
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		svc := obj.(*corev1.Service)
		clusterIP := "<none>"
		if len(svc.Spec.ClusterIPs) > 0 {
			clusterIP = svc.Spec.ClusterIPs[0]
		}
		ports := servicePorts(svc.Spec.Ports)
		if ports == "" {
			ports = "<none>"
		}
		return []any{svc.Name, string(svc.Spec.Type), clusterIP, externalIP(svc), ports, printers.Age(obj, now),
			printers.MapCell(svc.Spec.Selector)}
	},
}

// externalIP is the EXTERNAL-IP column: the external IPs, a load
// balancer's ingress points (or <pending>), or an ExternalName's name.
// The server renders wide rows, so ingress points are not truncated.
func externalIP(svc *corev1.Service) string {
	switch svc.Spec.Type {
	case corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort:
		if len(svc.Spec.ExternalIPs) > 0 {
			return strings.Join(svc.Spec.ExternalIPs, ",")
		}
		return "<none>"
	case corev1.ServiceTypeLoadBalancer:
		var ips []string
		for _, ing := range svc.Status.LoadBalancer.Ingress {
			v := ing.IP
			if v == "" {
				v = ing.Hostname
			}
			if v != "" && !slices.Contains(ips, v) {
				ips = append(ips, v)
			}
		}
		slices.Sort(ips)
		ips = append(ips, svc.Spec.ExternalIPs...)
		if len(ips) == 0 {
			return "<pending>"
		}
		return strings.Join(ips, ",")
	case corev1.ServiceTypeExternalName:
		return svc.Spec.ExternalName
	}
	return "<unknown>"
}

// servicePorts is the PORT(S) column: port/protocol, or
// port:nodePort/protocol.
func servicePorts(ports []corev1.ServicePort) string {
	pieces := make([]string, len(ports))
	for i, p := range ports {
		pieces[i] = fmt.Sprintf("%d/%s", p.Port, p.Protocol)
		if p.NodePort > 0 {
			pieces[i] = fmt.Sprintf("%d:%d/%s", p.Port, p.NodePort, p.Protocol)
		}
	}
	return strings.Join(pieces, ",")
}

// EndpointsTable prints endpoints as `kubectl get endpoints` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printEndpoints).
var EndpointsTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		column("Endpoints", "string", "Endpoints of the service", 0),
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		ep := obj.(*corev1.Endpoints)
		return []any{ep.Name, formatEndpoints(ep), printers.Age(obj, now)}
	},
}

// maxEndpointsShown is how many ip:port pairs the ENDPOINTS column shows
// before "+ N more...", as kubectl.
const maxEndpointsShown = 3

// formatEndpoints is the ENDPOINTS column: the first ip:port pairs of the
// ready addresses (bare IPs for a subset without ports), or <none>.
func formatEndpoints(ep *corev1.Endpoints) string {
	if len(ep.Subsets) == 0 {
		return "<none>"
	}
	var list []string
	count := 0
	add := func(s string) {
		count++
		if len(list) < maxEndpointsShown {
			list = append(list, s)
		}
	}
	for _, ss := range ep.Subsets {
		if len(ss.Ports) == 0 {
			for _, a := range ss.Addresses {
				add(a.IP)
			}
			continue
		}
		for _, p := range ss.Ports {
			for _, a := range ss.Addresses {
				add(net.JoinHostPort(a.IP, strconv.Itoa(int(p.Port))))
			}
		}
	}
	s := strings.Join(list, ",")
	if count > maxEndpointsShown {
		return fmt.Sprintf("%s + %d more...", s, count-maxEndpointsShown)
	}
	return s
}
