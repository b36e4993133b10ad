package webhookclient

import (
	"bytes"
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"path"
	"strconv"
	"sync"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// ClientConfig is how to reach a webhook over TLS: exactly one of URL and
// Service. It is the common form of admissionregistration's and
// apiextensions' WebhookClientConfig.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ClientConfig).
type ClientConfig struct {
	// URL is https://host:port/path.
	URL string `json:"url,omitempty"`
	// Service is an in-cluster Service to call instead.
	Service *ServiceReference `json:"service,omitempty"`
	// CABundle is PEM certificates to verify the webhook with; the system
	// roots when empty.
	CABundle []byte `json:"caBundle,omitempty"`
}

// ServiceReference names the Service a webhook runs behind, with its
// defaults applied.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ClientConfigService).
type ServiceReference struct {
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
	// Path is the URL path to call; "/" when empty.
	Path string `json:"path,omitempty"`
	// Port is the Service port (spec.ports[].port).
	Port int32 `json:"port"`
}

// ServiceResolver turns a webhook's Service reference into an address to
// dial: the host:port of a ready endpoint of the Service in namespace,
// for the service port port (its spec.ports[].port). The address is
// dialled as it is, so endpoint addresses must be reachable from the API
// server's process: 127.0.0.1 for a webhook served by the test process,
// a real address for one elsewhere. The TLS server name stays
// <name>.<namespace>.svc, so the webhook's certificate must be valid for
// it. A Service that cannot be resolved is an error (a NotFound or
// ServiceUnavailable Status).
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ServiceResolver).
type ServiceResolver interface {
	ResolveEndpoint(ctx context.Context, namespace, name string, port int32) (string, error)
}

// Request is one call to a webhook.
type Request struct {
	Config ClientConfig
	// Services resolves Config.Service. Required when Config names a
	// Service. It must be comparable (a pointer is): the client cache is
	// keyed by it.
	Services ServiceResolver
	// Timeout bounds the call, and is sent to the webhook as the timeout
	// query parameter, as client-go sends it, so the webhook can give up
	// before the API server does.
	Timeout time.Duration
	// Body is the JSON review to POST.
	Body []byte
}

// ConfigError is a client configuration that cannot be used (a caBundle
// without certificates, a URL that does not parse): nothing was sent.
// Callers word it apart from a failed call.
type ConfigError struct {
	Err error
}

func (e *ConfigError) Error() string { return e.Err.Error() }

func (e *ConfigError) Unwrap() error { return e.Err }

// maxResponseBytes bounds what is read of a webhook's answer. An
// admission response carries at most a patch of one object, and objects
// are bounded by etcd's request limit (1.5 MiB); a patch rewriting every
// field of such an object several times over still fits. A conversion
// response carries the objects of one review: one etcd read's worth.
const maxResponseBytes = 16 << 20

// Client makes the HTTPS calls to webhooks, through one HTTP transport
// per client configuration, so calls reuse their connections: a webhook
// is called on every request it matches, and a TLS handshake per call
// would cost more than the rest of the call (measured: about 2.5 ms
// against 0.9 ms for a whole create). The zero value is ready to use and
// safe for concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/util/webhook (ClientManager, whose cache
// is keyed by the client configuration too).
type Client struct {
	// mu guards clients.
	mu      sync.Mutex
	clients map[cacheKey]*cachedClient
}

// cacheKey is a client configuration (as JSON) and the resolver its
// Service is resolved with.
type cacheKey struct {
	config   string
	services ServiceResolver
}

type cachedClient struct {
	target    *url.URL
	transport *http.Transport
}

// maxCachedClients bounds the cache; configurations are few, and a cache
// that overflows is emptied (closing its idle connections) rather than
// grown.
const maxCachedClients = 128

// idleConnTimeout closes a connection a webhook has not used for a while,
// so an idle API server holds no connection (nor its goroutines) for long.
const idleConnTimeout = 30 * time.Second

// Post sends req and returns the body of the webhook's 2xx answer. It
// blocks until the answer is read, req.Timeout passes or ctx is done. A
// configuration that cannot be used is a *ConfigError; any other error is
// a failed call, worded as client-go words it: the URL and the transport
// error, or the message of the Status a non-2xx answer carries.
func (c *Client) Post(ctx context.Context, req Request) ([]byte, error) {
	target, transport, err := c.get(req.Config, req.Services)
	if err != nil {
		return nil, &ConfigError{Err: err}
	}
	ctx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	q := target.Query()
	q.Set("timeout", req.Timeout.String())
	target.RawQuery = q.Encode()
	httpReq, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), bytes.NewReader(req.Body))
	if err != nil {
		return nil, &ConfigError{Err: err}
	}
	httpReq.Header.Set("Content-Type", "application/json")
	httpReq.Header.Set("Accept", "application/json")
	client := &http.Client{
		Transport: transport,
		// A webhook answers; it does not send the API server elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(httpReq)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > maxResponseBytes {
		return nil, fmt.Errorf("the response is larger than %d bytes", maxResponseBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, responseError(resp.StatusCode, data)
	}
	return data, nil
}

// get returns the URL and transport for cc, building them on first use.
// The URL is the caller's to modify.
func (c *Client) get(cc ClientConfig, services ServiceResolver) (*url.URL, *http.Transport, error) {
	keyJSON, err := json.Marshal(cc)
	if err != nil {
		return nil, nil, err
	}
	key := cacheKey{config: string(keyJSON), services: services}
	c.mu.Lock()
	defer c.mu.Unlock()
	if cached, ok := c.clients[key]; ok {
		u := *cached.target
		return &u, cached.transport, nil
	}
	target, transport, err := newTransport(cc, services)
	if err != nil {
		return nil, nil, err
	}
	if c.clients == nil || len(c.clients) >= maxCachedClients {
		for _, old := range c.clients {
			old.transport.CloseIdleConnections()
		}
		c.clients = map[cacheKey]*cachedClient{}
	}
	c.clients[key] = &cachedClient{target: target, transport: transport}
	u := *target
	return &u, transport, nil
}

// newTransport returns the URL to POST to and a transport that trusts
// the webhook's caBundle (the system roots without one) and, for a
// Service, dials the endpoint services picks while checking the
// certificate against <name>.<namespace>.svc.
func newTransport(cc ClientConfig, services ServiceResolver) (*url.URL, *http.Transport, error) {
	tlsConfig := &tls.Config{MinVersion: tls.VersionTLS12}
	if len(cc.CABundle) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(cc.CABundle) {
			return nil, nil, errors.New("unable to load root certificates: unable to parse bytes as PEM block")
		}
		tlsConfig.RootCAs = pool
	}
	// No proxy: webhooks are reached directly, as kube-apiserver does
	// for in-cluster services.
	transport := &http.Transport{TLSClientConfig: tlsConfig, IdleConnTimeout: idleConnTimeout}
	switch {
	case cc.URL != "":
		u, err := url.Parse(cc.URL)
		if err != nil {
			return nil, nil, err
		}
		// The path is cleaned, as client-go's request builder joins it:
		// envtest writes "https://host:port//validate" for a kubebuilder
		// path "/validate", and a Go webhook server answers "//validate"
		// with a redirect.
		u.Path = path.Join("/", u.Path)
		return u, transport, nil
	case cc.Service != nil:
		svc := *cc.Service
		serverName := svc.Name + "." + svc.Namespace + ".svc"
		host := net.JoinHostPort(serverName, strconv.Itoa(int(svc.Port)))
		tlsConfig.ServerName = serverName
		var dialer net.Dialer
		transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr == host {
				if services == nil {
					return nil, errors.New("no service resolver to resolve the webhook's service with")
				}
				resolved, err := services.ResolveEndpoint(ctx, svc.Namespace, svc.Name, svc.Port)
				if err != nil {
					return nil, err
				}
				addr = resolved
			}
			return dialer.DialContext(ctx, network, addr)
		}
		p := svc.Path
		if p == "" {
			p = "/"
		}
		return &url.URL{Scheme: "https", Host: host, Path: p}, transport, nil
	}
	return nil, nil, errors.New("the webhook has neither a url nor a service")
}

// responseError describes a webhook's non-2xx answer: the Status it sent,
// or the body, as client-go words an unexpected response.
func responseError(code int, body []byte) error {
	var s metav1.Status
	if json.Unmarshal(body, &s) == nil && s.Kind == "Status" && s.Message != "" {
		return errors.New(s.Message)
	}
	if code >= http.StatusInternalServerError {
		return fmt.Errorf("an error on the server (%q) has prevented the request from succeeding", bytes.TrimSpace(body))
	}
	return fmt.Errorf("the server responded with the status code %d but did not return more information", code)
}
