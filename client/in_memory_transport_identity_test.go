package client_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"io"
	"math/big"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/client"
)

// clientCertificate returns a PEM certificate for cn in orgs and its key.
func clientCertificate(t *testing.T, cn string, orgs ...string) (certPEM, keyPEM []byte) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: cn, Organization: orgs},
		NotBefore: time.Now().Add(-time.Minute), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	keyDER, err := x509.MarshalECPrivateKey(key)
	require.NoError(t, err)
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})
}

// TestInMemoryTransportPresentsTheClientCertificate: a client certificate
// over the in-memory transport is the request's TLS peer certificate, as
// after a handshake, so the server's certificate authenticator sees it.
func TestInMemoryTransportPresentsTheClientCertificate(t *testing.T) {
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
			_, _ = io.WriteString(w, "none")
			return
		}
		leaf := r.TLS.PeerCertificates[0]
		_, _ = io.WriteString(w, leaf.Subject.CommonName+" "+strings.Join(leaf.Subject.Organization, ","))
	})
	get := func(cfg client.Config) string {
		t.Helper()
		cl, err := client.New(cfg)
		require.NoError(t, err)
		body, err := cl.GetRaw(t.Context(), "/who", nil)
		require.NoError(t, err)
		return string(body)
	}
	certPEM, keyPEM := clientCertificate(t, "system:node:n1", "system:nodes")
	assert.Equal(t, "system:node:n1 system:nodes",
		get(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(h), CertData: certPEM, KeyData: keyPEM}))
	assert.Equal(t, "none", get(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(h)}))

	_, otherKey := clientCertificate(t, "mallory")
	_, err := client.New(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(h), CertData: certPEM, KeyData: otherKey})
	assert.ErrorContains(t, err, "client certificate", "a key that is not the certificate's")
	_, err = client.New(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(h), CertData: certPEM, KeyData: keyPEM, Insecure: true})
	assert.Error(t, err, "Insecure means nothing in memory")
}
