// Package cri is the Container Runtime Interface as minicp's kubelet uses
// it: the calls the kubelet's pod workers make to run a pod on a node.
//
// A pod sync goes in this order: for a pod bound to its node, the kubelet
//
//  1. creates the pod sandbox (RuntimeService.RunPodSandbox): the runtime
//     starts a "pause" container that holds the pod's namespaces, and calls
//     the CNI plugin, which gives the sandbox its IP (see package cni);
//  2. pulls each container's image (ImageManagerService.PullImage);
//  3. creates and starts each container in that sandbox (CreateContainer,
//     StartContainer); the containers share the sandbox's network, so they
//     reach each other on localhost and the world sees one pod IP;
//  4. watches their state (ContainerStatus, ListContainers) to report
//     status and restart them, reads their logs (ContainerLogs) for
//     `kubectl logs`, and runs exec probes (ExecSync);
//  5. tears the pod down: StopContainer with the grace period, then
//     StopPodSandbox and RemovePodSandbox.
//
// The package holds only types and interfaces, as k8s.io/cri-api does; the
// runtime minicp runs is the in-process one in package
// kubelet/cri/simulated. The interfaces follow upstream's grouping
// (PodSandboxManager, ContainerManager, ImageManagerService) so that they
// read like the kubelet's code; a consumer that needs less declares its own
// subset.
//
// Differences from the gRPC API, all for plainness: Go types instead of
// protobuf messages (time.Time, time.Duration, string states), one error
// per call with the sentinels ErrNotFound, ErrAlreadyExists,
// ErrFailedPrecondition and ErrImagePull instead of gRPC codes, and
// ContainerLogs in the interface (upstream the kubelet reads the log files
// the runtime writes).
//
// Upstream: k8s.io/cri-api/pkg/apis (services.go) and
// k8s.io/cri-api/pkg/apis/runtime/v1 (api.proto).
package cri
