package apiserver

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"

	"github.com/minicp/minicp/watchcache"
)

// watchCachePath is where the server reports its watch caches' windows
// (see serveWatchCache); the web view reads it.
const watchCachePath = "/debug/watchcache"

// WatchCacheList is the body of GET /debug/watchcache: one entry per
// served resource that has a watch cache.
type WatchCacheList struct {
	Resources []WatchCacheInfo `json:"resources"`
}

// WatchCacheInfo is one resource's watch cache window.
type WatchCacheInfo struct {
	Group    string `json:"group"`
	Version  string `json:"version"`
	Resource string `json:"resource"`
	watchcache.Stats
}

// serveWatchCache serves GET /debug/watchcache: each resource's event
// window (capacity, oldest and newest resourceVersion, watchers) as
// JSON, sorted by group, resource and version. It only reads, and sits
// behind authentication and authorization like /debug/pprof (a
// non-resource URL: under RBAC, the admin or whom a ClusterRole grants
// it).
func (s *Server) serveWatchCache(w http.ResponseWriter, r *http.Request) {
	s.mu.RLock()
	list := WatchCacheList{Resources: make([]WatchCacheInfo, 0, len(s.resources))}
	cachers := make([]*watchcache.Cacher, 0, len(s.resources))
	for gvr, res := range s.resources {
		if res.cacher == nil {
			continue
		}
		list.Resources = append(list.Resources, WatchCacheInfo{Group: gvr.Group, Version: gvr.Version, Resource: gvr.Resource})
		cachers = append(cachers, res.cacher)
	}
	s.mu.RUnlock()
	// Stats takes the caches' own locks: not under s.mu, which every
	// request's routing takes.
	for i, c := range cachers {
		list.Resources[i].Stats = c.Stats()
	}
	slices.SortFunc(list.Resources, func(a, b WatchCacheInfo) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Resource, b.Resource), cmp.Compare(a.Version, b.Version))
	})
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(list)
}
