package cni

import (
	"context"
	"net/netip"
)

// Plugin sets up and tears down the network of pod sandboxes.
// Implementations are safe for concurrent use.
//
// Upstream: github.com/containernetworking/cni/libcni (CNI.AddNetworkList,
// CNI.DelNetworkList).
type Plugin interface {
	// Add attaches the sandbox to the network and returns its address.
	// Adding a sandbox that already has an address returns that address.
	Add(ctx context.Context, rt RuntimeConf) (Result, error)
	// Del detaches the sandbox and releases its address. As the CNI
	// specification requires, deleting a sandbox that has no address is
	// not an error.
	Del(ctx context.Context, rt RuntimeConf) error
}

// RuntimeConf says which sandbox a call is about.
// Upstream: libcni.RuntimeConf.
type RuntimeConf struct {
	// ContainerID is the sandbox ID; it keys the allocation.
	ContainerID string
	// NetNS is the path of the sandbox's network namespace. The simulated
	// runtime has none and passes "/var/run/netns/cni-<id>" for show.
	NetNS string
	// IfName is the interface inside the namespace. Defaults to "eth0".
	IfName string
}

// Result is the address a sandbox got.
// Upstream: github.com/containernetworking/cni/pkg/types/100 (Result),
// with one IP instead of a list: minicp pods are IPv4 only.
type Result struct {
	// IP is the sandbox's address with the subnet's prefix length
	// (10.244.3.2/24).
	IP netip.Prefix
	// Gateway is the subnet's first address, the node's bridge.
	Gateway netip.Addr
}
