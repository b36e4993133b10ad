package apiserver

import (
	"context"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"time"
)

// HealthCheck is one named check of /healthz, /livez or /readyz.
type HealthCheck struct {
	Name  string
	Check func(ctx context.Context) error
}

// healthCheckTimeout bounds each check so a stuck etcd makes the endpoint
// answer "failed" quickly instead of hanging the prober.
const healthCheckTimeout = 5 * time.Second

// serveHealth runs checks and answers "ok" (200) or the failures (500), in
// kube-apiserver's format; ?verbose lists every check.
func serveHealth(name string, checks func() []HealthCheck) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		ctx, cancel := context.WithTimeout(r.Context(), healthCheckTimeout)
		defer cancel()
		var b strings.Builder
		failed := false
		for _, c := range checks() {
			if err := c.Check(ctx); err != nil {
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
	}
}

// Info is what /version reports.
type Info struct {
	Major        string `json:"major"`
	Minor        string `json:"minor"`
	GitVersion   string `json:"gitVersion"`
	GitCommit    string `json:"gitCommit"`
	GitTreeState string `json:"gitTreeState"`
	BuildDate    string `json:"buildDate"`
	GoVersion    string `json:"goVersion"`
	Compiler     string `json:"compiler"`
	Platform     string `json:"platform"`
}

// Version is the Kubernetes version minicp speaks the API of: kubectl
// warns when its own minor version is more than one away from it.
var Version = Info{
	Major:        "1",
	Minor:        "32",
	GitVersion:   "v1.32.0-minicp",
	GitTreeState: "clean",
	GoVersion:    runtime.Version(),
	Compiler:     runtime.Compiler,
	Platform:     runtime.GOOS + "/" + runtime.GOARCH,
}
