package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"

	"go.opentelemetry.io/otel/propagation"
	"golang.org/x/time/rate"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	authorizationv1 "github.com/minicp/minicp/api/authorization/v1"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	certificatesv1 "github.com/minicp/minicp/api/certificates/v1"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	discoveryv1 "github.com/minicp/minicp/api/discovery/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	rbacv1 "github.com/minicp/minicp/api/rbac/v1"
	"github.com/minicp/minicp/api/runtime"
	schedulingv1 "github.com/minicp/minicp/api/scheduling/v1"
	"github.com/minicp/minicp/clock"
)

// Client sends requests to one API server. It holds no per-request state
// and is safe for concurrent use; typed access goes through Resource and
// Clientset, which share a Client.
//
// A request the server refuses for now, a 429 TooManyRequests or a 5xx
// with a Retry-After header, is sent again after the Retry-After seconds
// of Config.Clock, up to 10 times, as client-go does (see withRetry);
// the caller sees the last refusal only when the retries run out, or the
// context's error (joined with it) when ctx ends while waiting.
//
// Upstream: k8s.io/client-go/rest (RESTClient).
type Client struct {
	base    *url.URL
	http    *http.Client
	scheme  *runtime.Scheme
	timeout time.Duration
	// clock times the waits between retries.
	clock clock.Clock
}

// New validates cfg and returns a Client. It does not contact the server.
func New(cfg Config) (*Client, error) {
	base, err := cfg.baseURL()
	if err != nil {
		return nil, err
	}
	rt, err := cfg.baseTransport()
	if err != nil {
		return nil, err
	}
	if cfg.WrapTransport != nil {
		rt = cfg.WrapTransport(rt)
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real
	}
	if cfg.QPS < 0 || cfg.Burst < 0 {
		return nil, fmt.Errorf("client: QPS (%v) and Burst (%d) must not be negative", cfg.QPS, cfg.Burst)
	}
	if cfg.QPS > 0 {
		burst := cfg.Burst
		if burst == 0 {
			burst = defaultBurst
		}
		rt = &rateLimitTransport{limiter: rate.NewLimiter(rate.Limit(cfg.QPS), burst), clock: cfg.Clock, next: rt}
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = defaultUserAgent
	}
	rt = &headerTransport{token: cfg.BearerToken, userAgent: cfg.UserAgent, next: rt}
	scheme := cfg.Scheme
	if scheme == nil {
		if scheme, err = NewScheme(); err != nil {
			return nil, err
		}
	}
	return &Client{
		base: base,
		// No http.Client.Timeout: it would also cut watches. Timeout is
		// applied per request in do.
		http:    &http.Client{Transport: rt},
		scheme:  scheme,
		timeout: cfg.Timeout,
		clock:   cfg.Clock,
	}, nil
}

// NewScheme returns a Scheme with the built-in kinds and resources
// (core/v1, coordination.k8s.io/v1, apps/v1, batch/v1, the
// autoscaling/v1 Scale, apiextensions.k8s.io/v1
// CustomResourceDefinitions and the admissionregistration.k8s.io/v1
// webhook configurations): the default Config.Scheme.
func NewScheme() (*runtime.Scheme, error) {
	s := runtime.NewScheme()
	for _, add := range []func(*runtime.Scheme) error{corev1.AddToScheme, coordinationv1.AddToScheme,
		appsv1.AddToScheme, batchv1.AddToScheme, autoscalingv1.AddToScheme, apiextensionsv1.AddToScheme, admissionregistrationv1.AddToScheme,
		rbacv1.AddToScheme, authorizationv1.AddToScheme, authenticationv1.AddToScheme, discoveryv1.AddToScheme,
		autoscalingv2.AddToScheme, certificatesv1.AddToScheme, policyv1.AddToScheme, schedulingv1.AddToScheme} {
		if err := add(s); err != nil {
			return nil, fmt.Errorf("client: %w", err)
		}
	}
	return s, nil
}

// CloseIdleConnections closes the connections kept for reuse (and ones
// dialled for requests that were cancelled meanwhile). Call it when done
// with a Client: a server shutting down waits for connections that never
// sent a request. In-flight requests are not affected.
func (c *Client) CloseIdleConnections() { c.http.CloseIdleConnections() }

// Scheme returns the scheme the client decodes with.
func (c *Client) Scheme() *runtime.Scheme { return c.scheme }

// request is one API call, before it becomes an http.Request.
type request struct {
	method      string
	gvr         runtime.GroupVersionResource
	namespace   string // "" for cluster-scoped resources and all-namespace lists
	name        string
	subresource string
	query       url.Values
	body        []byte
	contentType string
	// path, when set, is the request's whole path under the server's base
	// instead of a resource's: a discovery document such as /apis.
	path string
}

// url builds the request's URL: the server's base, r's urlPath and r's
// query.
func (c *Client) url(r request) string {
	u := *c.base
	u.Path += r.urlPath()
	u.RawPath = ""
	u.RawQuery = r.query.Encode()
	return u.String()
}

// urlPath is r.path when set, else the path of r's resource, laid out as
// the API lays them out:
//
//	/api/v1[/namespaces/{ns}]/{resource}[/{name}[/{subresource}]]
//	/apis/{group}/{version}[/namespaces/{ns}]/{resource}[/{name}[/{subresource}]]
func (r request) urlPath() string {
	if r.path != "" {
		return r.path
	}
	var path string
	if r.gvr.Group == "" {
		path = "/api/" + r.gvr.Version
	} else {
		path = "/apis/" + r.gvr.Group + "/" + r.gvr.Version
	}
	if r.namespace != "" {
		path += "/namespaces/" + url.PathEscape(r.namespace)
	}
	path += "/" + r.gvr.Resource
	if r.name != "" {
		path += "/" + url.PathEscape(r.name)
	}
	if r.subresource != "" {
		path += "/" + r.subresource
	}
	return path
}

// send sends r, again after a wait while the server says to retry later
// (see withRetry). A non-2xx response is read, closed and returned as an
// error (see errorFromResponse); a 2xx response is returned open.
//
// Upstream: k8s.io/client-go/rest (Request.request), whose retry loop
// this is.
func (c *Client) send(ctx context.Context, r request) (*http.Response, error) {
	retry := withRetry{clock: c.clock, maxRetries: maxRetries}
	for {
		resp, err := c.sendOnce(ctx, r)
		if err == nil {
			return resp, nil
		}
		wait, ok := retry.isNextRetry(resp)
		if !ok {
			return nil, err
		}
		if werr := retry.wait(ctx, wait); werr != nil {
			return nil, retry.wrapPreviousError(werr, err)
		}
	}
}

// sendOnce builds and sends r once. A 2xx response is returned open with
// a nil error. A non-2xx one is returned too, its body read and closed,
// with the error made from it, so send can read its status and headers;
// a transport error comes with no response.
func (c *Client) sendOnce(ctx context.Context, r request) (*http.Response, error) {
	var body io.Reader
	if r.body != nil {
		// A fresh reader on the same bytes each attempt: what makes every
		// request replayable.
		body = bytes.NewReader(r.body)
	}
	req, err := http.NewRequestWithContext(ctx, r.method, c.url(r), body)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	if r.body != nil {
		ct := r.contentType
		if ct == "" {
			ct = "application/json"
		}
		req.Header.Set("Content-Type", ct)
	}
	// A request made in a trace (a reconcile, a scheduling cycle) carries
	// it to the API server, whose spans join it; without one, nothing.
	propagation.TraceContext{}.Inject(ctx, propagation.HeaderCarrier(req.Header))
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		defer resp.Body.Close()
		data, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody))
		return resp, errorFromResponse(r.method, c.url(r), resp.StatusCode, data)
	}
	return resp, nil
}

// do sends r and decodes a 2xx body into into (when not nil). Config.Timeout
// bounds the whole exchange.
func (c *Client) do(ctx context.Context, r request, into runtime.Object) error {
	if c.timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.timeout)
		defer cancel()
	}
	resp, err := c.send(ctx, r)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return fmt.Errorf("%s %s: read response: %w", r.method, r.urlPath(), err)
	}
	if into == nil {
		return nil
	}
	if err := json.Unmarshal(data, into); err != nil {
		return fmt.Errorf("%s %s: decode response: %w", r.method, r.urlPath(), err)
	}
	return nil
}

// encode marshals obj as a request body.
func encode(obj any) ([]byte, error) {
	data, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("client: encode %T: %w", obj, err)
	}
	return data, nil
}
