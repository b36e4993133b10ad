package authn

import (
	"context"
	"crypto/subtle"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"

	"github.com/minicp/minicp/apiserver/request"
)

// ErrInvalidToken is returned for a bearer token no token authenticator
// knows.
var ErrInvalidToken = errors.New("invalid bearer token")

// TokenFile authenticates "Authorization: Bearer <token>" against static
// tokens, in the format of kube-apiserver's --token-auth-file: CSV lines of
// token,user,uid[,"group1,group2"].
type TokenFile struct {
	tokens map[string]*request.User
}

// TokenUser is one line of a token file.
type TokenUser struct {
	Token string
	request.User
}

// NewTokenFile builds an authenticator from tokens.
func NewTokenFile(users []TokenUser) *TokenFile {
	tf := &TokenFile{tokens: map[string]*request.User{}}
	for _, u := range users {
		user := u.User
		user.Groups = append(slices.Clone(user.Groups), request.AllAuthenticated)
		tf.tokens[u.Token] = &user
	}
	return tf
}

// ReadTokenFile reads a token file from disk.
func ReadTokenFile(path string) (*TokenFile, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("read token file: %w", err)
	}
	defer f.Close()
	users, err := ParseTokens(f)
	if err != nil {
		return nil, fmt.Errorf("read token file %s: %w", path, err)
	}
	return NewTokenFile(users), nil
}

// ParseTokens parses the token file format.
func ParseTokens(r io.Reader) ([]TokenUser, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.Comment = '#'
	cr.TrimLeadingSpace = true
	var users []TokenUser
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return users, nil
		}
		if err != nil {
			return nil, err
		}
		line, _ := cr.FieldPos(0)
		if len(rec) < 3 || rec[0] == "" || rec[1] == "" {
			return nil, fmt.Errorf("line %d: want token,user,uid[,groups]", line)
		}
		u := TokenUser{Token: rec[0], User: request.User{Name: rec[1], UID: rec[2]}}
		if len(rec) > 3 && rec[3] != "" {
			for g := range strings.SplitSeq(rec[3], ",") {
				u.Groups = append(u.Groups, strings.TrimSpace(g))
			}
		}
		users = append(users, u)
	}
}

// WriteTokens writes users in the token file format. A token that starts
// with '#' is an error: csv.Writer leaves it unquoted, and ParseTokens would
// skip its line as a comment.
func WriteTokens(w io.Writer, users []TokenUser) error {
	cw := csv.NewWriter(w)
	for _, u := range users {
		if strings.HasPrefix(u.Token, "#") {
			return fmt.Errorf("token of user %q starts with '#', which the token file reads as a comment", u.Name)
		}
		if err := cw.Write([]string{u.Token, u.Name, u.UID, strings.Join(u.Groups, ",")}); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// AuthenticateRequest implements Authenticator.
func (tf *TokenFile) AuthenticateRequest(r *http.Request) (*request.User, bool, error) {
	return BearerToken(tf).AuthenticateRequest(r)
}

// AuthenticateToken implements TokenAuthenticator. Static tokens carry no
// audience, so they are valid for whichever the caller wants, as
// upstream's audience-agnostic token authenticators.
func (tf *TokenFile) AuthenticateToken(ctx context.Context, token string) (*TokenResponse, bool, error) {
	// Compare every token in constant time so timing does not reveal how
	// much of a guess was right.
	for t, u := range tf.tokens {
		if subtle.ConstantTimeCompare([]byte(t), []byte(token)) == 1 {
			auds, _ := AudiencesFrom(ctx)
			return &TokenResponse{User: u, Audiences: auds}, true, nil
		}
	}
	// Not an error: the token may be another authenticator's. BearerToken
	// reports ErrInvalidToken if none knows it.
	return nil, false, nil
}
