package client_test

import (
	"bytes"
	"context"
	"net/http"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/apiserver/filters"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
)

// The tests of the 429 retry run against a real API server whose
// in-flight limit is one request: a create whose body never arrives holds
// the slot (holdSlot), so every other request gets the server's own 429
// with Retry-After: 1 for as long as the test wants. Only the answers the
// server cannot be made to give on cue (a 5xx with Retry-After, a
// Retry-After of 0 or 2) come from a scripted handler.

// recordingTransport passes requests on and records the status code of
// each answer, so a test can count the attempts the client made.
type recordingTransport struct {
	next http.RoundTripper
	// mu guards codes.
	mu    sync.Mutex
	codes []int
}

func (rt *recordingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := rt.next.RoundTrip(req)
	if err == nil {
		rt.mu.Lock()
		rt.codes = append(rt.codes, resp.StatusCode)
		rt.mu.Unlock()
	}
	return resp, err
}

func (rt *recordingTransport) Codes() []int {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return append([]int(nil), rt.codes...)
}

// blockingBody is a request body whose first Read blocks until released:
// the request it belongs to holds its in-flight slot meanwhile.
type blockingBody struct {
	enteredCh chan struct{} // closed by the first Read
	releaseCh chan struct{} // closed by release
	entered   sync.Once
	data      *bytes.Reader
}

func (b *blockingBody) Read(p []byte) (int, error) {
	b.entered.Do(func() { close(b.enteredCh) })
	<-b.releaseCh
	return b.data.Read(p)
}

func (b *blockingBody) Close() error { return nil }

// holdSlot creates the pod name with a body that arrives only when the
// returned release is called, and returns once the server is reading the
// body: past the limits filter, holding an in-flight slot. release lets
// the body through and returns the create's status code; the test's
// cleanup calls it too.
func holdSlot(t *testing.T, api *apiserver.Server, name string) (release func() int) {
	t.Helper()
	body := &blockingBody{
		enteredCh: make(chan struct{}), releaseCh: make(chan struct{}),
		data: bytes.NewReader([]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"` + name +
			`"},"spec":{"containers":[{"name":"c","image":"busybox"}]}}`)),
	}
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, "http://in-memory/api/v1/namespaces/default/pods", body)
	require.NoError(t, err)
	req.Header.Set("Authorization", "Bearer "+apiservertest.AdminToken)
	req.Header.Set("Content-Type", "application/json")
	codeCh := make(chan int, 1)
	go func() {
		resp, err := client.NewInMemoryTransport(api.Handler()).RoundTrip(req)
		if err != nil {
			codeCh <- 0
			return
		}
		resp.Body.Close()
		codeCh <- resp.StatusCode
	}()
	ctx, cancel := clustertest.WaitContext(t)
	defer cancel()
	select {
	case <-body.enteredCh:
	case <-ctx.Done():
		t.Fatalf("the slot-holding create never reached its handler")
	}
	var code int
	release = sync.OnceValue(func() int {
		close(body.releaseCh)
		code = <-codeCh
		return code
	})
	t.Cleanup(func() { release() })
	return release
}

// newRetryClient starts an API server with an in-flight limit of one and
// returns it with a client on a fake clock whose attempts rt records.
func newRetryClient(t *testing.T) (*apiserver.Server, *client.Clientset, *clocktest.Fake, *recordingTransport) {
	t.Helper()
	api := apiservertest.New(t, func(o *apiserver.Options) {
		o.Limits = filters.Limits{MaxInFlight: 1}
	})
	clk := clocktest.NewFake(time.Unix(0, 0))
	rt := &recordingTransport{next: client.NewInMemoryTransport(api.Handler())}
	cs := newClientset(t, client.Config{Host: "http://in-memory", Transport: rt, BearerToken: apiservertest.AdminToken, Clock: clk})
	return api, cs, clk, rt
}

// waitCtx bounds a test's waits; it ends with the test.
func waitCtx(t *testing.T) context.Context {
	ctx, cancel := clustertest.WaitContext(t)
	t.Cleanup(cancel)
	return ctx
}

// TestRetryTooManyRequests: a create refused with the API server's 429
// because its in-flight limit is full waits the Retry-After second on the
// client's clock, not a moment less, and then goes through.
func TestRetryTooManyRequests(t *testing.T) {
	api, cs, clk, rt := newRetryClient(t)
	ctx := waitCtx(t)
	release := holdSlot(t, api, "holder")

	done := make(chan error, 1)
	go func() {
		_, err := cs.Pods("default").Create(ctx, newPod("", "retried", nil), client.WriteOptions{})
		done <- err
	}()
	require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "the refused create waits on the clock")
	assert.Equal(t, []int{http.StatusTooManyRequests}, rt.Codes(), "one attempt, refused")

	require.Equal(t, http.StatusCreated, release(), "the slot holder's create")
	clk.Step(time.Second - time.Millisecond)
	assert.Equal(t, 1, clk.Waiters(), "no retry before Retry-After: 1 has passed")
	assert.Equal(t, []int{http.StatusTooManyRequests}, rt.Codes(), "no second attempt yet")

	clk.Step(time.Millisecond)
	select {
	case err := <-done:
		require.NoError(t, err, "create after the retry")
	case <-ctx.Done():
		t.Fatal("the retried create never returned")
	}
	assert.Equal(t, []int{http.StatusTooManyRequests, http.StatusCreated}, rt.Codes(), "refused, then created")
	_, err := cs.Pods("default").Get(ctx, "retried", client.GetOptions{})
	assert.NoError(t, err, "the retried pod is stored")
}

// TestRetryGivesUpAfterMaxRetries: a server that keeps refusing gets the
// first attempt and ten retries, a second apart, and then the caller gets
// the 429.
func TestRetryGivesUpAfterMaxRetries(t *testing.T) {
	api, cs, clk, rt := newRetryClient(t)
	ctx := waitCtx(t)
	holdSlot(t, api, "holder")

	done := make(chan error, 1)
	go func() {
		_, err := cs.Pods("default").Get(ctx, "holder", client.GetOptions{})
		done <- err
	}()
	for retry := 1; retry <= 10; retry++ {
		require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "wait before retry %d", retry)
		clk.Step(time.Second)
	}
	select {
	case err := <-done:
		require.Error(t, err)
		assert.True(t, apierrors.IsTooManyRequests(err), "the last refusal is returned: %v", err)
	case <-ctx.Done():
		t.Fatal("the refused get never returned")
	}
	codes := rt.Codes()
	assert.Len(t, codes, 11, "the first attempt and 10 retries")
	for i, code := range codes {
		assert.Equal(t, http.StatusTooManyRequests, code, "attempt %d", i+1)
	}
	assert.Equal(t, 0, clk.Waiters(), "no timer left behind")
}

// TestRetryStopsWhenContextEnds: cancelling the request's context ends
// the wait at once, with an error that is both the context's and the
// server's 429, and without another attempt.
func TestRetryStopsWhenContextEnds(t *testing.T) {
	api, cs, clk, rt := newRetryClient(t)
	ctx := waitCtx(t)
	holdSlot(t, api, "holder")

	reqCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := cs.Pods("default").List(reqCtx, client.ListOptions{})
		done <- err
	}()
	require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "the refused list waits on the clock")
	cancel()
	select {
	case err := <-done:
		assert.ErrorIs(t, err, context.Canceled)
		assert.True(t, apierrors.IsTooManyRequests(err), "the refusal is kept: %v", err)
	case <-ctx.Done():
		t.Fatal("cancelling did not end the wait")
	}
	assert.Equal(t, []int{http.StatusTooManyRequests}, rt.Codes(), "no attempt after the cancel")
	assert.Equal(t, 0, clk.Waiters(), "the wait's timer is stopped")
}

// scriptedServer answers the first request with first and every later one
// with next, through the in-memory transport; the client on a fake clock
// records its attempts.
func scriptedServer(t *testing.T, first, next http.HandlerFunc) (*client.Clientset, *clocktest.Fake, *recordingTransport) {
	t.Helper()
	var mu sync.Mutex
	calls := 0
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		calls++
		n := calls
		mu.Unlock()
		if n == 1 {
			first(w, r)
			return
		}
		next(w, r)
	})
	clk := clocktest.NewFake(time.Unix(0, 0))
	rt := &recordingTransport{next: client.NewInMemoryTransport(h)}
	cs := newClientset(t, client.Config{Host: "http://in-memory", Transport: rt, Clock: clk})
	return cs, clk, rt
}

// refuse answers code with a Status body and, unless "", a Retry-After.
func refuse(code int, retryAfter string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		if retryAfter != "" {
			w.Header().Set("Retry-After", retryAfter)
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		_, _ = w.Write([]byte(`{"kind":"Status","apiVersion":"v1","status":"Failure","code":` + strconv.Itoa(code) + `}`))
	}
}

// servePod answers a GET of pod p.
func servePod(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write([]byte(`{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"default"}}`))
}

// TestRetryWhichResponses: which refusals are retried and after how long,
// as client-go's checkWait decides: a 429 or a 5xx with a Retry-After of
// whole seconds. The real API server sends only 429 with Retry-After: 1,
// so the other answers come from a scripted handler.
func TestRetryWhichResponses(t *testing.T) {
	tests := []struct {
		name       string
		code       int
		retryAfter string
		wantWait   time.Duration // for a retried request
		wantRetry  bool
	}{
		{name: "429 Retry-After 2", code: http.StatusTooManyRequests, retryAfter: "2", wantRetry: true, wantWait: 2 * time.Second},
		{name: "503 Retry-After 0 retries at once", code: http.StatusServiceUnavailable, retryAfter: "0", wantRetry: true},
		{name: "500 Retry-After 1", code: http.StatusInternalServerError, retryAfter: "1", wantRetry: true, wantWait: time.Second},
		{name: "504 Retry-After 3", code: http.StatusGatewayTimeout, retryAfter: "3", wantRetry: true, wantWait: 3 * time.Second},
		{name: "429 without Retry-After", code: http.StatusTooManyRequests},
		{name: "503 without Retry-After", code: http.StatusServiceUnavailable},
		{name: "409 with Retry-After", code: http.StatusConflict, retryAfter: "1"},
		{name: "429 with an HTTP-date Retry-After", code: http.StatusTooManyRequests, retryAfter: "Wed, 21 Oct 2015 07:28:00 GMT"},
		{name: "429 with a negative Retry-After", code: http.StatusTooManyRequests, retryAfter: "-1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cs, clk, rt := scriptedServer(t, refuse(tc.code, tc.retryAfter), servePod)
			ctx := waitCtx(t)
			done := make(chan error, 1)
			go func() {
				_, err := cs.Pods("default").Get(ctx, "p", client.GetOptions{})
				done <- err
			}()
			if tc.wantWait > 0 {
				require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "the client waits on the clock")
				clk.Step(tc.wantWait - time.Millisecond)
				assert.Equal(t, 1, clk.Waiters(), "still waiting a moment before %v", tc.wantWait)
				clk.Step(time.Millisecond)
			}
			var err error
			select {
			case err = <-done:
			case <-ctx.Done():
				t.Fatal("Get never returned")
			}
			if tc.wantRetry {
				require.NoError(t, err, "Get after the retry")
				assert.Equal(t, []int{tc.code, http.StatusOK}, rt.Codes(), "refused once, then served")
				return
			}
			require.Error(t, err)
			assert.Equal(t, int32(tc.code), apierrors.CodeForError(err), "the refusal reaches the caller: %v", err)
			assert.Equal(t, []int{tc.code}, rt.Codes(), "no retry")
		})
	}
}

// TestWatchRetriedOnlyBeforeTheStream: a watch the server refuses with a
// 429 is asked again after Retry-After, as client-go does; once the
// stream has started, its end closes the result channel and nothing is
// sent again.
func TestWatchRetriedOnlyBeforeTheStream(t *testing.T) {
	cs, clk, rt := scriptedServer(t, refuse(http.StatusTooManyRequests, "1"), func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"type":"ADDED","object":{"kind":"Pod","apiVersion":"v1","metadata":{"name":"p","namespace":"default","resourceVersion":"5"}}}` + "\n"))
		// The handler returns: the stream ends, as when the server closes
		// a watch.
	})
	ctx := waitCtx(t)
	type result struct {
		w   watch.Interface
		err error
	}
	started := make(chan result, 1)
	go func() {
		w, err := cs.Pods("default").Watch(ctx, client.ListOptions{ResourceVersion: "1"})
		started <- result{w, err}
	}()
	require.NoError(t, clk.BlockUntilWaiters(ctx, 1), "the refused watch waits on the clock")
	clk.Step(time.Second)
	var res result
	select {
	case res = <-started:
	case <-ctx.Done():
		t.Fatal("Watch never returned")
	}
	require.NoError(t, res.err, "Watch after the retry")
	defer res.w.Stop()
	ev := clustertest.NextEvent(t, res.w)
	assert.Equal(t, watch.Added, ev.Type)
	assert.Equal(t, "p", ev.Object.(*corev1.Pod).Name)
	clustertest.WaitClosed(t, res.w)
	assert.Equal(t, []int{http.StatusTooManyRequests, http.StatusOK}, rt.Codes(), "no request after the stream ended")
}
