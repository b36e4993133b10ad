package protobuf

import (
	"context"
	"net/http"
	"slices"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/stretchr/testify/assert"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/client-go/rest"

	"github.com/minicp/minicp/cluster"
)

// The content types client-go is configured with: what kubectl and
// controllers use for built-in kinds (protobuf, JSON as a fallback), and
// plain JSON to compare with.
const (
	contentTypeProtobuf = "application/vnd.kubernetes.protobuf"
	contentTypeJSON     = "application/json"
	acceptProtobuf      = "application/vnd.kubernetes.protobuf,application/json"
	watchProtobuf       = "application/vnd.kubernetes.protobuf;stream=watch"
)

// startCluster runs a minicp control plane for tb: an embedded etcd and
// an API server on a free loopback port, with no controllers or nodes,
// so objects stay as the test writes them. It stops when tb ends.
func startCluster(tb testing.TB, opts cluster.Options) *cluster.Cluster {
	tb.Helper()
	opts.Controllers = []string{}
	c, err := cluster.New(opts)
	if err != nil {
		tb.Fatalf("cluster.New: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	tb.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			tb.Errorf("cluster stop: %v", err)
		}
	})
	select {
	case <-c.Ready():
	case err := <-done:
		tb.Fatalf("cluster start: %v", err)
	}
	return c
}

// restConfig is a client-go config for c as the admin, sending and
// preferring contentType, without client-side rate limiting. rec, when
// set, records every exchange.
func restConfig(c *cluster.Cluster, contentType string, rec *recorder) *rest.Config {
	cfg := &rest.Config{
		Host:            c.URL(),
		BearerToken:     c.Token(),
		TLSClientConfig: rest.TLSClientConfig{CAData: c.CACertificate()},
		QPS:             -1,
	}
	cfg.ContentType = contentType
	if contentType == contentTypeProtobuf {
		cfg.AcceptContentTypes = acceptProtobuf
	} else {
		cfg.AcceptContentTypes = contentType
	}
	if rec != nil {
		cfg.WrapTransport = rec.wrap
	}
	return cfg
}

// exchange is one request a client made: what it sent and the
// Content-Type of the answer.
type exchange struct {
	method, path, query string
	accept, contentType string
	status              int
	responseType        string
}

// recorder records the exchanges of the clients whose transports it
// wraps. It is safe for concurrent use (watches run in goroutines of
// their own).
type recorder struct {
	// mu guards exchanges.
	mu        sync.Mutex
	exchanges []exchange
}

func (rec *recorder) wrap(next http.RoundTripper) http.RoundTripper {
	return roundTripperFunc(func(r *http.Request) (*http.Response, error) {
		resp, err := next.RoundTrip(r)
		if err != nil {
			return nil, err
		}
		rec.mu.Lock()
		defer rec.mu.Unlock()
		rec.exchanges = append(rec.exchanges, exchange{
			method: r.Method, path: r.URL.Path, query: r.URL.RawQuery,
			accept: r.Header.Get("Accept"), contentType: r.Header.Get("Content-Type"),
			status: resp.StatusCode, responseType: resp.Header.Get("Content-Type"),
		})
		return resp, nil
	})
}

// take returns the exchanges recorded since the last take.
func (rec *recorder) take() []exchange {
	rec.mu.Lock()
	defer rec.mu.Unlock()
	out := rec.exchanges
	rec.exchanges = nil
	return out
}

// assertAnswered asserts that every exchange recorded since the last take
// was answered in one of the media types, and that there was one.
func (rec *recorder) assertAnswered(t *testing.T, what string, responseTypes ...string) {
	t.Helper()
	exchanges := rec.take()
	assert.NotEmpty(t, exchanges, "%s: no request recorded", what)
	for _, ex := range exchanges {
		assert.True(t, slices.Contains(responseTypes, ex.responseType),
			"%s: %s %s?%s (Accept %q) was answered %d in %q, want one of %q", what, ex.method, ex.path, ex.query, ex.accept, ex.status, ex.responseType, responseTypes)
		if ex.contentType != "" {
			assert.Equal(t, contentTypeProtobuf, ex.contentType, "%s: %s %s sent a body in %q", what, ex.method, ex.path, ex.contentType)
		}
	}
}

type roundTripperFunc func(*http.Request) (*http.Response, error)

func (f roundTripperFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// assertSemanticEqual asserts that want and got are the same object as
// Kubernetes compares them: nil and empty collections alike, quantities
// and times by value.
func assertSemanticEqual(t *testing.T, want, got any, what string) {
	t.Helper()
	if !apiequality.Semantic.DeepEqual(want, got) {
		t.Errorf("%s differ (-json +protobuf):\n%s", what, cmp.Diff(want, got))
	}
}
