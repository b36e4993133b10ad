package storage

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"path"
	"strings"
)

// continueToken is the decoded form of a list's continue parameter: where
// the next page starts, relative to the list's key prefix, and the revision
// the whole list is read at, so every page shows one consistent state.
// Its JSON is Kubernetes', so tokens look the same on the wire.
//
// Upstream: k8s.io/apiserver/pkg/storage (continueToken).
type continueToken struct {
	APIVersion      string `json:"v"`
	ResourceVersion int64  `json:"rv"`
	StartKey        string `json:"start"`
}

// continueTokenVersion is the only token format there is.
const continueTokenVersion = "meta.k8s.io/v1"

// EncodeContinue returns the token for a page that starts at key, a key
// under keyPrefix, of a list read at revision rv: base64url (unpadded) of
// {"v":"meta.k8s.io/v1","rv":rv,"start":key without keyPrefix}. Keeping the
// start relative to the prefix means a token names no etcd prefix, so it
// cannot reach outside the list it came from.
//
// Upstream: k8s.io/apiserver/pkg/storage (EncodeContinue).
func EncodeContinue(key, keyPrefix string, rv int64) (string, error) {
	next, ok := strings.CutPrefix(key, keyPrefix)
	if !ok {
		return "", fmt.Errorf("encode continue: key %q is not under %q", key, keyPrefix)
	}
	data, err := json.Marshal(continueToken{APIVersion: continueTokenVersion, ResourceVersion: rv, StartKey: next})
	if err != nil {
		return "", fmt.Errorf("encode continue: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(data), nil
}

// DecodeContinue returns the key a token's page starts at (under
// keyPrefix) and the revision to read it at; rv -1 means "the latest" (a
// token Kubernetes hands out when the original revision was compacted). A
// token that does not decode, has another version, no revision, no start,
// or a start that climbs out of the prefix ("/../x") is an error wrapping
// ErrInvalidContinue.
//
// Upstream: k8s.io/apiserver/pkg/storage (DecodeContinue).
func DecodeContinue(token, keyPrefix string) (fromKey string, rv int64, err error) {
	invalid := func(detail string) (string, int64, error) {
		return "", 0, NewInvalidContinueError(keyPrefix, detail)
	}
	data, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return invalid(fmt.Sprintf("continue key is not valid: %v", err))
	}
	var c continueToken
	if err := json.Unmarshal(data, &c); err != nil {
		return invalid(fmt.Sprintf("continue key is not valid: %v", err))
	}
	if c.APIVersion != continueTokenVersion {
		return invalid(fmt.Sprintf("continue key is not valid: server does not recognize this encoded version %q", c.APIVersion))
	}
	if c.ResourceVersion == 0 {
		return invalid("continue key is not valid: incorrect encoded start resourceVersion (version meta.k8s.io/v1)")
	}
	if c.StartKey == "" {
		return invalid("continue key is not valid: encoded start key empty (version meta.k8s.io/v1)")
	}
	// path.Clean of an absolute path cannot climb above "/", so a start key
	// that is not already clean was built to escape the prefix.
	start := c.StartKey
	if !strings.HasPrefix(start, "/") {
		start = "/" + start
	}
	if path.Clean(start) != start {
		return invalid(fmt.Sprintf("continue key is not valid: start key %q is not clean", c.StartKey))
	}
	return keyPrefix + start[1:], c.ResourceVersion, nil
}
