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
	"clock/...":     {"clock/..."},
	"logging":       {},
	"wait":          {"clock/..."},
	"tracing":       {"wait"},
	"wait/waittest": {},
	"api/...":       {"api/..."},
	"storage/...":   {"api/...", "storage/...", "clock/...", "logging", "wait/...", "tracing"},
	"watchcache/...": {
		"api/...", "storage/...", "watchcache/...", "clock/...", "logging", "wait/...", "tracing",
	},
	// The API server's root package wires its layers together and alone
	// touches the watch cache.
	"apiserver/...": {
		"api/...", "storage/...", "watchcache/...", "apiserver/...", "clock/...", "logging", "wait/...", "tracing",
	},
	// Inside the API server each layer imports only layers below it: the
	// request's facts; negotiation, response writing, printing, field
	// management and the webhooks' HTTPS client; authentication,
	// authorization, audit, metrics and admission; the filters; the
	// registry (strategies over storage); the handlers (HTTP for every
	// verb, over the registry).
	"apiserver/request":              {},
	"apiserver/handlers/negotiation": {"api/..."},
	"apiserver/responsewriters":      {"api/...", "apiserver/handlers/negotiation"},
	"apiserver/printers":             {"api/..."},
	"apiserver/fieldmanager":         {"api/...", "clock/..."},
	"apiserver/webhookclient":        {"api/..."},
	"apiserver/audit":                {"api/..."},
	"apiserver/metrics":              {"api/...", "apiserver/request"},
	"apiserver/authn":                {"api/...", "apiserver/request", "clock/...", "logging"},
	"apiserver/authz/...":            {"api/...", "apiserver/request", "apiserver/authz/..."},
	"apiserver/admission/...": {
		"api/...", "apiserver/request", "apiserver/admission/...", "apiserver/webhookclient", "clock/...", "logging", "wait/...", "tracing",
	},
	// API Priority and Fairness: classification and queues, below the
	// filter that dispatches through it.
	"apiserver/flowcontrol": {"api/...", "apiserver/request", "clock/..."},
	"apiserver/filters": {
		"api/...", "apiserver/request", "apiserver/authn", "apiserver/authz", "apiserver/audit", "apiserver/flowcontrol",
		"apiserver/metrics", "apiserver/responsewriters", "clock/...", "logging", "tracing",
	},
	// Pod logs stream over HTTP from the registry, so it may write
	// responses; it may not import the handlers above it.
	"apiserver/registry/...": {
		"api/...", "storage", "apiserver/registry/...", "apiserver/printers", "apiserver/request",
		"apiserver/authz/...", "apiserver/responsewriters", "clock/...", "logging", "wait/...", "tracing",
	},
	"apiserver/handlers": {
		"api/...", "storage", "apiserver/handlers/negotiation", "apiserver/registry", "apiserver/admission",
		"apiserver/fieldmanager", "apiserver/request", "apiserver/responsewriters", "clock/...", "logging", "wait/...", "tracing",
	},
	"client/...":   {"api/...", "client/...", "clock/...", "logging", "wait/...", "tracing"},
	"informer/...": {"api/...", "client/...", "informer/...", "clock/...", "logging", "wait/...", "tracing"},
	"controllers/...": {
		"api/...", "client/...", "informer/...", "controllers/...", "clock/...", "logging", "wait/...", "tracing",
	},
	"scheduler/...": {"api/...", "client/...", "informer/...", "scheduler/...", "clock/...", "logging", "wait/...", "tracing"},
	"kubelet/...":   {"api/...", "client/...", "informer/...", "kubelet/...", "clock/...", "logging", "wait/...", "tracing"},
	"proxy/...":     {"api/...", "client/...", "informer/...", "proxy/...", "clock/...", "logging", "wait/...", "tracing"},
	"cluster/...":   {"..."},
	"cmd/...":       {"..."},
	"examples/...":  {"..."},
	// The workshop's exercises are written as users write their own
	// code: against any public package (a controller, a scheduler
	// plugin, an admission plugin, a watch window over storage errors).
	"workshop/...": {"..."},

	// The stream protocols of exec, attach and port-forward know only the
	// wire: Status for the error channel, nothing of pods or containers.
	"kubelet/streaming": {"api/meta/v1"},

	// The web view is a consumer like the components: it sees the
	// cluster through the API server, and the spans of its Tracing.
	"webview": {"api/...", "client/...", "informer/...", "clock/...", "logging", "wait/...", "tracing"},
}

// testSupport lists the test-support packages, the <pkg>test packages
// that exist for tests as net/http/httptest does. Of the library, only
// other test-support packages import them; tests may, and so may the
// programs in testSupportUsers.
var testSupport = []string{
	"clock/clocktest",
	"wait/waittest",
	"storage/storagetest",
	"api/runtime/runtimetest",
	"apiserver/apiservertest",
	"apiserver/admission/webhook/webhooktest",
	"scheduler/framework/frameworktest",
	"cluster/clustertest",
	"workshop/workshoptest",
}

// testSupportUsers may import testSupport: the examples run the flows on
// clocktest's fake clock so that a reader sees minutes pass in a moment.
var testSupportUsers = []string{"examples/..."}

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
		if strings.HasSuffix(path.Base(rel), "test") && !slices.Contains(testSupport, rel) {
			t.Errorf("package %s looks like test support; list it in testSupport", rel)
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
			if slices.Contains(testSupport, dep) && !slices.Contains(testSupport, rel) &&
				!slices.ContainsFunc(testSupportUsers, func(p string) bool { return matches(p, rel) }) {
				t.Errorf("%s imports %s: test-support packages are for tests", rel, dep)
			}
			if !slices.ContainsFunc(rule, func(p string) bool { return matches(p, dep) }) {
				t.Errorf("%s may not import %s (see docs/architecture.md, 'who may import whom')", rel, dep)
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
