// Package simulated is minicp's container runtime: an in-process
// implementation of cri.RuntimeService and cri.ImageManagerService whose
// containers behave like the images they name, without Linux namespaces,
// cgroups or an image registry. The kubelet's pod workers call it where a
// real kubelet calls containerd over gRPC: it starts the pause sandbox,
// gives it an IP through CNI, and runs the pod's containers in it.
//
// # What a container does
//
// A container runs its command line, made by Kubernetes' rules from the
// pod spec's command and args and the image's ENTRYPOINT and CMD:
//
//   - sh -c 'script' (also bash, /bin/sh, ash, dash) runs the script in a
//     small POSIX shell: echo, printf, sleep, exit, loops, if, variables,
//     $(...), files, traps. LANGUAGE.md documents it. The script's output
//     goes to the container log, line by line, stamped with the clock.
//   - A builtin run directly (sleep 3600, echo hi, tail -f /dev/null)
//     runs as PID 1 without a shell.
//   - With no command the image's default runs. Shell images (busybox,
//     alpine, ubuntu, debian, fedora, centos) exit 0 at once, as they do
//     with no terminal. Server images run until stopped: nginx, httpd,
//     redis, postgres, mysql, mongo, memcached, registry.k8s.io/pause,
//     registry.k8s.io/echoserver, hashicorp/http-echo, and minicp's own
//     minicp/http-echo.
//   - An image minicp does not know (your app:v1, python, node) is taken
//     to be a server: with no command, or with a command that is not a
//     shell or a builtin, it runs until stopped. It has a shell.
//   - A program the image does not have (sh in registry.k8s.io/pause, or
//     foo in busybox) fails to start: the container exits with code 128,
//     reason StartError, and StartContainer returns the error runc gives.
//
// An exited container's Reason is Completed for exit code 0 and Error
// otherwise; OOMKill simulates the OOM killer (137, OOMKilled).
//
// # Servers and the pod network
//
// nginx, httpd, echoserver and both http-echo images serve HTTP for
// real: a net/http server on 127.0.0.1, on a port the kernel picks, for
// each TCP containerPort the container declares, or its image's default
// port when it declares none (80 for nginx and httpd, 8080 for
// minicp/http-echo and echoserver, 5678 or -listen for
// hashicorp/http-echo). nginx answers with its welcome page and a 404
// elsewhere, httpd with "It works!", the echo images with the request and
// the pod's name, namespace, IP and hostname; nginx and httpd write access
// log lines to stdout. HostAddr maps a pod IP and port to the real
// address and DialContext connects to it: what probes use. With
// Options.ClusterNetwork (a cluster's DNS and Service proxy) servers
// listen on their pod IP's host address instead, at the port they
// declare (10.244.0.5:80 is served at 127.244.0.5:80), where the proxy
// reaches them; scripts' wget, nc and nslookup resolve and connect
// through it, their I/O running in a goroutine the runtime owns, without
// its lock, until the script resumes.
// Other servers hold their ports without listening: DialContext gives a
// connection the server closes at once, which passes a TCP probe. The
// containers of a sandbox share its ports: a second nginx in a pod fails
// to bind and exits 1.
//
// Sandboxes get their IP from a cni.Plugin (Options.Network): by default
// a cni.HostLocal on 10.88.0.0/16, in a kubelet one on its podCIDR.
//
// # Programmable images
//
// Options.Programs registers Go code under an image name: a container of
// that image (image: example.com/shop-operator:v1 in a pod) runs the
// Program instead of a simulated process. The Program is called when the
// container starts, with a ContainerContext (the pod's name, namespace,
// UID and IP, the environment, the files mounted from ConfigMaps,
// Secrets and the service account volume, a logger writing the
// container's log, the cluster network), and returns an http.Handler
// that the runtime serves like any image's server: at the pod's IP on
// each declared TCP port (ProgramPort, 8080, when none is declared),
// where Services, kube-proxy and `kubectl port-forward` reach it. Its
// command line is /<image name> followed by the pod's args, and it has a
// shell beside it, for `kubectl exec`.
//
// A Program talks to the API server as a pod does:
// ContainerContext.InClusterConfig reads the service account token and
// ca.crt mounted at ServiceAccountDir and connects to the kubernetes
// Service (https://kubernetes.default.svc) through cluster DNS and
// kube-proxy, so requests authenticate as the pod's ServiceAccount and
// RBAC applies. The token is mounted only when the cluster runs the
// ServiceAccount admission plugin (cluster.Options.ServiceAccountAdmission);
// without it, or without a cluster network, InClusterConfig returns
// ErrNotInCluster, and a Program needing the API takes credentials from
// the code that registers it (a closure over a client config).
//
// A Program that returns an error or panics makes its container exit 1
// with the error in its log, and the kubelet restarts it as the pod's
// restartPolicy says. Work that outlives the call (a controller manager,
// a cache) runs through ContainerContext.Go: its context is done when
// the container stops, and the container is reported exited only once
// those goroutines have returned. examples/operator-flow runs an
// operator this way.
//
// # Stopping
//
// StopContainer behaves as SIGTERM then SIGKILL do to a PID 1 in a PID
// namespace, where the kernel drops signals that have no handler:
//
//   - a server (the image's default, a server run directly, or exec'd
//     from a script) handles SIGTERM: it closes its listeners and exits 0;
//   - a script is sh as PID 1 with no handler: it ignores SIGTERM, goes on
//     (and may end by itself within the grace period), or is killed at the
//     timeout with exit code 137, reason Error; so is a bare `sleep 3600`;
//   - a script with `trap '...' TERM` runs the trap when its current
//     sleep ends, as sh does;
//   - a timeout of 0 kills at once (137).
//
// # Time and goroutines
//
// All time goes through Options.Clock: sleeps, grace periods, pull
// delays, timestamps. A test steps a clocktest.Fake. A sleeping container
// is an entry in a heap; the runtime keeps one clock timer for the
// earliest one, and Start's goroutine wakes on it. So an idle container
// costs no goroutine, and with a fake clock clocktest.Fake.BlockUntilWaiters
// counts that one timer (plus a timer per StopContainer grace period, per
// delayed pull and per sleeping exec). Every call first runs what is due
// by the clock's time, so after Step a ContainerStatus is already current;
// Changed tells a waiter when something changed. A container resumed late
// runs at the time it was due: its timestamps do not depend on how far
// the clock was stepped.
//
// The goroutines the runtime owns are Start's and, per listening port of
// an HTTP server, one Serve loop and its connections. They end when their
// container stops or when Start's ctx is done. Log readers, execs
// (ExecSync, and Exec with the streams of `kubectl exec`: stdin read
// first, or a shell on a terminal reading line by line; see
// LANGUAGE.md) and AttachStdin block in their caller's goroutine.
//
// Upstream: containerd's CRI plugin (pkg/cri/server), as far as the
// kubelet can tell.
package simulated
