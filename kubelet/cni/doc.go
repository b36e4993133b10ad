// Package cni gives pod sandboxes their network: a CNI-like Plugin
// interface, which the container runtime calls when it creates (Add) and
// tears down (Del) a sandbox, and HostLocal, a plugin whose IP address
// management works like the reference "host-local" IPAM plugin: it hands
// out the addresses of one subnet, the node's podCIDR.
//
// It follows how a pod gets its network in Kubernetes: the runtime
// creates the pause container, then calls the CNI plugin with the
// sandbox's ID and network namespace; the plugin picks an IP from the
// node's range, wires the namespace to the node's bridge and returns the
// IP, which the kubelet reports as status.podIP. minicp runs no real
// namespaces or bridges, so only the IP bookkeeping is real; how traffic
// then reaches a pod is the simulated runtime's business
// (simulated.Runtime.DialContext).
//
// Upstream: github.com/containernetworking/cni/libcni (CNI, RuntimeConf)
// and github.com/containernetworking/plugins/plugins/ipam/host-local.
package cni
