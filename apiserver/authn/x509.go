package authn

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock"
)

// X509 authenticates requests by the TLS client certificate they present,
// as kube-apiserver with --client-ca-file: a certificate that chains to
// one of Roots and may be used for client authentication is the user of
// its subject's common name, in the groups of its organizations. A
// request without a client certificate is not recognised. Safe for
// concurrent use.
//
// Upstream: k8s.io/apiserver/pkg/authentication/request/x509
// (Authenticator, CommonNameUserConversion).
type X509 struct {
	roots *x509.CertPool
	clock clock.Clock
}

// NewX509 trusts the certificate authorities in roots; clk (defaults to
// clock.Real) is the time certificates are checked at.
func NewX509(roots *x509.CertPool, clk clock.Clock) *X509 {
	if clk == nil {
		clk = clock.Real
	}
	return &X509{roots: roots, clock: clk}
}

// AuthenticateRequest implements Authenticator.
func (a *X509) AuthenticateRequest(r *http.Request) (*request.User, bool, error) {
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 {
		return nil, false, nil
	}
	leaf := r.TLS.PeerCertificates[0]
	// The TLS server may be configured to take any certificate, so the
	// chain is verified here, for client use, whatever the handshake did.
	intermediates := x509.NewCertPool()
	for _, c := range r.TLS.PeerCertificates[1:] {
		intermediates.AddCert(c)
	}
	if _, err := leaf.Verify(x509.VerifyOptions{
		Roots: a.roots, Intermediates: intermediates, CurrentTime: a.clock.Now(),
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}); err != nil {
		return nil, false, fmt.Errorf("verifying certificate %s failed: %w", certificateName(leaf), err)
	}
	if leaf.Subject.CommonName == "" {
		return nil, false, errors.New("common name of client certificate is empty")
	}
	groups := append(slices.Clone(leaf.Subject.Organization), request.AllAuthenticated)
	return &request.User{Name: leaf.Subject.CommonName, Groups: groups}, true, nil
}

// certificateName describes a certificate in an error, as upstream does.
func certificateName(c *x509.Certificate) string {
	return fmt.Sprintf("SN=%s, CN=%s, O=%v, issuer=%q", c.SerialNumber, c.Subject.CommonName, c.Subject.Organization, c.Issuer.CommonName)
}
