package client

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/clock"
)

// Config says how to reach and authenticate to an API server. Host is
// required; the zero value of every other field works. A Config is read
// by New and not kept: changing it later changes no Client.
//
// Upstream: k8s.io/client-go/rest (Config).
type Config struct {
	// Host is the API server's base URL, such as https://127.0.0.1:6443.
	// A host without a scheme gets https://.
	Host string
	// BearerToken is sent as "Authorization: Bearer <token>" on every
	// request.
	BearerToken string
	// CAData is PEM certificates to trust for the server, instead of the
	// system roots. CAFile names a file holding them; CAData wins when both
	// are set.
	CAData []byte
	CAFile string
	// CertData and KeyData are a PEM client certificate and its key, for
	// servers that authenticate clients by certificate. Over
	// NewInMemoryTransport they are presented as the TLS peer
	// certificate of every request, so the server's certificate
	// authenticator sees what a TLS handshake would have shown it.
	CertData []byte
	KeyData  []byte
	// Insecure skips verifying the server's certificate. It cannot be
	// combined with CAData or CAFile.
	Insecure bool
	// Transport, when set, carries every request instead of an
	// http.Transport built from the TLS fields above, which must then be
	// empty (but for CertData and KeyData over NewInMemoryTransport):
	// NewInMemoryTransport, or a test's fault-injecting wrapper. The
	// token, user agent and QPS limit still apply.
	Transport http.RoundTripper
	// WrapTransport, when set, wraps the transport (Transport or the one
	// built from the TLS fields) beneath the token and user agent: how a
	// caller adds credentials that change over time, such as a service
	// account token it renews. The Authorization header it sets wins over
	// BearerToken.
	//
	// Upstream: k8s.io/client-go/rest (Config.WrapTransport).
	WrapTransport func(http.RoundTripper) http.RoundTripper
	// QPS and Burst limit requests with a token bucket: QPS tokens a
	// second, up to Burst at once. QPS 0 means no limit: minicp's
	// components usually run in one process with the API server, where
	// client-go's default of 5 QPS would only slow them down. Burst
	// defaults to 10, client-go's default.
	QPS   float64
	Burst int
	// UserAgent is sent on every request. Defaults to "minicp-client".
	UserAgent string
	// Timeout bounds each request other than a watch, from sending to the
	// end of the body, retries after a 429 included. It is a deadline on
	// the wall clock, as in net/http, never on Clock: a fake clock in a
	// test must not make I/O time out.
	// Zero means no timeout. Watches are bounded by ListOptions
	// TimeoutSeconds and their context instead.
	Timeout time.Duration
	// Scheme maps kinds to Go types and resources to kinds. Defaults to a
	// scheme with core/v1 (see NewScheme).
	Scheme *runtime.Scheme
	// Clock drives the QPS limiter's waits and the Retry-After waits
	// before a request the server refused for now is sent again (see
	// Client). Defaults to clock.Real.
	Clock clock.Clock
	// Namespace is the namespace of the kubeconfig context the Config was
	// loaded from ("default" when the context names none). The client never
	// applies it by itself: pass it to Clientset.Pods and friends.
	Namespace string
}

// defaultUserAgent names minicp in the API server's audit log.
const defaultUserAgent = "minicp-client"

// defaultBurst is client-go's default burst for a limited client.
const defaultBurst = 10

// maxIdleConnsPerHost is client-go's value: a controller talks to one
// host with many concurrent requests, and net/http's default of 2 idle
// connections would close and reopen TLS connections all the time.
const maxIdleConnsPerHost = 25

// baseURL parses Host, adding https:// when it has no scheme.
func (c Config) baseURL() (*url.URL, error) {
	if c.Host == "" {
		return nil, errors.New("client: Config.Host is required")
	}
	host := c.Host
	if !strings.Contains(host, "://") {
		host = "https://" + host
	}
	u, err := url.Parse(host)
	if err != nil {
		return nil, fmt.Errorf("client: Config.Host: %w", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, fmt.Errorf("client: Config.Host %q: scheme must be http or https", c.Host)
	}
	u.Path = strings.TrimSuffix(u.Path, "/")
	return u, nil
}

// hasTLS reports whether any TLS field is set.
func (c Config) hasTLS() bool {
	return len(c.CAData) > 0 || c.CAFile != "" || len(c.CertData) > 0 || len(c.KeyData) > 0 || c.Insecure
}

// baseTransport returns the Transport, or an http.Transport built from the
// TLS fields.
func (c Config) baseTransport() (http.RoundTripper, error) {
	if c.Transport != nil {
		if m, ok := c.Transport.(*inMemoryTransport); ok && (len(c.CertData) > 0 || len(c.KeyData) > 0) {
			if len(c.CAData) > 0 || c.CAFile != "" || c.Insecure {
				return nil, errors.New("client: Config.Transport cannot be combined with a CA or Insecure")
			}
			return m.withPeerCertificate(c.CertData, c.KeyData)
		}
		if c.hasTLS() {
			return nil, errors.New("client: Config.Transport cannot be combined with TLS options or Insecure")
		}
		return c.Transport, nil
	}
	tlsConfig, err := c.tlsConfig()
	if err != nil {
		return nil, err
	}
	return &http.Transport{
		Proxy:               http.ProxyFromEnvironment,
		TLSClientConfig:     tlsConfig,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: maxIdleConnsPerHost,
		// The same as http.DefaultTransport: a server that does not answer
		// the TLS handshake in 10s is not going to.
		TLSHandshakeTimeout: 10 * time.Second,
	}, nil
}

// tlsConfig builds the TLS configuration: the roots to trust and the
// client certificate.
func (c Config) tlsConfig() (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	ca := c.CAData
	if len(ca) == 0 && c.CAFile != "" {
		data, err := os.ReadFile(c.CAFile)
		if err != nil {
			return nil, fmt.Errorf("client: read CA file: %w", err)
		}
		ca = data
	}
	if c.Insecure && len(ca) > 0 {
		return nil, errors.New("client: Config.Insecure cannot be combined with a CA")
	}
	cfg.InsecureSkipVerify = c.Insecure
	if len(ca) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(ca) {
			return nil, errors.New("client: the CA data holds no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	if len(c.CertData) > 0 || len(c.KeyData) > 0 {
		cert, err := tls.X509KeyPair(c.CertData, c.KeyData)
		if err != nil {
			return nil, fmt.Errorf("client: client certificate: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return cfg, nil
}
