package minicp_test

import (
	"os/exec"
	"path"
	"slices"
	"strings"
	"testing"
)

// allowedImports is the import policy of docs/architecture.md as data:
// for each minicp package (by path below the module, "..." meaning the
// subtree), the minicp packages it may import. Anything else fails the
// test. An edge not listed here needs a change to docs/architecture.md
// first.
var allowedImports = map[string][]string{
	"clock/...":   {"clock/..."},
	"logging":     {},
	"wait":        {"clock/..."},
	"api/...":     {"api/..."},
	"storage/...": {"api/...", "storage/...", "clock/...", "logging", "wait"},
	"watchcache/...": {
		"api/...", "storage/...", "watchcache/...", "clock/...", "logging", "wait",
	},
	"apiserver/...": {
		"api/...", "storage/...", "watchcache/...", "apiserver/...", "clock/...", "logging", "wait",
	},
	"client/...":   {"api/...", "client/...", "clock/...", "logging", "wait"},
	"informer/...": {"api/...", "client/...", "informer/...", "clock/...", "logging", "wait"},
	"controllers/...": {
		"api/...", "client/...", "informer/...", "controllers/...", "clock/...", "logging", "wait",
	},
	"scheduler/...": {"api/...", "client/...", "informer/...", "scheduler/...", "clock/...", "logging", "wait"},
	"kubelet/...":   {"api/...", "client/...", "informer/...", "kubelet/...", "clock/...", "logging", "wait"},
	"proxy/...":     {"api/...", "client/...", "informer/...", "proxy/...", "clock/...", "logging", "wait"},
	"cluster/...":   {"..."},
	"cmd/...":       {"..."},
	"examples/...":  {"..."},
}

const module = "github.com/minicp/minicp"

func TestImportPolicy(t *testing.T) {
	out, err := exec.Command("go", "list", "-f", "{{.ImportPath}} {{join .Imports \",\"}}", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		pkg, imports, _ := strings.Cut(line, " ")
		rel := strings.TrimPrefix(strings.TrimPrefix(pkg, module), "/")
		if rel == "" {
			continue // the root test package
		}
		rule, ok := ruleFor(rel)
		if !ok {
			t.Errorf("package %s has no entry in allowedImports", rel)
			continue
		}
		for imp := range strings.SplitSeq(imports, ",") {
			if !strings.HasPrefix(imp, module+"/") {
				if strings.HasPrefix(imp, "k8s.io/") {
					t.Errorf("%s imports %s: no k8s.io module in the library", rel, imp)
				}
				continue
			}
			dep := strings.TrimPrefix(imp, module+"/")
			if !slices.ContainsFunc(rule, func(p string) bool { return matches(p, dep) }) {
				t.Errorf("%s may not import %s (see DESIGN.md, 'who may import whom')", rel, dep)
			}
		}
	}
}

func ruleFor(rel string) ([]string, bool) {
	best, found := "", false
	for pattern := range allowedImports {
		if matches(pattern, rel) && len(pattern) > len(best) {
			best, found = pattern, true
		}
	}
	return allowedImports[best], found
}

func matches(pattern, rel string) bool {
	if pattern == "..." {
		return true
	}
	if base, ok := strings.CutSuffix(pattern, "/..."); ok {
		return rel == base || strings.HasPrefix(rel, base+"/")
	}
	return path.Clean(pattern) == rel
}
