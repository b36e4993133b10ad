package authn

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"errors"
	"fmt"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/google/uuid"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/clock"
)

// ServiceAccountSigner issues service account tokens: JWTs signed with the
// cluster's service account key (kube-apiserver's
// --service-account-signing-key-file). It is safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/serviceaccount (JWTTokenGenerator).
type ServiceAccountSigner struct {
	issuer string
	signer jose.Signer
	keyID  string
	public crypto.PublicKey
	alg    jose.SignatureAlgorithm
	clock  clock.Clock
}

// NewServiceAccountSigner signs with key, an *ecdsa.PrivateKey (P-256,
// P-384 or P-521) or an *rsa.PrivateKey, as issuer. clk defaults to
// clock.Real.
func NewServiceAccountSigner(key crypto.Signer, issuer string, clk clock.Clock) (*ServiceAccountSigner, error) {
	if issuer == "" {
		return nil, errors.New("service account signer: issuer is required")
	}
	if clk == nil {
		clk = clock.Real
	}
	alg, err := signatureAlgorithm(key)
	if err != nil {
		return nil, err
	}
	kid, err := KeyID(key.Public())
	if err != nil {
		return nil, err
	}
	signer, err := jose.NewSigner(
		jose.SigningKey{Algorithm: alg, Key: jose.JSONWebKey{Key: key, KeyID: kid}},
		(&jose.SignerOptions{}).WithType("JWT"),
	)
	if err != nil {
		return nil, fmt.Errorf("service account signer: %w", err)
	}
	return &ServiceAccountSigner{issuer: issuer, signer: signer, keyID: kid, public: key.Public(), alg: alg, clock: clk}, nil
}

// signatureAlgorithm is the JWS algorithm for key, as upstream picks it.
func signatureAlgorithm(key crypto.Signer) (jose.SignatureAlgorithm, error) {
	switch k := key.(type) {
	case *rsa.PrivateKey:
		return jose.RS256, nil
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			return jose.ES256, nil
		case elliptic.P384():
			return jose.ES384, nil
		case elliptic.P521():
			return jose.ES512, nil
		}
		return "", errors.New("service account signer: unsupported elliptic curve")
	}
	return "", fmt.Errorf("service account signer: unsupported key type %T", key)
}

// KeyID names a public key in a token's header and in the JWKS: the
// unpadded base64url SHA-256 of its DER form, as kube-apiserver names it,
// so a key keeps its id across restarts.
func KeyID(pub crypto.PublicKey) (string, error) {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return "", fmt.Errorf("service account key id: %w", err)
	}
	sum := sha256.Sum256(der)
	return base64.RawURLEncoding.EncodeToString(sum[:]), nil
}

// Issuer is the iss claim of the tokens s signs.
func (s *ServiceAccountSigner) Issuer() string { return s.issuer }

// PublicKey is the key that verifies the tokens s signs.
func (s *ServiceAccountSigner) PublicKey() crypto.PublicKey { return s.public }

// JWKS is the JSON Web Key Set of s's public key, as /openid/v1/jwks
// serves it.
func (s *ServiceAccountSigner) JWKS() jose.JSONWebKeySet {
	return jose.JSONWebKeySet{Keys: []jose.JSONWebKey{{Key: s.public, KeyID: s.keyID, Algorithm: string(s.alg), Use: "sig"}}}
}

// Algorithm is the JWS algorithm s signs with.
func (s *ServiceAccountSigner) Algorithm() string { return string(s.alg) }

// TokenOptions say whose a token is and what it is bound to. At most one
// of Pod, Secret and a Node without Pod is the bound object; a Node with
// a Pod is the node the pod runs on, recorded for the token's user.
type TokenOptions struct {
	ServiceAccount *corev1.ServiceAccount
	Pod            *corev1.Pod
	Secret         *corev1.Secret
	Node           *corev1.Node
	Audiences      []string
	// Expiration is the token's lifetime from now.
	Expiration time.Duration
}

// Issue signs a token for opts and returns it with its expiry.
//
// Upstream: k8s.io/kubernetes/pkg/serviceaccount (Claims, GenerateToken).
func (s *ServiceAccountSigner) Issue(opts TokenOptions) (string, time.Time, error) {
	sa := opts.ServiceAccount
	now := s.clock.Now()
	exp := now.Add(opts.Expiration)
	public := jwt.Claims{
		Issuer:    s.issuer,
		Subject:   ServiceAccountUsername(sa.Namespace, sa.Name),
		Audience:  jwt.Audience(opts.Audiences),
		IssuedAt:  jwt.NewNumericDate(now),
		NotBefore: jwt.NewNumericDate(now),
		Expiry:    jwt.NewNumericDate(exp),
		ID:        uuid.NewString(),
	}
	private := privateClaims{Kubernetes: kubernetesClaims{
		Namespace: sa.Namespace,
		Svcacct:   ref{Name: sa.Name, UID: sa.UID},
	}}
	k := &private.Kubernetes
	if opts.Pod != nil {
		k.Pod = &ref{Name: opts.Pod.Name, UID: opts.Pod.UID}
	}
	if opts.Secret != nil {
		k.Secret = &ref{Name: opts.Secret.Name, UID: opts.Secret.UID}
	}
	if opts.Node != nil {
		k.Node = &ref{Name: opts.Node.Name, UID: opts.Node.UID}
	}
	token, err := jwt.Signed(s.signer).Claims(public).Claims(private).Serialize()
	if err != nil {
		return "", time.Time{}, fmt.Errorf("sign service account token: %w", err)
	}
	// The expiry as the token states it, in whole seconds.
	return token, exp.Truncate(time.Second), nil
}
