package cluster

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/hex"
	"encoding/pem"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// The files of a PKI directory (Options.PKIDir), named as kubeadm names
// them under /etc/kubernetes/pki where it has a counterpart.
const (
	caCertFile     = "ca.crt"
	caKeyFile      = "ca.key"
	adminTokenFile = "admin.token"
	// saKeyFile signs service account tokens; kept, a token issued
	// before a restart still authenticates after it.
	saKeyFile = "sa.key"
)

// loadOrCreateCA returns the CA kept in dir, creating and saving one the
// first time. With dir empty, a new CA lives only as long as the cluster.
// Keeping it is what lets a kubeconfig written before a restart still
// trust the API server after it.
func loadOrCreateCA(dir string, now time.Time) (*ca, error) {
	if dir == "" {
		return newCA(now)
	}
	certPEM, certErr := os.ReadFile(filepath.Join(dir, caCertFile))
	keyPEM, keyErr := os.ReadFile(filepath.Join(dir, caKeyFile))
	switch {
	case certErr == nil && keyErr == nil:
		return parseCA(certPEM, keyPEM)
	case !errors.Is(certErr, fs.ErrNotExist) && certErr != nil:
		return nil, fmt.Errorf("read CA: %w", certErr)
	case !errors.Is(keyErr, fs.ErrNotExist) && keyErr != nil:
		return nil, fmt.Errorf("read CA key: %w", keyErr)
	case certErr == nil || keyErr == nil:
		// Half a CA cannot be repaired: making a new one would silently
		// break every client that trusts the old.
		return nil, fmt.Errorf("PKI directory %s has only one of %s and %s", dir, caCertFile, caKeyFile)
	}
	authority, err := newCA(now)
	if err != nil {
		return nil, err
	}
	keyDER, err := x509.MarshalECPrivateKey(authority.key)
	if err != nil {
		return nil, fmt.Errorf("encode CA key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create PKI directory: %w", err)
	}
	// The key first: a crash between the two writes leaves no
	// certificate, which the next start reports instead of trusting.
	if err := writeFileAtomic(filepath.Join(dir, caKeyFile), pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: keyDER})); err != nil {
		return nil, err
	}
	if err := writeFileAtomic(filepath.Join(dir, caCertFile), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: authority.der})); err != nil {
		return nil, err
	}
	return authority, nil
}

// parseCA reads a CA kept by loadOrCreateCA.
func parseCA(certPEM, keyPEM []byte) (*ca, error) {
	certBlock, _ := pem.Decode(certPEM)
	if certBlock == nil || certBlock.Type != "CERTIFICATE" {
		return nil, fmt.Errorf("%s: no PEM certificate", caCertFile)
	}
	cert, err := x509.ParseCertificate(certBlock.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", caCertFile, err)
	}
	keyBlock, _ := pem.Decode(keyPEM)
	if keyBlock == nil {
		return nil, fmt.Errorf("%s: no PEM key", caKeyFile)
	}
	key, err := x509.ParseECPrivateKey(keyBlock.Bytes)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", caKeyFile, err)
	}
	if pub, ok := cert.PublicKey.(*ecdsa.PublicKey); !ok || !pub.Equal(&key.PublicKey) {
		return nil, fmt.Errorf("%s does not match %s", caKeyFile, caCertFile)
	}
	return &ca{cert: cert, der: certBlock.Bytes, key: key}, nil
}

// loadOrCreateServiceAccountKey returns the service account signing key
// kept in dir, creating and saving a P-256 key the first time. A key kept
// there by kubeadm (RSA, PKCS#1 or PKCS#8) is used as it is. With dir
// empty it returns nil: the API server makes a key of its own.
func loadOrCreateServiceAccountKey(dir string) (crypto.Signer, error) {
	if dir == "" {
		return nil, nil
	}
	name := filepath.Join(dir, saKeyFile)
	b, err := os.ReadFile(name)
	switch {
	case err == nil:
		return parsePrivateKey(b)
	case !errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("read service account key: %w", err)
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("generate service account key: %w", err)
	}
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, fmt.Errorf("encode service account key: %w", err)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create PKI directory: %w", err)
	}
	if err := writeFileAtomic(name, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})); err != nil {
		return nil, err
	}
	return key, nil
}

// parsePrivateKey reads a PEM private key in any of the forms kubeadm and
// openssl write.
func parsePrivateKey(b []byte) (crypto.Signer, error) {
	block, _ := pem.Decode(b)
	if block == nil {
		return nil, fmt.Errorf("%s: no PEM key", saKeyFile)
	}
	switch block.Type {
	case "EC PRIVATE KEY":
		return x509.ParseECPrivateKey(block.Bytes)
	case "RSA PRIVATE KEY":
		return x509.ParsePKCS1PrivateKey(block.Bytes)
	case "PRIVATE KEY":
		key, err := x509.ParsePKCS8PrivateKey(block.Bytes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", saKeyFile, err)
		}
		if signer, ok := key.(crypto.Signer); ok {
			return signer, nil
		}
		return nil, fmt.Errorf("%s: unsupported key type %T", saKeyFile, key)
	}
	return nil, fmt.Errorf("%s: unsupported PEM block %q", saKeyFile, block.Type)
}

// loadOrCreateToken returns the admin token kept in dir, creating and
// saving a random one the first time (or a new one each time, with dir
// empty), so that a kubeconfig outlives a restart.
func loadOrCreateToken(dir string) (string, error) {
	if dir != "" {
		b, err := os.ReadFile(filepath.Join(dir, adminTokenFile))
		if err == nil {
			if token := strings.TrimSpace(string(b)); token != "" {
				return token, nil
			}
		} else if !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("read admin token: %w", err)
		}
	}
	b := make([]byte, 16)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate token: %w", err)
	}
	token := hex.EncodeToString(b)
	if dir == "" {
		return token, nil
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("create PKI directory: %w", err)
	}
	if err := writeFileAtomic(filepath.Join(dir, adminTokenFile), []byte(token+"\n")); err != nil {
		return "", err
	}
	return token, nil
}

// writeFileAtomic writes data to name readable by its owner only, through
// a temporary file renamed over it, so a crash never leaves half a key.
func writeFileAtomic(name string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(name), "."+filepath.Base(name)+".*")
	if err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	defer os.Remove(f.Name()) // after a successful rename, nothing to remove
	if _, err := f.Write(data); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	if err := os.Rename(f.Name(), name); err != nil {
		return fmt.Errorf("write %s: %w", name, err)
	}
	return nil
}
