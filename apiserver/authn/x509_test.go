package authn_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"math/big"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/clock/clocktest"
)

// testCA is a certificate authority that signs test certificates.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
}

func newTestCA(t *testing.T, now time.Time) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test-ca"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true, IsCA: true,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return &testCA{cert: cert, key: key}
}

func (ca *testCA) issue(t *testing.T, now time.Time, subject pkix.Name, usage x509.ExtKeyUsage) *x509.Certificate {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: subject,
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{usage},
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	require.NoError(t, err)
	cert, err := x509.ParseCertificate(der)
	require.NoError(t, err)
	return cert
}

func TestX509(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	ca, other := newTestCA(t, now), newTestCA(t, now)
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)

	tests := []struct {
		name     string
		cert     *x509.Certificate
		step     time.Duration
		wantUser string
		wantErr  string
	}{
		{name: "no certificate"},
		{
			name: "signed by the CA",
			cert: ca.issue(t, now, pkix.Name{CommonName: "carol", Organization: []string{"devs"}}, x509.ExtKeyUsageClientAuth), wantUser: "carol",
		},
		{
			name:    "signed by another CA",
			cert:    other.issue(t, now, pkix.Name{CommonName: "mallory"}, x509.ExtKeyUsageClientAuth),
			wantErr: "x509: certificate signed by unknown authority",
		},
		{
			name:    "server certificate",
			cert:    ca.issue(t, now, pkix.Name{CommonName: "server"}, x509.ExtKeyUsageServerAuth),
			wantErr: "x509: certificate specifies an incompatible key usage",
		},
		{
			name:    "expired",
			cert:    ca.issue(t, now, pkix.Name{CommonName: "carol"}, x509.ExtKeyUsageClientAuth),
			step:    2 * time.Hour,
			wantErr: "x509: certificate has expired or is not yet valid",
		},
		{
			name:    "no common name",
			cert:    ca.issue(t, now, pkix.Name{Organization: []string{"devs"}}, x509.ExtKeyUsageClientAuth),
			wantErr: "common name of client certificate is empty",
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			a := authn.NewX509(roots, clocktest.NewFake(now.Add(tc.step)))
			r := httptest.NewRequest("GET", "/api", nil)
			if tc.cert != nil {
				r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{tc.cert}}
			} else {
				r.TLS = nil
			}
			u, ok, err := a.AuthenticateRequest(r)
			switch {
			case tc.wantUser != "":
				require.NoError(t, err)
				require.True(t, ok)
				assert.Equal(t, tc.wantUser, u.Name)
				assert.Equal(t, []string{"devs", "system:authenticated"}, u.Groups)
			case tc.wantErr != "":
				assert.False(t, ok)
				require.Error(t, err)
				assert.Contains(t, err.Error(), tc.wantErr)
			default:
				assert.False(t, ok)
				assert.NoError(t, err)
			}
		})
	}
}

// TestX509RemembersVerifiedCertificates: a certificate presented again is
// not verified again while its chain is valid, and fails once it expires.
func TestX509RemembersVerifiedCertificates(t *testing.T) {
	now := time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC)
	ca := newTestCA(t, now)
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	clk := clocktest.NewFake(now)
	a := authn.NewX509(roots, clk)
	cert := ca.issue(t, now, pkix.Name{CommonName: "carol"}, x509.ExtKeyUsageClientAuth)
	r := httptest.NewRequest("GET", "/api", nil)
	r.TLS = &tls.ConnectionState{PeerCertificates: []*x509.Certificate{cert}}

	for i := range 2 {
		u, ok, err := a.AuthenticateRequest(r)
		require.NoError(t, err, "request %d", i)
		require.True(t, ok)
		assert.Equal(t, "carol", u.Name)
	}
	clk.Step(2 * time.Hour)
	_, ok, err := a.AuthenticateRequest(r)
	assert.False(t, ok, "expired since it was verified")
	assert.ErrorContains(t, err, "x509: certificate has expired or is not yet valid")
}
