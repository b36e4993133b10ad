// Package webhooktest runs webhooks for tests: an HTTPS server on
// 127.0.0.1 that decodes each AdmissionReview (New) or ConversionReview
// (NewConversion), hands its request to a Go function and writes the
// function's response back, with a certificate of its own to put in a
// configuration's caBundle. It is the webhook side of
// apiserver/admission/webhook and of custom resource conversion, as
// net/http/httptest is the server side of net/http.
package webhooktest

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"io"
	"log"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"testing"
	"time"

	admissionv1 "github.com/minicp/minicp/api/admission/v1"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// ReviewFunc answers one admission request. ctx is the HTTP request's
// context: it ends when the API server gives up on the call (its
// timeoutSeconds), so a function that blocks on it simulates a webhook
// that hangs. The response's UID is filled with the request's when left
// empty; a nil response is answered with 500.
type ReviewFunc func(ctx context.Context, req *admissionv1.AdmissionRequest) *admissionv1.AdmissionResponse

// Server is a running webhook.
type Server struct {
	// URL is the base URL, "https://127.0.0.1:<port>"; every path is
	// served by the same function.
	URL string
	// Addr is the listening address, "127.0.0.1:<port>", what an Endpoints
	// object points a Service at.
	Addr string
	// Port is Addr's port.
	Port int32
	// CABundle is the PEM of the server's self-signed certificate, valid
	// for 127.0.0.1 and the DNS names New was given: a configuration's
	// clientConfig.caBundle.
	CABundle []byte
}

// New starts a webhook serving fn over TLS, with a certificate valid for
// 127.0.0.1 and dnsNames (a Service's "<name>.<namespace>.svc"). It is
// closed when the test ends, after the calls in flight return.
func New(t testing.TB, fn ReviewFunc, dnsNames ...string) *Server {
	t.Helper()
	return serve(t, handler(fn), dnsNames)
}

// ConversionFunc answers one conversion request, as ReviewFunc does an
// admission request: ctx ends when the API server gives up on the call.
// The response's UID is filled with the request's when left empty, and
// its result with Success when its status is empty; a nil response is
// answered with 500.
type ConversionFunc func(ctx context.Context, req *apiextensionsv1.ConversionRequest) *apiextensionsv1.ConversionResponse

// NewConversion starts a conversion webhook serving fn, as New starts an
// admission webhook.
func NewConversion(t testing.TB, fn ConversionFunc, dnsNames ...string) *Server {
	t.Helper()
	return serve(t, conversionHandler(fn), dnsNames)
}

// serve serves h over TLS until the test ends.
func serve(t testing.TB, h http.Handler, dnsNames []string) *Server {
	t.Helper()
	cert, certPEM := selfSigned(t, dnsNames)
	srv := httptest.NewUnstartedServer(servedByMux(h))
	srv.TLS = &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}
	// Clients that give up mid-handshake are part of the tests (timeouts),
	// not news.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	t.Cleanup(srv.Close)
	u, err := url.Parse(srv.URL)
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	port, err := strconv.ParseInt(u.Port(), 10, 32)
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	return &Server{URL: srv.URL, Addr: u.Host, Port: int32(port), CABundle: certPEM}
}

// servedByMux serves h behind an http.ServeMux, as a webhook server
// written in Go does: a path that is not clean ("//validate") gets a
// redirect instead of an answer.
func servedByMux(h http.Handler) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/", h)
	return mux
}

func handler(fn ReviewFunc) http.Handler {
	return reviewHandler("an AdmissionReview", func(ctx context.Context, review *admissionv1.AdmissionReview) (any, bool) {
		if review.Request == nil {
			return nil, false
		}
		resp := fn(ctx, review.Request)
		if resp == nil {
			return nil, true
		}
		if resp.UID == "" {
			resp.UID = review.Request.UID
		}
		return admissionv1.AdmissionReview{TypeMeta: review.TypeMeta, Response: resp}, true
	})
}

func conversionHandler(fn ConversionFunc) http.Handler {
	return reviewHandler("a ConversionReview", func(ctx context.Context, review *apiextensionsv1.ConversionReview) (any, bool) {
		if review.Request == nil {
			return nil, false
		}
		resp := fn(ctx, review.Request)
		if resp == nil {
			return nil, true
		}
		if resp.UID == "" {
			resp.UID = review.Request.UID
		}
		if resp.Result.Status == "" {
			resp.Result.Status = metav1.StatusSuccess
		}
		return apiextensionsv1.ConversionReview{TypeMeta: review.TypeMeta, Response: resp}, true
	})
}

// reviewHandler decodes each request's body as a T (named kind in
// errors) and writes back what answer returns: 400 when answer finds no
// request in it, 500 when it has no answer.
func reviewHandler[T any](kind string, answer func(ctx context.Context, review *T) (out any, hasRequest bool)) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var review T
		err := json.NewDecoder(r.Body).Decode(&review)
		var out any
		hasRequest := false
		if err == nil {
			out, hasRequest = answer(r.Context(), &review)
		}
		switch {
		case !hasRequest:
			http.Error(w, "webhooktest: the body is not "+kind+" with a request", http.StatusBadRequest)
		case out == nil:
			http.Error(w, "webhooktest: no response", http.StatusInternalServerError)
		default:
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(out)
		}
	})
}

// Allow is a response that admits the request unchanged.
func Allow() *admissionv1.AdmissionResponse { return &admissionv1.AdmissionResponse{Allowed: true} }

// JSONPatch is a response that admits the request with patch, an RFC 6902
// JSON patch given as Go values (marshalled here), such as
// []map[string]any{{"op": "add", "path": "/metadata/labels/x", "value": "y"}}.
func JSONPatch(patch any) *admissionv1.AdmissionResponse {
	data, err := json.Marshal(patch)
	if err != nil {
		panic(err)
	}
	pt := admissionv1.PatchTypeJSONPatch
	return &admissionv1.AdmissionResponse{Allowed: true, Patch: data, PatchType: &pt}
}

// validity is a fixed span that contains any run of the tests, so the
// certificate needs no clock.
var validity = struct{ from, to time.Time }{
	time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2100, 1, 1, 0, 0, 0, 0, time.UTC),
}

// selfSigned makes a CA certificate that is also the server's, so the one
// PEM serves as the caBundle.
func selfSigned(t testing.TB, dnsNames []string) (tls.Certificate, []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	tmpl := &x509.Certificate{
		SerialNumber:          big.NewInt(1),
		Subject:               pkix.Name{CommonName: "webhooktest"},
		NotBefore:             validity.from,
		NotAfter:              validity.to,
		IsCA:                  true,
		BasicConstraintsValid: true,
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		ExtKeyUsage:           []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses:           []net.IP{net.IPv4(127, 0, 0, 1), net.IPv6loopback},
		DNSNames:              dnsNames,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatalf("webhooktest: %v", err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key},
		pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}
