// Package minicpenv is a drop-in for controller-runtime's envtest
// (sigs.k8s.io/controller-runtime/pkg/envtest): its Environment starts a
// minicp control plane inside the test process (an embedded etcd in a
// temporary directory and minicp's API server on a free loopback port)
// instead of the kube-apiserver and etcd binaries, and returns a
// *rest.Config for it. Nothing has to be downloaded, and it starts in well
// under a second.
//
// A suite moves to it by changing the type it starts:
//
//	testEnv = &minicpenv.Environment{ // was: &envtest.Environment{
//		CRDDirectoryPaths:     []string{filepath.Join("..", "config", "crd", "bases")},
//		ErrorIfCRDPathMissing: true,
//	}
//	cfg, err := testEnv.Start()
//
// The fields it shares with envtest.Environment have the same names and
// types (CRDs, CRDDirectoryPaths, CRDInstallOptions, WebhookInstallOptions,
// Scheme, Config, KubeConfig, UseExistingCluster, ...), and CRDs and
// webhooks are installed by envtest's own code, over the wire, exactly as
// envtest installs them: the CRDs are created and waited for until they
// are served, and the webhook configurations' clientConfig is rewritten
// to a URL on LocalServingHost:LocalServingPort with the CA of the serving
// certificate envtest generated in LocalServingCertDir.
//
// Like envtest, an Environment runs an API server only: no
// controller-manager (so no garbage collector and no namespace
// finalization), no scheduler and no kubelets. Unlike envtest, it can run
// minicp's own (Controllers, Nodes), so a test can see a Deployment's pods
// scheduled and running.
//
// It lives in a module of its own (compat/envtest), so the minicp library
// never depends on k8s.io modules (see compat/ in docs/architecture.md).
// The module's cmd/crsuites runs controller-runtime's own test suites
// against minicp (`make compat`).
package minicpenv
