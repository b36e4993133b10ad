package authn

import (
	"sync"

	"github.com/go-jose/go-jose/v4/jwt"
)

// maxVerifiedTokens bounds verifiedTokens: a cluster's components hold a
// few dozen tokens at a time; a client that sends a new token with every
// request must not grow the server's memory without end.
const maxVerifiedTokens = 1024

// verifiedTokens remembers the claims of the service account tokens whose
// signature checked out, by token. A controller sends the same token with
// every request until it renews it, and the ECDSA verification (with the
// JWS parsing before it) was a twenty-fifth of a cluster's start. Only the
// signature is remembered: the times, the audiences and the objects a
// token names are checked on every request, so a token still dies the
// moment its ServiceAccount or bound pod does. Safe for concurrent use.
//
// Upstream caches whole authentication results for ten seconds
// (k8s.io/apiserver/pkg/authentication/token/cache); this is narrower on
// purpose.
type verifiedTokens struct {
	mu sync.Mutex
	// entries holds at most maxVerifiedTokens tokens; guarded by mu.
	entries map[string]verifiedClaims
}

// verifiedClaims are a token's claims, read once its signature verified.
type verifiedClaims struct {
	public  jwt.Claims
	private privateClaims
}

func (v *verifiedTokens) get(token string) (verifiedClaims, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	c, ok := v.entries[token]
	return c, ok
}

// add remembers token's claims. When full it starts over rather than
// choosing what to evict: tokens in use come back with their next
// request, for one more verification each.
func (v *verifiedTokens) add(token string, c verifiedClaims) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.entries == nil || len(v.entries) >= maxVerifiedTokens {
		v.entries = make(map[string]verifiedClaims)
	}
	v.entries[token] = c
}
