// Package cluster assembles a minicp control plane in one process: an etcd
// (embedded by default, or an external cluster), the API server in front
// of it on a loopback port, and a kubeconfig that the real kubectl and
// client-go can use. Later components (scheduler, controllers, kubelets)
// are started here too, in order, and stopped in reverse.
//
// Use it to embed a toy cluster in a program:
//
//	c, err := cluster.New(cluster.Options{})
//	go c.Start(ctx)
//	<-c.Ready()
//	c.WriteKubeconfig("kubeconfig")
package cluster
