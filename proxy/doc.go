// Package proxy is minicp's kube-proxy: it makes Service addresses carry
// traffic. A Proxier watches Services and EndpointSlices and, for each
// TCP port of each Service, listens on real TCP sockets and forwards
// every connection to one of the Service's ready endpoints, round robin
// (or by client IP, with sessionAffinity ClientIP), as the userspace
// kube-proxy of early Kubernetes did.
//
// Where it sits on the path of an outside request (DNS -> TCP -> Service
// -> pod):
//
//	client -> 127.96.x.y:port (the ClusterIP 10.96.x.y, mapped)
//	       -> Proxier's listener -> loadBalancer.pick
//	       -> 127.244.n.m:targetPort (the pod IP 10.244.n.m, mapped)
//	       -> the container's server
//
// # Address mapping
//
// Cluster addresses are not routable on the host minicp runs on, and no
// traffic may leave loopback, so each cluster address 10.a.b.c is served
// at the loopback address 127.a.b.c (Loopback): Linux routes all of
// 127.0.0.0/8 to lo, so every such address can be bound without any set
// up. ClusterIPs (10.96.0.0/12) become 127.96.0.0/12, pod IPs
// (10.244.0.0/16) 127.244.0.0/16. The API keeps the 10.x addresses
// (`kubectl get svc` shows them); only sockets use the 127.x ones.
// Dialer does the mapping for in-process clients, so they can dial a
// ClusterIP or a pod IP as a pod would.
//
// Node ports listen on 127.0.0.1:<nodePort>, every simulated node's
// InternalIP. A LoadBalancer Service gets an ingress IP from
// 127.240.0.0/16 (DefaultLoadBalancerPool), written to
// status.loadBalancer.ingress through the services/status subresource, and
// a listener on it at each Service port. Upstream that write is a cloud
// provider's service controller's, not kube-proxy's, so it goes through
// Options.StatusClientset, which may act as another identity
// (system:controller:service-controller) than the proxy's
// (system:kube-proxy, bound to system:node-proxier, which may only read).
//
// # Traffic policy
//
// Only endpoints whose ready condition is true (or unset) get new
// connections; a Service port with none closes new connections at once.
// Changing endpoints never touches connections in flight: each holds its
// backend until one side closes. With externalTrafficPolicy Local the
// node port and load balancer forward only to endpoints on
// Options.NodeName, and with internalTrafficPolicy Local so does the
// ClusterIP: as far as one host goes, the proxy stands for that node.
//
// # Ownership
//
// Start owns every goroutine: the informers, the sync loop (on Start's
// own goroutine), one accept loop per listener and two goroutines per
// forwarded connection. When ctx ends, Start closes the listeners and
// the connections and returns once they are all gone.
//
// Upstream: k8s.io/kubernetes/pkg/proxy (userspace mode, removed in
// Kubernetes 1.26) and k8s.io/kubernetes/cmd/kube-proxy.
package proxy
