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
		caPEM:  pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: authority.der}),
		server: tls.Certificate{Certificate: [][]byte{der, authority.der}, PrivateKey: key},
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

// serverTLS is the API server's TLS configuration.
func (c *certs) serverTLS() *tls.Config {
	return &tls.Config{Certificates: []tls.Certificate{c.server}, MinVersion: tls.VersionTLS12}
}

// clientTLS trusts the cluster's CA.
func (c *certs) clientTLS() *tls.Config {
	pool := x509.NewCertPool()
	pool.AppendCertsFromPEM(c.caPEM)
	return &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}
}
