package minicpenv

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"sigs.k8s.io/controller-runtime/pkg/envtest"

	"github.com/minicp/minicp/cluster"
)

// The environment variables envtest reads, read here with the same
// meaning.
const (
	envUseExistingCluster = "USE_EXISTING_CLUSTER"
	envStartTimeout       = "KUBEBUILDER_CONTROLPLANE_START_TIMEOUT"
	envStopTimeout        = "KUBEBUILDER_CONTROLPLANE_STOP_TIMEOUT"
	envAttachOutput       = "KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT"
)

// defaultTimeout bounds starting and stopping minicp, as envtest's 20s
// bound each of its binaries. minicp starts in well under a second; the
// margin is for a loaded CI machine.
const defaultTimeout = 20 * time.Second

// Environment starts an in-process minicp and installs CRDs and webhooks
// into it, as envtest.Environment does with a kube-apiserver. The fields
// up to AttachControlPlaneOutput are envtest.Environment's, with the same
// names, types and meaning; the ones after them are minicp's. The zero
// value is an API server with no CRDs and no webhooks.
//
// An Environment is started once and stopped once; it is not safe for
// concurrent use.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/envtest (Environment).
type Environment struct {
	// Scheme decides which CRDs get a conversion webhook (those whose
	// types are convertible in it; minicp does not call conversion
	// webhooks yet). Defaults to client-go's scheme.Scheme.
	Scheme *runtime.Scheme

	// Config talks to the API server as its admin. Start sets it, unless
	// an existing cluster is used and Config was set already.
	Config *rest.Config

	// KubeConfig is Config as a kubeconfig file; Start sets it when empty.
	KubeConfig []byte

	// CRDInstallOptions are envtest's options for installing CRDs
	// (Paths, CRDs, MaxTime, PollInterval, CleanUpAfterUse, ...).
	CRDInstallOptions envtest.CRDInstallOptions

	// WebhookInstallOptions are envtest's options for installing
	// webhooks. Start fills in LocalServingHost, LocalServingPort,
	// LocalServingCertDir and LocalServingCAData, and installs the
	// MutatingWebhooks and ValidatingWebhooks (and those in Paths) with
	// each clientConfig pointing at that host and port and trusting that
	// CA, as envtest does. Serve them with a controller-runtime webhook
	// server on the same host, port and certificate directory.
	WebhookInstallOptions envtest.WebhookInstallOptions

	// ErrorIfCRDPathMissing makes Start fail when a path of
	// CRDDirectoryPaths does not exist.
	ErrorIfCRDPathMissing bool

	// CRDs are CRDs to install, merged with CRDInstallOptions.CRDs.
	// Start replaces them with the CRDs as installed.
	CRDs []*apiextensionsv1.CustomResourceDefinition

	// CRDDirectoryPaths are files or directories of CRD manifests (YAML
	// or JSON), merged with CRDInstallOptions.Paths.
	CRDDirectoryPaths []string

	// UseExistingCluster uses the cluster of the current kubeconfig
	// (controller-runtime's config.GetConfig: --kubeconfig, KUBECONFIG,
	// ~/.kube/config) instead of starting minicp, exactly as envtest
	// does. nil means the USE_EXISTING_CLUSTER environment variable
	// decides ("true").
	UseExistingCluster *bool

	// ControlPlaneStartTimeout bounds how long Start waits for minicp to
	// be ready. Defaults to KUBEBUILDER_CONTROLPLANE_START_TIMEOUT, else
	// 20 seconds.
	ControlPlaneStartTimeout time.Duration

	// ControlPlaneStopTimeout bounds how long Stop waits for minicp to
	// stop. Defaults to KUBEBUILDER_CONTROLPLANE_STOP_TIMEOUT, else 20
	// seconds.
	ControlPlaneStopTimeout time.Duration

	// AttachControlPlaneOutput writes minicp's log to os.Stderr when
	// Logger is nil. KUBEBUILDER_ATTACH_CONTROL_PLANE_OUTPUT=true sets it.
	AttachControlPlaneOutput bool

	// Controllers chooses which of minicp's built-in controllers run, as
	// kube-controller-manager's --controllers does: "*" is every one
	// (deployment, replicaset, job, garbage collector, namespace, ...),
	// "name" enables and "-name" disables one. Defaults to none, which is
	// what envtest runs: objects with owners are never garbage collected
	// and a deleted namespace stays Terminating.
	Controllers []string

	// Nodes is how many simulated nodes (kubelets) run; with at least
	// one, the scheduler, kube-proxy and cluster DNS run too, so pods
	// are scheduled, "run" and serve through their Services. Defaults
	// to 0, as envtest.
	Nodes int

	// Users are provisioned besides the admin, each with a bearer token
	// of its own; UserConfig returns a Config that authenticates as one.
	// minicp reads its users when it starts, so they are declared here
	// rather than added later (envtest's AddUser). minicp authorizes
	// with RBAC, as envtest's kube-apiserver: a user may do what its
	// groups and name are granted (system:masters anything).
	Users []envtest.User

	// Logger receives minicp's log. Defaults to discarding it (see
	// AttachControlPlaneOutput).
	Logger *slog.Logger

	// installer is the envtest.Environment that installed the CRDs and
	// webhooks; nil before Start and after Stop.
	installer *envtest.Environment
	// running is the minicp cluster; nil when an existing cluster is
	// used.
	running *runningCluster
}

// Start starts minicp (unless an existing cluster is used), installs the
// CRDs and webhooks and returns the admin's Config, which it also stores
// in Config. It blocks until the CRDs are served and the webhook
// configurations exist. On error it stops what it started.
func (te *Environment) Start() (*rest.Config, error) {
	if te.installer != nil {
		return nil, errors.New("minicpenv: Start called twice")
	}
	installer := &envtest.Environment{
		Scheme:                   te.Scheme,
		Config:                   te.Config,
		KubeConfig:               te.KubeConfig,
		CRDInstallOptions:        te.CRDInstallOptions,
		WebhookInstallOptions:    te.WebhookInstallOptions,
		ErrorIfCRDPathMissing:    te.ErrorIfCRDPathMissing,
		CRDs:                     te.CRDs,
		CRDDirectoryPaths:        te.CRDDirectoryPaths,
		UseExistingCluster:       te.UseExistingCluster,
		ControlPlaneStartTimeout: te.ControlPlaneStartTimeout,
		ControlPlaneStopTimeout:  te.ControlPlaneStopTimeout,
		AttachControlPlaneOutput: te.AttachControlPlaneOutput,
	}
	if !te.useExistingCluster() {
		running, err := te.startCluster()
		if err != nil {
			return nil, err
		}
		te.running = running
		// From here on envtest sees minicp as an existing cluster: it
		// installs the CRDs and webhooks over the wire, with its own code.
		existing := true
		installer.UseExistingCluster = &existing
		installer.Config = running.adminConfig()
		installer.KubeConfig = nil
	}
	cfg, err := installer.Start()
	te.Config, te.KubeConfig, te.Scheme = installer.Config, installer.KubeConfig, installer.Scheme
	te.CRDs, te.CRDInstallOptions = installer.CRDs, installer.CRDInstallOptions
	te.WebhookInstallOptions = installer.WebhookInstallOptions
	if err != nil {
		err = fmt.Errorf("minicpenv: %w", err)
		if te.running != nil {
			err = errors.Join(err, te.running.stop(te.stopTimeout()))
			te.running = nil
		}
		return cfg, err
	}
	te.installer = installer
	return cfg, nil
}

// Stop uninstalls the CRDs when CRDInstallOptions.CleanUpAfterUse is set,
// removes the webhook serving certificates and stops minicp, waiting
// until everything it started has exited (at most
// ControlPlaneStopTimeout). Stop without a successful Start does nothing.
func (te *Environment) Stop() error {
	if te.installer == nil {
		return nil
	}
	installer := te.installer
	te.installer = nil
	// The caller may have changed the options since Start, as envtest
	// allows; its Stop reads them.
	installer.Config = te.Config
	installer.CRDInstallOptions = te.CRDInstallOptions
	installer.WebhookInstallOptions = te.WebhookInstallOptions
	err := installer.Stop()
	if te.running != nil {
		err = errors.Join(err, te.running.stop(te.stopTimeout()))
		te.running = nil
	}
	if err != nil {
		return fmt.Errorf("minicpenv: %w", err)
	}
	return nil
}

// UserConfig returns a copy of baseConfig (or of an empty Config) that
// talks to the running minicp as the user of Users named name.
func (te *Environment) UserConfig(name string, baseConfig *rest.Config) (*rest.Config, error) {
	if te.running == nil {
		return nil, errors.New("minicpenv: UserConfig needs a started minicp (not an existing cluster)")
	}
	token, ok := te.running.tokens[name]
	if !ok {
		return nil, fmt.Errorf("minicpenv: no user %q in Users", name)
	}
	cfg := &rest.Config{}
	if baseConfig != nil {
		cfg = rest.CopyConfig(baseConfig)
	}
	admin := te.running.adminConfig()
	cfg.Host, cfg.TLSClientConfig = admin.Host, admin.TLSClientConfig
	cfg.BearerToken = token
	return cfg, nil
}

// Cluster is the running minicp, for what envtest cannot do (WaitIdle,
// its URL, its kubeconfig); nil when an existing cluster is used or
// before Start.
func (te *Environment) Cluster() *cluster.Cluster {
	if te.running == nil {
		return nil
	}
	return te.running.cluster
}

// startCluster starts minicp with the Environment's options and waits
// until it is ready.
func (te *Environment) startCluster() (*runningCluster, error) {
	controllers := te.Controllers
	if controllers == nil {
		// cluster.Options reads nil as every controller; envtest runs none.
		controllers = []string{}
	}
	logger := te.Logger
	if logger == nil && (te.AttachControlPlaneOutput || strings.EqualFold(os.Getenv(envAttachOutput), "true")) {
		logger = slog.New(slog.NewTextHandler(os.Stderr, nil))
	}
	startTimeout, err := timeoutFromEnv(te.ControlPlaneStartTimeout, envStartTimeout)
	if err != nil {
		return nil, err
	}
	return startCluster(cluster.Options{
		Controllers: controllers,
		Nodes:       te.Nodes,
		// Without nodes no pod serves anything, and envtest's
		// kube-apiserver has no kube-proxy, DNS or kube-dns Service
		// (suites count the Services they list).
		DisableServiceNetwork: te.Nodes == 0,
		// envtest's kube-apiserver authorizes with RBAC: suites check
		// that a service account gets 403 for what no role grants. The
		// Node authorizer in front decides only for the kubelets of
		// Nodes, which act as their nodes.
		AuthorizationMode: "Node,RBAC",
		Logger:            logger,
	}, te.Users, startTimeout)
}

// stopTimeout is ControlPlaneStopTimeout, else its environment variable,
// else the default; a malformed variable falls back to the default, as
// stopping must not fail on it.
func (te *Environment) stopTimeout() time.Duration {
	d, err := timeoutFromEnv(te.ControlPlaneStopTimeout, envStopTimeout)
	if err != nil {
		return defaultTimeout
	}
	return d
}

// useExistingCluster reports whether to use the kubeconfig's cluster, as
// envtest decides it.
func (te *Environment) useExistingCluster() bool {
	if te.UseExistingCluster == nil {
		return strings.EqualFold(os.Getenv(envUseExistingCluster), "true")
	}
	return *te.UseExistingCluster
}

// timeoutFromEnv returns d if set, else the duration in the environment
// variable name, else defaultTimeout.
func timeoutFromEnv(d time.Duration, name string) (time.Duration, error) {
	if d > 0 {
		return d, nil
	}
	v := os.Getenv(name)
	if v == "" {
		return defaultTimeout, nil
	}
	d, err := time.ParseDuration(v)
	if err != nil {
		return 0, fmt.Errorf("minicpenv: %s: %w", name, err)
	}
	return d, nil
}
