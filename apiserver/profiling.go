package apiserver

import (
	"net/http"
	"net/http/pprof"

	"github.com/gorilla/mux"
)

// installProfiling serves Go's profiles under /debug/pprof, as
// kube-apiserver does unless --profiling=false: `go tool pprof` reads
// them with the admin's credentials (they sit behind authentication and
// authorization like every other path).
//
// Upstream: k8s.io/apiserver/pkg/server/routes (Profiling.Install).
func installProfiling(r *mux.Router) {
	r.Handle("/debug/pprof", http.RedirectHandler("/debug/pprof/", http.StatusFound))
	r.HandleFunc("/debug/pprof/profile", pprof.Profile)
	r.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	r.HandleFunc("/debug/pprof/trace", pprof.Trace)
	r.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	// Index serves the list at /debug/pprof/ and each named profile
	// (heap, goroutine, ...) below it.
	r.PathPrefix("/debug/pprof/").HandlerFunc(pprof.Index)
}
