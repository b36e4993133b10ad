package authn

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"time"

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

	// mu guards verified.
	mu sync.Mutex
	// verified maps a leaf certificate that chained to roots to the time
	// that chain was valid from and until: a client presents the same
	// parsed certificate on every request (crypto/tls shares parsed peer
	// certificates; the in-memory transport presents one), and checking
	// its signatures is most of what authenticating it costs. Bounded by
	// maxVerified.
	verified map[*x509.Certificate]validity
}

// validity is when a verified chain is valid.
type validity struct{ notBefore, notAfter time.Time }

// maxVerified bounds the verification cache: far more clients than a
// development cluster has; past it the cache starts over.
const maxVerified = 1024

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
	if err := a.verify(leaf, r.TLS.PeerCertificates[1:]); err != nil {
		return nil, false, err
	}
	if leaf.Subject.CommonName == "" {
		return nil, false, errors.New("common name of client certificate is empty")
	}
	groups := append(slices.Clone(leaf.Subject.Organization), request.AllAuthenticated)
	return &request.User{Name: leaf.Subject.CommonName, Groups: groups}, true, nil
}

// verify checks that leaf chains to the roots through intermediates, for
// client use, at the clock's time. The TLS server may be configured to
// take any certificate, so this happens here whatever the handshake did.
func (a *X509) verify(leaf *x509.Certificate, intermediates []*x509.Certificate) error {
	now := a.clock.Now()
	a.mu.Lock()
	v, ok := a.verified[leaf]
	a.mu.Unlock()
	if ok && !now.Before(v.notBefore) && !now.After(v.notAfter) {
		return nil
	}
	pool := x509.NewCertPool()
	for _, c := range intermediates {
		pool.AddCert(c)
	}
	chains, err := leaf.Verify(x509.VerifyOptions{
		Roots: a.roots, Intermediates: pool, CurrentTime: now,
		KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	})
	if err != nil {
		return fmt.Errorf("verifying certificate %s failed: %w", certificateName(leaf), err)
	}
	// The chain is valid while every certificate in it is.
	v = validity{notBefore: leaf.NotBefore, notAfter: leaf.NotAfter}
	for _, c := range chains[0] {
		if c.NotBefore.After(v.notBefore) {
			v.notBefore = c.NotBefore
		}
		if c.NotAfter.Before(v.notAfter) {
			v.notAfter = c.NotAfter
		}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.verified == nil || len(a.verified) >= maxVerified {
		a.verified = map[*x509.Certificate]validity{}
	}
	a.verified[leaf] = v
	return nil
}

// certificateName describes a certificate in an error, as upstream does.
func certificateName(c *x509.Certificate) string {
	return fmt.Sprintf("SN=%s, CN=%s, O=%v, issuer=%q", c.SerialNumber, c.Subject.CommonName, c.Subject.Organization, c.Issuer.CommonName)
}
