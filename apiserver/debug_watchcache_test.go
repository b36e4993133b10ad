package apiserver_test

import (
	"encoding/json"
	"net/http"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/authz"
	"github.com/minicp/minicp/apiserver/request"
)

// TestDebugWatchCache checks /debug/watchcache: every cached resource's
// window, the pods' holding a create and counting a watch, and only for
// whom authorization lets in.
func TestDebugWatchCache(t *testing.T) {
	const aliceToken = "alice-token"
	s := newTestServer(t, func(o *apiserver.Options) {
		o.AuthorizationMode = authz.ModeRBAC
		o.Authenticator = authn.Union{o.Authenticator, authn.NewTokenFile([]authn.TokenUser{
			{Token: aliceToken, User: request.User{Name: "alice"}},
		})}
	})
	pod := s.createPod("cached", nil)
	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true")
	ev, _ := w.nextPod()
	require.Equal(t, "ADDED", ev, "the watch's first event")

	var list apiserver.WatchCacheList
	r := s.mustDo(http.StatusOK, "GET", "/debug/watchcache", "")
	assert.Equal(t, "application/json", r.header.Get("Content-Type"))
	require.NoError(t, json.Unmarshal(r.body, &list), "decode %s", r.body)
	var pods *apiserver.WatchCacheInfo
	for i, res := range list.Resources {
		if res.Group == "" && res.Version == "v1" && res.Resource == "pods" {
			pods = &list.Resources[i]
		}
		assert.Positive(t, res.Capacity, "capacity of %s", res.Resource)
	}
	require.NotNil(t, pods, "pods in %s", r.body)
	rv, err := strconv.ParseInt(pod.ResourceVersion, 10, 64)
	require.NoError(t, err)
	assert.GreaterOrEqual(t, pods.ResourceVersion, rv, "the cache has reached the create")
	assert.GreaterOrEqual(t, pods.NewestRV, rv, "the create is in the window")
	assert.LessOrEqual(t, pods.WindowRV, pods.OldestRV, "a watch can start before the oldest event")
	assert.GreaterOrEqual(t, pods.Watchers, 1, "the open watch")
	assert.Equal(t, 1, pods.Objects, "one pod")

	s.mustDo(http.StatusForbidden, "GET", "/debug/watchcache", "", withToken(aliceToken))
	s.mustDo(http.StatusUnauthorized, "GET", "/debug/watchcache", "", withToken("wrong"))
	s.mustDo(http.StatusMethodNotAllowed, "POST", "/debug/watchcache", "{}")
}
