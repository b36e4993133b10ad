package job_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/job"
	"github.com/minicp/minicp/controllers/manager"
)

// heldPodWatches is a RoundTripper that holds back the events of every
// pod watch until release is called: the informer lists the pods, then
// learns of no change, as behind a very slow watch.
type heldPodWatches struct {
	next        http.RoundTripper
	releasedCh  chan struct{}
	releaseOnce sync.Once
}

func (h *heldPodWatches) release() { h.releaseOnce.Do(func() { close(h.releasedCh) }) }

func (h *heldPodWatches) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := h.next.RoundTrip(r)
	if err != nil || r.URL.Query().Get("watch") != "true" || !strings.HasSuffix(r.URL.Path, "/pods") {
		return resp, err
	}
	resp.Body = &heldBody{ReadCloser: resp.Body, releasedCh: h.releasedCh, ctx: r.Context()}
	return resp, nil
}

// heldBody reads nothing until released or its request ends.
type heldBody struct {
	io.ReadCloser
	releasedCh <-chan struct{}
	ctx        context.Context
}

func (b *heldBody) Read(p []byte) (int, error) {
	select {
	case <-b.releasedCh:
	case <-b.ctx.Done():
		return 0, b.ctx.Err()
	}
	return b.ReadCloser.Read(p)
}

// TestExpectationsPreventDoubleCreation: the controller's pod watch is
// held back, so its cache never shows the pods it created. Syncs of the
// Job keep coming (the Job changes), each seeing no pod, yet none creates
// more: the creations it expects are not observed yet. Once the watch
// delivers, the Job still has exactly parallelism pods.
func TestExpectationsPreventDoubleCreation(t *testing.T) {
	api := apiservertest.New(t)
	held := &heldPodWatches{next: client.NewInMemoryTransport(api.Handler()), releasedCh: make(chan struct{})}
	t.Cleanup(held.release)
	slow, err := client.New(client.Config{Host: "http://in-memory", Transport: held, BearerToken: apiservertest.AdminToken})
	require.NoError(t, err)
	admin, err := client.NewClientset(clustertest.InMemoryClient(t, api))
	require.NoError(t, err)

	// A fake clock that does not move: the expectations never expire.
	mgr, err := manager.New(manager.Options{Client: slow, Clock: clocktest.NewFake(epoch)})
	require.NoError(t, err)
	require.NoError(t, job.Add(mgr))
	clustertest.Start(t, mgr)
	waitIdle := func() {
		t.Helper()
		ctx, cancel := clustertest.WaitContext(t)
		defer cancel()
		require.NoError(t, mgr.WaitIdle(ctx))
	}
	e := &env{t: t, cs: admin, mgr: mgr}

	e.create(newJob("burst", "sleep 3600", func(j *batchv1.Job) {
		j.Spec.Parallelism, j.Spec.Completions = ptrTo(int32(3)), ptrTo(int32(3))
	}))
	e.waitPods("burst", "created", func(pods []corev1.Pod) bool { return len(pods) == 3 })
	for i := range 3 {
		patch := `{"metadata":{"annotations":{"touch":"` + strings.Repeat("x", i+1) + `"}}}`
		_, err := admin.Jobs(ns).Patch(t.Context(), "burst", client.MergePatchType, []byte(patch), client.WriteOptions{})
		require.NoError(t, err, "touch the job")
		// The sync the change caused saw no pod in the cache (it reports
		// active=0) and still created none.
		e.waitJob("burst", "synced after the change", func(j *batchv1.Job) bool {
			return j.Annotations["touch"] == strings.Repeat("x", i+1) && j.Status.Active == 0
		})
		waitIdle()
		assert.Len(t, e.pods("burst"), 3, "sync %d created no more pods", i+1)
	}

	held.release()
	e.waitJob("burst", "the cache shows the pods", func(j *batchv1.Job) bool { return j.Status.Active == 3 })
	waitIdle()
	assert.Len(t, e.pods("burst"), 3, "exactly parallelism pods")
}
