package apiserver_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
)

// TestConcurrentUpdatesLoseNothing has many writers do read-modify-write
// on one object's counter with optimistic concurrency (PUT with the
// resourceVersion they read, retry on 409). Every acknowledged update must
// show up in the object's history, with the counter going 1, 2, 3... and
// no value written twice.
func TestConcurrentUpdatesLoseNothing(t *testing.T) {
	s := newTestServer(t)
	created := s.createPod("counter", map[string]string{"n": "0"})
	const writers, updatesEach = 8, 10

	var mu sync.Mutex
	var acked []string // resourceVersions of acknowledged updates
	var wg sync.WaitGroup
	for range writers {
		wg.Go(func() {
			for range updatesEach {
				rv, err := incrementCounter(s)
				if !assert.NoError(t, err) {
					return
				}
				mu.Lock()
				acked = append(acked, rv)
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	final := s.mustDo(http.StatusOK, "GET", "/api/v1/namespaces/default/pods/counter", "").pod(t)
	assert.Equal(t, strconv.Itoa(writers*updatesEach), final.Labels["n"], "no update lost")

	w := s.openWatch("/api/v1/namespaces/default/pods?watch=true&resourceVersion=" + created.ResourceVersion)
	var seen []string
	for i := 1; i <= writers*updatesEach; i++ {
		typ, p := w.nextPod()
		require.Equal(t, "MODIFIED", typ)
		assert.Equal(t, strconv.Itoa(i), p.Labels["n"], "history step %d", i)
		seen = append(seen, p.ResourceVersion)
	}
	slices.Sort(acked)
	slices.Sort(seen)
	assert.Equal(t, acked, seen, "every acknowledged update is in the history, and nothing else")
}

// incrementCounter does one optimistic read-modify-write, retrying on 409,
// and returns the resourceVersion of its acknowledged write. It reports
// failures as errors because it runs outside the test goroutine.
func incrementCounter(s *testServer) (string, error) {
	for {
		r, err := s.try("GET", "/api/v1/namespaces/default/pods/counter", "")
		if err != nil {
			return "", err
		}
		var p corev1.Pod
		if err := json.Unmarshal(r.body, &p); err != nil {
			return "", err
		}
		n, _ := strconv.Atoi(p.Labels["n"])
		p.Labels["n"] = strconv.Itoa(n + 1)
		body, _ := json.Marshal(&p)
		r, err = s.try("PUT", "/api/v1/namespaces/default/pods/counter", string(body))
		switch {
		case err != nil:
			return "", err
		case r.code == http.StatusConflict:
			continue
		case r.code != http.StatusOK:
			return "", fmt.Errorf("PUT: %d %s", r.code, r.body)
		}
		if err := json.Unmarshal(r.body, &p); err != nil {
			return "", err
		}
		return p.ResourceVersion, nil
	}
}
