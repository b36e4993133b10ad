package filters

import (
	"log/slog"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// WithAuthentication establishes the user and puts it in the context; a
// request no authenticator accepts gets 401 Unauthorized. The Authorization
// header is removed once read, so no later code can leak the token.
func WithAuthentication(h http.Handler, a authn.Authenticator, log *slog.Logger) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, ok, err := a.AuthenticateRequest(r)
		if !ok {
			if err != nil {
				log.Debug("authentication failed", "hop", "authn", "path", r.URL.Path, "err", err)
			}
			responsewriters.WriteError(w, r, apierrors.NewUnauthorized(""))
			return
		}
		r.Header.Del("Authorization")
		log.Debug("authenticated", "hop", "authn", "user", user.Name, "path", r.URL.Path)
		h.ServeHTTP(w, r.WithContext(request.WithUser(r.Context(), user)))
	})
}
