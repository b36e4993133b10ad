package webhook

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
	"strconv"
	"time"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// maxResponseBytes bounds what is read of a webhook's answer. A response
// carries at most a patch of one object, and objects are bounded by etcd's
// request limit (1.5 MiB); a patch rewriting every field of such an object
// several times over still fits.
const maxResponseBytes = 16 << 20

// caller makes the HTTPS calls to webhooks. It keeps no connections: each
// call has its own transport, closed when the call returns, so nothing
// outlives a request (webhook calls are rare enough that a TLS handshake
// per call costs nothing that matters here). It is safe for concurrent use.
type caller struct {
	services ServiceResolver
}

// call POSTs review to h and returns the response, checked: an
// AdmissionReview v1 echoing the request's uid, with a patch only from a
// mutating webhook (and then with its type). Every failure is a
// *callError. The call is bounded by h's timeout.
//
// Upstream: k8s.io/apiserver/pkg/admission/plugin/webhook/mutating
// (mutatingDispatcher.callAttrMutatingHook) and validating
// (validatingDispatcher.callHook), and k8s.io/apiserver/pkg/util/webhook
// (ClientManager.HookClient).
func (c caller) call(ctx context.Context, h *hook, review *admissionv1.AdmissionReview, mutating bool) (*admissionv1.AdmissionResponse, error) {
	fail := func(format string, args ...any) error {
		return &callError{webhookName: h.name, reason: fmt.Errorf(format, args...)}
	}
	target, transport, err := c.transport(h)
	if err != nil {
		return nil, fail("could not get REST client: %w", err)
	}
	// The transport is this call's own: release its connection with it.
	defer transport.CloseIdleConnections()
	body, err := json.Marshal(review)
	if err != nil {
		return nil, fail("could not create admission objects: %w", err)
	}
	timeout := time.Duration(h.timeoutSeconds) * time.Second
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	// The timeout travels as a query parameter too, as client-go sends it,
	// so the webhook can give up before the API server does.
	q := target.Query()
	q.Set("timeout", timeout.String())
	target.RawQuery = q.Encode()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, target.String(), bytes.NewReader(body))
	if err != nil {
		return nil, fail("could not create admission objects: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	client := &http.Client{
		Transport: transport,
		// A webhook answers; it does not send the API server elsewhere.
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fail("failed to call webhook: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponseBytes+1))
	if err != nil {
		return nil, fail("failed to call webhook: %w", err)
	}
	if len(data) > maxResponseBytes {
		return nil, fail("failed to call webhook: the response is larger than %d bytes", maxResponseBytes)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fail("failed to call webhook: %w", responseError(resp.StatusCode, data))
	}
	var answer admissionv1.AdmissionReview
	if err := json.Unmarshal(data, &answer); err != nil {
		return nil, fail("failed to call webhook: decode AdmissionReview: %w", err)
	}
	out, err := verifyResponse(review.Request.UID, mutating, &answer)
	if err != nil {
		return nil, fail("received invalid webhook response: %w", err)
	}
	return out, nil
}

// transport returns the URL to POST to and a transport that trusts the
// webhook's caBundle (the system roots without one) and, for a Service,
// dials the endpoint the resolver picks while checking the certificate
// against <name>.<namespace>.svc.
func (c caller) transport(h *hook) (*url.URL, *http.Transport, error) {
	cc := h.clientConfig
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
	transport := &http.Transport{TLSClientConfig: tlsConfig, DisableKeepAlives: true}
	switch {
	case cc.URL != nil:
		u, err := url.Parse(*cc.URL)
		if err != nil {
			return nil, nil, err
		}
		return u, transport, nil
	case cc.Service != nil:
		svc := cc.Service
		port := deref(svc.Port, 443)
		serverName := svc.Name + "." + svc.Namespace + ".svc"
		host := net.JoinHostPort(serverName, strconv.Itoa(int(port)))
		tlsConfig.ServerName = serverName
		var dialer net.Dialer
		transport.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			if addr == host {
				if c.services == nil {
					return nil, errors.New("no service resolver to resolve the webhook's service with")
				}
				resolved, err := c.services.ResolveEndpoint(ctx, svc.Namespace, svc.Name, port)
				if err != nil {
					return nil, err
				}
				addr = resolved
			}
			return dialer.DialContext(ctx, network, addr)
		}
		return &url.URL{Scheme: "https", Host: host, Path: deref(svc.Path, "/")}, transport, nil
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
