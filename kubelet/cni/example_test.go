package cni_test

import (
	"context"
	"fmt"
	"net/netip"

	"github.com/minicp/minicp/kubelet/cni"
)

func ExampleHostLocal() {
	ipam, err := cni.New(cni.Options{Subnet: netip.MustParsePrefix("10.244.3.0/24")})
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	for _, sandbox := range []string{"sandbox-a", "sandbox-b"} {
		res, _ := ipam.Add(ctx, cni.RuntimeConf{ContainerID: sandbox, IfName: "eth0"})
		fmt.Println(sandbox, res.IP, "via", res.Gateway)
	}
	_ = ipam.Del(ctx, cni.RuntimeConf{ContainerID: "sandbox-a"})
	fmt.Println("allocated:", ipam.Allocated())
	// Output:
	// sandbox-a 10.244.3.2/24 via 10.244.3.1
	// sandbox-b 10.244.3.3/24 via 10.244.3.1
	// allocated: 1
}
