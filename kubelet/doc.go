// Package kubelet is minicp's node agent: one Kubelet per simulated node,
// cheap enough that a process runs hundreds of them. It sits at the end
// of the pod creation path: it syncs the pods bound to its node, runs
// them through the CRI in a pause sandbox that CNI gave an IP, and
// reports their status back to the API server:
//
//	API server --watch pods, fieldSelector spec.nodeName=<node>--> podSource
//	  --> pod workers: syncPod --CRI--> runtime: pause sandbox + CNI IP, containers
//	  <-- PLEG (runtime changed) / wake-ups (backoff, probes, deadlines)
//	  --> pods/{name}/status, Events
//
// A Kubelet:
//
//   - registers its Node: capacity and allocatable, podCIDR, the
//     addresses InternalIP NodeIP (127.0.0.1) and Hostname, its log
//     server's port as daemonEndpoints.kubeletEndpoint.Port, nodeInfo
//     (kubeletVersion Version, containerRuntimeVersion
//     ContainerRuntimeVersion), and the conditions Ready (KubeletReady)
//     and MemoryPressure, DiskPressure, PIDPressure (False);
//   - heartbeats: renews a Lease named after the node in kube-node-lease
//     every HeartbeatInterval, and the conditions' lastHeartbeatTime every
//     NodeStatusUpdateFrequency. A stopped kubelet's Lease goes stale,
//     which is how the control plane tells a node is down;
//   - runs the pods bound to its node (pod_workers.go, sync_pod.go): a pod
//     worker per pod compares the pod's spec with what its runtime runs and
//     converges: the sandbox (the pause container that holds the pod's
//     namespaces, with an IP from host-local IPAM on the podCIDR), image
//     pulls (Pulling, Pulled; ErrImagePull and ImagePullBackOff), init
//     containers in order, then the containers (Created, Started),
//     restarted as restartPolicy says with CrashLoopBackOff (10s doubling
//     to 5m, event BackOff); env from ConfigMaps and Secrets and their
//     volumes as read-only files, read at each container start
//     (container_env.go, volumes.go; CreateContainerConfigError and
//     FailedMount when one is missing); readiness and liveness probes
//     (exec, httpGet, tcpSocket; a failed liveness probe kills and
//     restarts); and activeDeadlineSeconds;
//   - reports each pod's status (pod_status.go): phase, podIP, hostIP,
//     startTime, container states with exit codes and restart counts, and
//     the conditions PodReadyToStartContainers, Initialized, Ready,
//     ContainersReady, PodScheduled;
//   - ends pods being deleted (kill_pod.go): Killing, SIGTERM then
//     SIGKILL at the grace period, sandbox stopped (its IP released), the
//     final status, then the final DELETE with gracePeriodSeconds 0 and a
//     UID precondition;
//   - serves container logs over HTTP (log_server.go), which the API
//     server's pods/log relays for `kubectl logs [-f]`, and the streams
//     of exec, attach and port-forward (exec_server.go, over package
//     streaming), which its pods/exec, pods/attach and pods/portforward
//     relay for `kubectl exec`, `attach`, `cp` and `port-forward`.
//
// # Addresses
//
// Every simulated node has InternalIP 127.0.0.1, the address its log
// server really listens on, each on a port the kernel picked: the API
// server reaches a kubelet at its node's InternalIP and kubelet port, so
// the address must be real and local. Pods have IPs from their node's
// podCIDR, which exist only inside the node's runtime
// (simulated.Runtime.DialContext reaches them); their hostIP is
// 127.0.0.1.
//
// # Goroutines and time
//
// An idle kubelet runs a handful of goroutines: the pod Reflector (and its
// watch), the sync loop (PLEG and wake-ups), the heartbeats, the event
// recorder, the log server and the owned runtime's. A pod costs a
// goroutine only while its worker has work; its wake-ups are entries in a
// heap served by one timer. All time is the Options' Clock, so a test on
// a clocktest.Fake steps heartbeats, container run times, backoff and
// probes instead of waiting for them, and uses WaitIdle as a barrier.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet.
package kubelet
