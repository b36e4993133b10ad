package healthz

import (
	"fmt"
	"net/http"
	"strings"
)

// Checker is one health check: nil means healthy. It is called with the
// prober's request, must not block for long, and must be safe for
// concurrent use.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/healthz (Checker).
type Checker func(req *http.Request) error

// Ping is a Checker that always passes: the process answers.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/healthz (Ping).
func Ping(*http.Request) error { return nil }

// NamedCheck is a Checker with the name it is reported under.
type NamedCheck struct {
	Name  string
	Check Checker
}

// Handler serves the checks that checks returns at each request (so checks
// added later are served): "ok" (200) when all pass, else every check's
// result and 500. name ("healthz", "readyz") ends the report.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/healthz (Handler).
func Handler(name string, checks func() []NamedCheck) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var b strings.Builder
		failed := false
		for _, c := range checks() {
			if err := c.Check(r); err != nil {
				failed = true
				fmt.Fprintf(&b, "[-]%s failed: %v\n", c.Name, err)
				continue
			}
			fmt.Fprintf(&b, "[+]%s ok\n", c.Name)
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		if failed {
			w.WriteHeader(http.StatusInternalServerError)
			fmt.Fprintf(w, "%s%s check failed\n", b.String(), name)
			return
		}
		if _, verbose := r.URL.Query()["verbose"]; verbose {
			fmt.Fprintf(w, "%s%s check passed\n", b.String(), name)
			return
		}
		fmt.Fprint(w, "ok")
	})
}
