package apiserver

import (
	"encoding/json"
	"net/http"
	"strings"
)

// The paths of service account issuer discovery: an OpenID Connect
// provider document and the key set that verifies the tokens, so that
// something outside the cluster (a cloud's identity federation, a vault)
// can check a service account token without asking the API server.
const (
	openIDConfigurationPath = "/.well-known/openid-configuration"
	jwksPath                = "/openid/v1/jwks"
)

// openIDConfiguration is the provider metadata of OpenID Connect
// Discovery 1.0, the fields kube-apiserver serves.
//
// Upstream: k8s.io/kubernetes/pkg/serviceaccount (openIDMetadata).
type openIDConfiguration struct {
	Issuer        string   `json:"issuer"`
	JWKSURI       string   `json:"jwks_uri"`
	ResponseTypes []string `json:"response_types_supported"`
	SubjectTypes  []string `json:"subject_types_supported"`
	SigningAlgs   []string `json:"id_token_signing_alg_values_supported"`
}

// serveOpenIDConfiguration serves the discovery document: the issuer of
// the tokens and where its keys are, below the issuer URL as
// kube-apiserver puts them without --service-account-jwks-uri.
func (s *Server) serveOpenIDConfiguration(w http.ResponseWriter, _ *http.Request) {
	issuer := s.saSigner.Issuer()
	writeDiscoveryJSON(w, "application/json", openIDConfiguration{
		Issuer:        issuer,
		JWKSURI:       strings.TrimSuffix(issuer, "/") + jwksPath,
		ResponseTypes: []string{"id_token"},
		SubjectTypes:  []string{"public"},
		SigningAlgs:   []string{s.saSigner.Algorithm()},
	})
}

// serveJWKS serves the public key that verifies service account tokens
// as a JSON Web Key Set.
func (s *Server) serveJWKS(w http.ResponseWriter, _ *http.Request) {
	writeDiscoveryJSON(w, "application/jwk-set+json", s.saSigner.JWKS())
}

// writeDiscoveryJSON writes v with the caching kube-apiserver allows:
// the keys change only when the server restarts with another key.
func writeDiscoveryJSON(w http.ResponseWriter, contentType string, v any) {
	w.Header().Set("Content-Type", contentType)
	w.Header().Set("Cache-Control", "public, max-age=3600")
	w.WriteHeader(http.StatusOK)
	_ = json.NewEncoder(w).Encode(v)
}
