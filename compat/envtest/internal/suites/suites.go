package suites

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/minicp/minicp/compat/envtest/minicpenv"
)

// Module is controller-runtime's module path; its version is the one this
// module's go.mod requires.
const Module = "sigs.k8s.io/controller-runtime"

// Packages are the controller-runtime packages whose suites make the bar
// (issue 6, point 7): every suite that talks to an API server.
var Packages = []string{
	Module + "/pkg/client",
	Module + "/pkg/cache",
	Module + "/pkg/controller",
	Module + "/pkg/builder",
	Module + "/pkg/manager",
	Module + "/pkg/source",
	Module + "/pkg/handler",
	Module + "/pkg/internal/controller",
	Module + "/pkg/envtest",
	Module + "/pkg/webhook",
	Module + "/pkg/reconcile",
	Module + "/pkg/cluster",
	Module + "/pkg/controller/controllerutil",
	Module + "/pkg/internal/recorder",
	Module + "/pkg/metrics/filters",
	Module + "/pkg/manager/internal/integration",
}

// Options configures Run.
type Options struct {
	// Packages are the import paths of the suites to run. Defaults to
	// Packages.
	Packages []string
	// OutDir receives, per package, the test binary, the Ginkgo reports,
	// the kubeconfig, the suite's output and minicp's log. Required.
	OutDir string
	// Timeout bounds one suite's run (--ginkgo.timeout). Defaults to 20
	// minutes; against kube-apiserver the slowest suite takes about three.
	Timeout time.Duration
	// Shared runs every suite against one minicp instead of a fresh one
	// each. A fresh one is the default: it is what a suite's own envtest
	// would give it, and one suite's leftovers (webhook configurations
	// whose server is gone, CRDs) cannot fail the next.
	Shared bool
	// Go is the go command. Defaults to "go".
	Go string
	// Progress, when set, receives a line as each suite finishes.
	Progress io.Writer
}

// Result is one suite's outcome.
type Result struct {
	Package string
	// Counts are the suite's specs by outcome. Specs is the number the
	// dry run found, so a suite that crashed counts every spec it did not
	// report as failed.
	Counts
	// Failures are the specs that did not pass, in the suite's order.
	Failures []Failure
	// SuiteFailures explain specs that did not run: a failed BeforeSuite,
	// an interrupt, a crash of the test binary (with the end of its
	// output).
	SuiteFailures []string
	// Duration is the suite's run, without building it.
	Duration time.Duration
	// Err is set when the suite could not be built or run at all.
	Err error
}

// Run runs each package's suite against minicp, one after another (the
// suites share the machine, and with Shared the cluster), and returns
// their results in order. It returns an error only when ctx ends or the
// options are wrong; a suite that cannot run has Result.Err.
func Run(ctx context.Context, opts Options) ([]Result, error) {
	if opts.OutDir == "" {
		return nil, errors.New("suites: OutDir is required")
	}
	if len(opts.Packages) == 0 {
		opts.Packages = Packages
	}
	if opts.Timeout <= 0 {
		opts.Timeout = 20 * time.Minute
	}
	if opts.Go == "" {
		opts.Go = "go"
	}
	if err := os.MkdirAll(opts.OutDir, 0o700); err != nil {
		return nil, fmt.Errorf("suites: %w", err)
	}
	var shared *minicpenv.Environment
	if opts.Shared {
		env, stop, err := startMinicp(filepath.Join(opts.OutDir, "minicp.log"))
		if err != nil {
			return nil, err
		}
		defer stop()
		shared = env
	}
	var results []Result
	for _, pkg := range opts.Packages {
		r := runSuite(ctx, opts, pkg, shared)
		results = append(results, r)
		if opts.Progress != nil {
			fmt.Fprintln(opts.Progress, progressLine(r))
		}
		if err := ctx.Err(); err != nil {
			return results, err
		}
	}
	return results, nil
}

// progressLine is the line Progress gets for r.
func progressLine(r Result) string {
	if r.Err != nil {
		return fmt.Sprintf("%s: %v", shortName(r.Package), r.Err)
	}
	return fmt.Sprintf("%s: %d passed, %d failed, %d skipped of %d specs in %s",
		shortName(r.Package), r.Passed, r.Failed, r.Skipped, r.Specs, r.Duration.Round(time.Second))
}

// runSuite builds, counts and runs one package's suite.
func runSuite(ctx context.Context, opts Options, pkg string, shared *minicpenv.Environment) Result {
	r := Result{Package: pkg}
	base := filepath.Join(opts.OutDir, fileName(pkg))
	dir, err := output(ctx, opts.Go, "list", "-f", "{{.Dir}}", pkg)
	if err != nil {
		r.Err = fmt.Errorf("locate: %w", err)
		return r
	}
	dir = strings.TrimSpace(dir)
	bin := base + ".test"
	if _, err := output(ctx, opts.Go, "test", "-c", "-o", bin, pkg); err != nil {
		r.Err = fmt.Errorf("build: %w", err)
		return r
	}
	// The dry run counts the specs without running them (nor the
	// BeforeSuite), so a suite that crashes still has a denominator.
	dryReport := base + ".dryrun.json"
	if err := runBinary(ctx, bin, dir, nil, base+".dryrun.log", opts.Timeout,
		"-ginkgo.dry-run", "-ginkgo.json-report="+dryReport); err != nil && !isExit(err) {
		r.Err = fmt.Errorf("dry run: %w", err)
		return r
	}
	expected, err := CountSpecs(dryReport)
	if err != nil {
		r.Err = fmt.Errorf("dry run: %w", err)
		return r
	}

	env := shared
	if env == nil {
		var stop func() error
		if env, stop, err = startMinicp(base + ".minicp.log"); err != nil {
			r.Err = err
			return r
		}
		defer stop()
	}
	kubeconfig := base + ".kubeconfig"
	if err := os.WriteFile(kubeconfig, env.KubeConfig, 0o600); err != nil {
		r.Err = fmt.Errorf("kubeconfig: %w", err)
		return r
	}
	report := base + ".json"
	logPath := base + ".log"
	start := time.Now()
	runErr := runBinary(ctx, bin, dir, []string{"KUBECONFIG=" + kubeconfig, "USE_EXISTING_CLUSTER=true"}, logPath,
		opts.Timeout, "-ginkgo.json-report="+report)
	r.Duration = time.Since(start)

	counts, failures, suiteFailures, err := ReadReport(report)
	if err != nil {
		// No report: the binary died (a panic outside a spec, the test
		// timeout) before Ginkgo could write it.
		counts = Counts{Specs: expected, Failed: expected}
		suiteFailures = []string{fmt.Sprintf("no report (%v); the suite's output ends: %s", runErr, logTail(logPath, 12))}
	}
	if missing := expected - counts.Specs; missing > 0 {
		counts.Specs, counts.Failed = expected, counts.Failed+missing
	}
	r.Counts, r.Failures, r.SuiteFailures = counts, failures, suiteFailures
	return r
}

// startMinicp starts a minicp as a suite's envtest would get one: an API
// server with no controllers, scheduler or nodes, logging to logPath. stop
// stops it and closes the log.
func startMinicp(logPath string) (env *minicpenv.Environment, stop func() error, err error) {
	f, err := os.Create(logPath)
	if err != nil {
		return nil, nil, fmt.Errorf("minicp log: %w", err)
	}
	useExisting := false
	env = &minicpenv.Environment{
		// This process may have USE_EXISTING_CLUSTER set; the minicp it
		// starts is the existing cluster of the suites.
		UseExistingCluster: &useExisting,
		Logger:             slog.New(slog.NewTextHandler(f, &slog.HandlerOptions{Level: slog.LevelInfo})),
	}
	if _, err := env.Start(); err != nil {
		f.Close()
		return nil, nil, err
	}
	return env, func() error { return errors.Join(env.Stop(), f.Close()) }, nil
}

// interruptGrace is how long a suite has, after its deadline, to write its
// report once interrupted (Ginkgo reports on SIGINT) before it is killed.
const interruptGrace = 30 * time.Second

// runBinary runs a test binary in dir (the package's directory, as go
// test does), with extraEnv replacing those variables of this process's
// environment, its output to logPath. Ginkgo stops itself at timeout; the
// test binary's own deadline and the interrupt are backstops.
func runBinary(ctx context.Context, bin, dir string, extraEnv []string, logPath string, timeout time.Duration, args ...string) error {
	log, err := os.Create(logPath)
	if err != nil {
		return err
	}
	defer log.Close()
	ctx, cancel := context.WithTimeout(ctx, timeout+2*interruptGrace)
	defer cancel()
	args = append([]string{
		"-test.timeout=" + (timeout + interruptGrace).String(),
		"-ginkgo.timeout=" + timeout.String(),
		"-ginkgo.no-color",
	}, args...)
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = dir
	cmd.Env = withEnv(os.Environ(), extraEnv)
	cmd.Stdout, cmd.Stderr = log, log
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = interruptGrace
	return cmd.Run()
}

// withEnv returns environ with the variables of extra set to extra's
// values, and without USE_EXISTING_CLUSTER and KUBECONFIG unless extra
// sets them: the dry run must not see this process's cluster.
func withEnv(environ, extra []string) []string {
	drop := []string{"USE_EXISTING_CLUSTER=", "KUBECONFIG="}
	for _, kv := range extra {
		name, _, _ := strings.Cut(kv, "=")
		drop = append(drop, name+"=")
	}
	out := slices.DeleteFunc(slices.Clone(environ), func(kv string) bool {
		return slices.ContainsFunc(drop, func(p string) bool { return strings.HasPrefix(kv, p) })
	})
	return append(out, extra...)
}

// isExit reports whether err is a process's non-zero exit, which a suite
// with failing specs has.
func isExit(err error) bool {
	var exitErr *exec.ExitError
	return errors.As(err, &exitErr)
}

// output runs the go command and returns its standard output; on error
// the error carries its standard error.
func output(ctx context.Context, goCmd string, args ...string) (string, error) {
	var stderr bytes.Buffer
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("%s %s: %w: %s", goCmd, strings.Join(args, " "), err, strings.TrimSpace(stderr.String()))
	}
	return string(out), nil
}

// logTail returns the last n lines of the file at path, on one line.
func logTail(path string, n int) string {
	data, err := os.ReadFile(path)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}

// shortName is pkg without the module's path: pkg/client.
func shortName(pkg string) string { return strings.TrimPrefix(pkg, Module+"/") }

// fileName is a file name for pkg's artefacts: pkg_client.
func fileName(pkg string) string { return strings.ReplaceAll(shortName(pkg), "/", "_") }
