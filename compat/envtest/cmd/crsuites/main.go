// Command crsuites runs controller-runtime's own test suites against
// minicp and prints, per package, how many Ginkgo specs passed and
// failed. It is what `make compat` runs; run it from the compat/envtest
// module, whose go.mod chooses the controller-runtime version:
//
//	cd compat/envtest && go run ./cmd/crsuites [-out dir] [-pkg pkg/client] [-shared]
//
// Each suite runs against a fresh minicp with no controllers (see package
// suites). The per-package artefacts (reports, logs, the kubeconfig) and
// failures.txt, every spec that did not pass with its failure, go to -out.
// It exits 1 when fewer than -min-passed specs pass or a suite could not
// be built or run, and 0 otherwise: the table is the result.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/go-logr/logr"
	ctrllog "sigs.k8s.io/controller-runtime/pkg/log"

	"github.com/minicp/minicp/compat/envtest/internal/suites"
)

func main() {
	if err := run(); err != nil {
		fmt.Fprintln(os.Stderr, "crsuites:", err)
		os.Exit(1)
	}
}

// pkgList is a repeatable -pkg flag.
type pkgList []string

func (p *pkgList) String() string { return strings.Join(*p, ",") }

func (p *pkgList) Set(v string) error {
	if !strings.HasPrefix(v, suites.Module+"/") {
		v = suites.Module + "/" + v
	}
	*p = append(*p, v)
	return nil
}

func run() error {
	var pkgs pkgList
	out := flag.String("out", "", "directory for reports, logs and failures.txt (default: a new temporary directory)")
	timeout := flag.Duration("timeout", 20*time.Minute, "bound on one suite's run")
	shared := flag.Bool("shared", false, "run every suite against one minicp instead of a fresh one each")
	minPassed := flag.Int("min-passed", 0, "exit 1 when fewer specs pass")
	flag.Var(&pkgs, "pkg", "a package to run, e.g. pkg/client (repeatable; default: all of suites.Packages)")
	flag.Parse()
	// envtest logs through controller-runtime's logger, which complains
	// with a stack trace until one is set; minicp's log goes to -out.
	ctrllog.SetLogger(logr.Discard())

	if *out == "" {
		dir, err := os.MkdirTemp("", "crsuites-")
		if err != nil {
			return err
		}
		*out = dir
	}
	fmt.Printf("controller-runtime %s; artefacts in %s\n", controllerRuntimeVersion(), *out)

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	start := time.Now()
	results, err := suites.Run(ctx, suites.Options{
		Packages: pkgs,
		OutDir:   *out,
		Timeout:  *timeout,
		Shared:   *shared,
		Progress: os.Stdout,
	})
	if err != nil && len(results) == 0 {
		return err
	}
	f, ferr := os.Create(filepath.Join(*out, "failures.txt"))
	if ferr != nil {
		return ferr
	}
	defer f.Close()
	if werr := suites.WriteFailures(f, results); werr != nil {
		return werr
	}
	fmt.Println()
	if werr := suites.WriteTable(os.Stdout, results); werr != nil {
		return werr
	}
	fmt.Printf("in %s; failing specs in %s\n", time.Since(start).Round(time.Second), f.Name())
	if err != nil {
		return err
	}
	for _, r := range results {
		if r.Err != nil {
			return fmt.Errorf("%s: %w", r.Package, r.Err)
		}
	}
	if t := suites.Total(results); t.Passed < *minPassed {
		return fmt.Errorf("%d specs passed, fewer than -min-passed=%d", t.Passed, *minPassed)
	}
	return nil
}

// controllerRuntimeVersion is the version of controller-runtime this
// binary was built with, which is the one whose suites run.
func controllerRuntimeVersion() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range info.Deps {
			if dep.Path == suites.Module {
				return dep.Version
			}
		}
	}
	return "(unknown version)"
}
