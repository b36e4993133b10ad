package client_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"io"
	"log"
	"math/big"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
)

func TestConfigValidation(t *testing.T) {
	tests := []struct {
		name    string
		cfg     client.Config
		wantErr string
	}{
		{name: "no host", cfg: client.Config{}, wantErr: "Host is required"},
		{name: "bad scheme", cfg: client.Config{Host: "ftp://h"}, wantErr: "scheme"},
		{name: "host without scheme", cfg: client.Config{Host: "127.0.0.1:6443"}},
		{name: "transport and TLS", cfg: client.Config{Host: "h", Transport: http.DefaultTransport, Insecure: true}, wantErr: "cannot be combined"},
		{name: "insecure and CA", cfg: client.Config{Host: "h", Insecure: true, CAData: []byte("x")}, wantErr: "cannot be combined"},
		{name: "CA without PEM", cfg: client.Config{Host: "h", CAData: []byte("not pem")}, wantErr: "no PEM"},
		{name: "missing CA file", cfg: client.Config{Host: "h", CAFile: "/nonexistent/ca.crt"}, wantErr: "CA file"},
		{name: "bad client certificate", cfg: client.Config{Host: "h", CertData: []byte("x"), KeyData: []byte("y")}, wantErr: "client certificate"},
		{name: "negative QPS", cfg: client.Config{Host: "h", QPS: -1}, wantErr: "must not be negative"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := client.New(tc.cfg)
			if tc.wantErr == "" {
				assert.NoError(t, err)
				return
			}
			assert.ErrorContains(t, err, tc.wantErr)
		})
	}
}

// selfSigned returns a PEM certificate and key for cn.
func selfSigned(t *testing.T, cn string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1),
		Subject:      pkix.Name{CommonName: cn},
		NotBefore:    time.Now().Add(-time.Hour),
		NotAfter:     time.Now().Add(time.Hour),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

// TestClientCertificateAndCAFile talks TLS to a server that requires a
// client certificate and is trusted through a CA file.
func TestClientCertificateAndCAFile(t *testing.T) {
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		cn := r.TLS.PeerCertificates[0].Subject.CommonName
		fmt.Fprintf(w, `{"kind":"Pod","apiVersion":"v1","metadata":{"name":%q,"namespace":"default"}}`, cn)
	}))
	srv.TLS = &tls.Config{ClientAuth: tls.RequireAnyClientCert}
	// The untrusted client below fails the handshake on purpose.
	srv.Config.ErrorLog = log.New(io.Discard, "", 0)
	srv.StartTLS()
	defer srv.Close()
	caFile := filepath.Join(t.TempDir(), "ca.crt")
	require.NoError(t, os.WriteFile(caFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw}), 0o600))

	cert, key := selfSigned(t, "kubelet-n1")
	cs := newClientset(t, client.Config{Host: srv.URL, CAFile: caFile, CertData: cert, KeyData: key})
	pod, err := cs.Pods("default").Get(t.Context(), "x", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, "kubelet-n1", pod.Name, "the server saw the client certificate")
	srv.CloseClientConnections()

	untrusted := newClientset(t, client.Config{Host: srv.URL, CertData: cert, KeyData: key})
	_, err = untrusted.Pods("default").Get(t.Context(), "x", client.GetOptions{})
	assert.ErrorContains(t, err, "certificate", "the server's CA is not in the system roots")
}

// TestQPSLimit checks the token bucket waits on the configured clock.
func TestQPSLimit(t *testing.T) {
	var seen []string
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = append(seen, r.Header.Get("User-Agent"))
		fmt.Fprint(w, `{"kind":"Pod","apiVersion":"v1","metadata":{"name":"x"}}`)
	})
	clk := clocktest.NewFake(time.Unix(1000, 0))
	cs := newClientset(t, client.Config{
		Host: "http://in-memory", Transport: client.NewInMemoryTransport(h),
		QPS: 1, Burst: 1, Clock: clk, UserAgent: "test-agent",
	})
	_, err := cs.Pods("default").Get(t.Context(), "x", client.GetOptions{})
	require.NoError(t, err, "the first request uses the burst")

	done := make(chan error, 1)
	go func() {
		_, err := cs.Pods("default").Get(t.Context(), "x", client.GetOptions{})
		done <- err
	}()
	require.NoError(t, clk.BlockUntilWaiters(t.Context(), 1), "the second request waits for a token")
	select {
	case err := <-done:
		t.Fatalf("the second request did not wait: %v", err)
	default:
	}
	clk.Step(time.Second)
	require.NoError(t, <-done)
	assert.Equal(t, []string{"test-agent", "test-agent"}, seen)
}
