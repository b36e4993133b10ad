// Package cluster assembles a minicp control plane in one process: an etcd
// (embedded by default, or an external cluster), the API server in front
// of it on a loopback port, and a kubeconfig that the real kubectl and
// client-go can use, then the components that see the cluster only
// through that API server: the controller-manager, the scheduler and the
// simulated kubelets, started in that order and stopped in reverse.
//
// Use it to embed a toy cluster in a program:
//
//	c, err := cluster.New(cluster.Options{})
//	go c.Start(ctx)
//	<-c.Ready()
//	c.WriteKubeconfig("kubeconfig")
package cluster
