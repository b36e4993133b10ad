package apiserver

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"fmt"

	"github.com/minicp/minicp/apiserver/authn"
)

// setServiceAccountTokens sets up the signer of service account tokens
// and returns the authenticator that verifies them, from opts' key,
// issuer and audiences or their defaults.
func (s *Server) setServiceAccountTokens(opts Options) (*authn.ServiceAccountTokens, error) {
	key := opts.ServiceAccountSigningKey
	if key == nil {
		// P-256 rather than kubeadm's RSA: generating it takes
		// microseconds, and test suites start many servers.
		k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
		if err != nil {
			return nil, fmt.Errorf("apiserver: service account key: %w", err)
		}
		key = k
	}
	issuer := opts.ServiceAccountIssuer
	if issuer == "" {
		issuer = authn.DefaultServiceAccountIssuer
	}
	s.apiAudiences = opts.APIAudiences
	if len(s.apiAudiences) == 0 {
		s.apiAudiences = []string{issuer}
	}
	signer, err := authn.NewServiceAccountSigner(key, issuer, s.clock)
	if err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	s.saSigner = signer
	tokens, err := authn.NewServiceAccountTokens(authn.ServiceAccountTokensOptions{
		Issuer: issuer, Keys: []crypto.PublicKey{signer.PublicKey()}, APIAudiences: s.apiAudiences,
		Getter: s, Clock: s.clock,
	})
	if err != nil {
		return nil, fmt.Errorf("apiserver: %w", err)
	}
	return tokens, nil
}
