package client_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/client"
)

func TestInMemoryTransportStreams(t *testing.T) {
	handlerDone := make(chan error, 1)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Test", "yes")
		_, _ = io.WriteString(w, "first\n")
		w.(http.Flusher).Flush()
		// Block like a watch until the client goes away.
		<-r.Context().Done()
		_, err := io.WriteString(w, "after close\n")
		handlerDone <- err
	})
	rt := client.NewInMemoryTransport(h)
	req, err := http.NewRequestWithContext(t.Context(), "GET", "http://in-memory/stream", nil)
	require.NoError(t, err)
	resp, err := rt.RoundTrip(req)
	require.NoError(t, err, "RoundTrip returns before the handler does")
	assert.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "yes", resp.Header.Get("X-Test"))
	line, err := bufio.NewReader(resp.Body).ReadString('\n')
	require.NoError(t, err)
	assert.Equal(t, "first\n", line, "the first write arrives while the handler still runs")

	require.NoError(t, resp.Body.Close(), "Close cancels the handler and waits for it")
	select {
	case err := <-handlerDone:
		assert.Error(t, err, "writes after Close fail")
	default:
		t.Fatal("the handler was still running after Body.Close returned")
	}
}

func TestInMemoryTransportContextCancelEndsRead(t *testing.T) {
	handlerDone := make(chan struct{})
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer close(handlerDone)
		w.WriteHeader(http.StatusAccepted)
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, "GET", "http://in-memory/", nil)
	require.NoError(t, err)
	resp, err := client.NewInMemoryTransport(h).RoundTrip(req)
	require.NoError(t, err)
	assert.Equal(t, http.StatusAccepted, resp.StatusCode)
	readErr := make(chan error, 1)
	go func() {
		_, err := io.ReadAll(resp.Body)
		readErr <- err
	}()
	cancel()
	assert.ErrorIs(t, <-readErr, context.Canceled, "a blocked read ends with the request context")
	require.NoError(t, resp.Body.Close())
	assertClosed(t, handlerDone, "the handler has returned once Close returns")
}

// assertClosed checks that ch is closed now: the goroutine it stands for
// has ended, so nothing leaks.
func assertClosed(t *testing.T, ch <-chan struct{}, msg string) {
	t.Helper()
	select {
	case <-ch:
	default:
		t.Error(msg)
	}
}

func TestInMemoryTransportCancelBeforeHeader(t *testing.T) {
	started, handlerDone := make(chan struct{}), make(chan struct{})
	h := http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		defer close(handlerDone)
		close(started)
		<-r.Context().Done()
	})
	ctx, cancel := context.WithCancel(t.Context())
	req, err := http.NewRequestWithContext(ctx, "GET", "http://in-memory/", nil)
	require.NoError(t, err)
	go func() {
		<-started
		cancel()
	}()
	_, err = client.NewInMemoryTransport(h).RoundTrip(req)
	assert.ErrorIs(t, err, context.Canceled)
	assertClosed(t, handlerDone, "RoundTrip waits for the cancelled handler")
}

func TestInMemoryTransportBodiesAndPanics(t *testing.T) {
	tests := []struct {
		name     string
		handler  http.HandlerFunc
		body     string
		wantCode int
		wantBody string
		wantErr  string
	}{
		{name: "echo", body: "hello", wantCode: http.StatusOK, wantBody: "hello",
			handler: func(w http.ResponseWriter, r *http.Request) { _, _ = io.Copy(w, r.Body) }},
		{name: "nothing written is 200", wantCode: http.StatusOK,
			handler: func(http.ResponseWriter, *http.Request) {}},
		{name: "status only", wantCode: http.StatusNoContent,
			handler: func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusNoContent) }},
		{name: "server-side request fields", wantCode: http.StatusOK, wantBody: "/a/b?x=1 in-memory",
			handler: func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.WriteString(w, r.RequestURI+" "+r.RemoteAddr)
			}},
		{name: "panic before the header", wantErr: "panicked",
			handler: func(http.ResponseWriter, *http.Request) { panic("boom") }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var body io.Reader
			if tc.body != "" {
				body = strings.NewReader(tc.body)
			}
			req, err := http.NewRequestWithContext(t.Context(), "POST", "http://in-memory/a/b?x=1", body)
			require.NoError(t, err)
			resp, err := client.NewInMemoryTransport(tc.handler).RoundTrip(req)
			if tc.wantErr != "" {
				assert.ErrorContains(t, err, tc.wantErr)
				return
			}
			require.NoError(t, err)
			defer resp.Body.Close()
			data, err := io.ReadAll(resp.Body)
			require.NoError(t, err)
			assert.Equal(t, tc.wantCode, resp.StatusCode)
			assert.Equal(t, tc.wantBody, string(data))
		})
	}
}

func TestInMemoryTransportPanicAfterHeader(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "partial")
		panic("boom")
	})
	req, err := http.NewRequestWithContext(t.Context(), "GET", "http://in-memory/", nil)
	require.NoError(t, err)
	resp, err := client.NewInMemoryTransport(h).RoundTrip(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	assert.Equal(t, "partial", string(data))
	assert.ErrorContains(t, err, "panicked", "the body fails instead of ending cleanly")
}
