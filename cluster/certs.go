package cluster

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"time"
)

// certs is a cluster's own certificate authority and the API server's
// serving certificate signed by it. kubectl and client-go send bearer
// tokens only over TLS, so the API server serves HTTPS as kube-apiserver
// does, and the kubeconfig carries the CA to trust.
type certs struct {
	caPEM  []byte
	server tls.Certificate
	// authority also signs client certificates (IssueClientCertificate).
	authority *ca
}

// certValidity is how long the serving certificate is valid: long
// enough that no test or workshop outlives it; it is made anew at every
// start anyway.
const certValidity = 365 * 24 * time.Hour

// caValidity is how long the CA is valid. A CA kept in a PKI directory
// outlives many starts, and every kubeconfig written since trusts it.
const caValidity = 10 * 365 * 24 * time.Hour

// ca is a certificate authority: its certificate and key.
type ca struct {
	cert *x509.Certificate
	der  []byte
	key  *ecdsa.PrivateKey
}

// newCA creates a certificate authority valid from now.
func newCA(now time.Time) (*ca, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate CA key: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber:          serial(),
		Subject:               pkix.Name{CommonName: "minicp-ca"},
		NotBefore:             now.Add(-time.Minute), // tolerate small clock skew
		NotAfter:              now.Add(caValidity),
		KeyUsage:              x509.KeyUsageCertSign | x509.KeyUsageDigitalSignature,
		BasicConstraintsValid: true,
		IsCA:                  true,
	}
	der, err := x509.CreateCertificate(rand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		return nil, fmt.Errorf("create CA certificate: %w", err)
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &ca{cert: cert, der: der, key: key}, nil
}

// inClusterNames are the names pods reach the API server by, through the
// kubernetes Service: its ClusterIP and DNS names, which the serving
// certificate carries as kube-apiserver's does, so that a pod's client
// verifies it against the mounted ca.crt.
var inClusterNames = []string{"10.96.0.1", "kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}

// newCerts creates a serving certificate for hosts (IP addresses or DNS
// names), valid from now and signed by authority.
func newCerts(authority *ca, now time.Time, hosts []string) (*certs, error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate serving key: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: "kube-apiserver"},
		NotBefore:    now.Add(-time.Minute),
		NotAfter:     now.Add(certValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
	}
	for _, h := range hosts {
		if ip := net.ParseIP(h); ip != nil {
			template.IPAddresses = append(template.IPAddresses, ip)
		} else if h != "" {
			template.DNSNames = append(template.DNSNames, h)
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, template, authority.cert, &key.PublicKey, authority.key)
	if err != nil {
		return nil, fmt.Errorf("create serving certificate: %w", err)
	}
	return &certs{
		caPEM:     pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: authority.der}),
		server:    tls.Certificate{Certificate: [][]byte{der, authority.der}, PrivateKey: key},
		authority: authority,
	}, nil
}

// serial returns a random 128-bit certificate serial number, as RFC 5280
// recommends.
func serial() *big.Int {
	n, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 128))
	if err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return n
}

// serverTLS is the API server's TLS configuration. It asks for a client
// certificate signed by the cluster's CA but does not require one, as
// kube-apiserver with --client-ca-file: a client without one presents
// a token instead.
func (c *certs) serverTLS() *tls.Config {
	return &tls.Config{
		Certificates: []tls.Certificate{c.server}, MinVersion: tls.VersionTLS12,
		ClientAuth: tls.VerifyClientCertIfGiven, ClientCAs: c.authority.pool(),
	}
}

// pool is a certificate pool of the CA alone.
func (a *ca) pool() *x509.CertPool {
	pool := x509.NewCertPool()
	pool.AddCert(a.cert)
	return pool
}

// clientCertValidity is how long a client certificate is valid, as
// kubeadm's: a year.
const clientCertValidity = 365 * 24 * time.Hour

// issueClientCert creates a client certificate for user in groups, the
// identity the API server's X509 authenticator reads from it: the
// subject's common name and organizations. It returns the certificate
// and its key, PEM-encoded.
func (a *ca) issueClientCert(now time.Time, user string, groups []string) (certPEM, keyPEM []byte, err error) {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, nil, fmt.Errorf("generate client key: %w", err)
	}
	template := &x509.Certificate{
		SerialNumber: serial(),
		Subject:      pkix.Name{CommonName: user, Organization: groups},
		NotBefore:    now.Add(-time.Minute),
		NotAfter:     now.Add(clientCertValidity),
		KeyUsage:     x509.KeyUsageDigitalSignature,
		ExtKeyUsage:  []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth},
	}
	der, err := x509.CreateCertificate(rand.Reader, template, a.cert, &key.PublicKey, a.key)
	if err != nil {
		return nil, nil, fmt.Errorf("create client certificate: %w", err)
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, nil, fmt.Errorf("encode client key: %w", err)
	}
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER}), nil
}

// clientTLS trusts the cluster's CA.
func (c *certs) clientTLS() *tls.Config {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.caPEM)
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
