package authn_test

import (
	"bytes"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/apiserver/authn"
	"github.com/minicp/minicp/apiserver/request"
)

func TestParseTokens(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []authn.TokenUser
	}{
		{name: "empty", in: ""},
		{name: "without groups", in: "t1,alice,uid-1\n", want: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice", UID: "uid-1"}},
		}},
		{name: "one group", in: "t1,alice,uid-1,dev\n", want: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice", UID: "uid-1", Groups: []string{"dev"}}},
		}},
		{name: "quoted groups", in: `t1,alice,uid-1,"dev,system:masters"` + "\n", want: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice", UID: "uid-1", Groups: []string{"dev", "system:masters"}}},
		}},
		{name: "spaces in groups", in: `t1,alice,uid-1," dev , ops "` + "\n", want: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice", UID: "uid-1", Groups: []string{"dev", "ops"}}},
		}},
		{name: "empty groups", in: "t1,alice,uid-1,\n", want: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice", UID: "uid-1"}},
		}},
		{name: "empty uid", in: "t1,alice,\n", want: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice"}},
		}},
		{name: "comments, blank lines, spaces after commas, no final newline",
			in: "# token,user,uid,groups\n\nt1, alice, uid-1\n\n# bob below\nt2,bob,uid-2,\"ops\"",
			want: []authn.TokenUser{
				{Token: "t1", User: request.User{Name: "alice", UID: "uid-1"}},
				{Token: "t2", User: request.User{Name: "bob", UID: "uid-2", Groups: []string{"ops"}}},
			}},
		{name: "CRLF", in: "t1,alice,uid-1\r\nt2,bob,uid-2\r\n", want: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice", UID: "uid-1"}},
			{Token: "t2", User: request.User{Name: "bob", UID: "uid-2"}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := authn.ParseTokens(strings.NewReader(tc.in))
			require.NoError(t, err, "ParseTokens(%q)", tc.in)
			assert.Equal(t, tc.want, got, "ParseTokens(%q)", tc.in)
		})
	}
}

func TestParseTokensErrors(t *testing.T) {
	tests := []struct {
		name     string
		in       string
		wantLine string
	}{
		{name: "one field", in: "t1\n", wantLine: "line 1"},
		{name: "two fields", in: "t1,alice\n", wantLine: "line 1"},
		{name: "empty token", in: ",alice,uid\n", wantLine: "line 1"},
		{name: "empty user", in: "t1,,uid\n", wantLine: "line 1"},
		{name: "bad line after good ones", in: "# c\nt1,alice,uid\nt2\n", wantLine: "line 3"},
		{name: "unterminated quote", in: `t1,alice,uid,"dev` + "\n"},
		{name: "stray quote", in: `t"1,alice,uid` + "\n"},
		{name: "whitespace-only line", in: "t1,alice,uid\n  \n", wantLine: "line 2"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := authn.ParseTokens(strings.NewReader(tc.in))
			require.Error(t, err, "ParseTokens(%q)", tc.in)
			assert.Nil(t, got, "ParseTokens(%q)", tc.in)
			if tc.wantLine != "" {
				assert.Contains(t, err.Error(), tc.wantLine, "ParseTokens(%q)", tc.in)
			}
		})
	}
}

func TestWriteTokensRoundTrip(t *testing.T) {
	tests := []struct {
		name  string
		users []authn.TokenUser
	}{
		{name: "none"},
		{name: "without groups", users: []authn.TokenUser{{Token: "t1", User: request.User{Name: "alice", UID: "u1"}}}},
		{name: "with groups", users: []authn.TokenUser{
			{Token: "t1", User: request.User{Name: "alice", UID: "u1", Groups: []string{"system:masters"}}},
			{Token: "t2", User: request.User{Name: "bob", UID: "u2", Groups: []string{"dev", "ops"}}},
		}},
		{name: "characters CSV must quote", users: []authn.TokenUser{
			{Token: `to"ken`, User: request.User{Name: "a, b", UID: " u"}},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			require.NoError(t, authn.WriteTokens(&buf, tc.users), "WriteTokens(%v)", tc.users)
			got, err := authn.ParseTokens(&buf)
			require.NoError(t, err, "ParseTokens(WriteTokens(%v)) of %q", tc.users, buf.String())
			assert.Equal(t, tc.users, got, "ParseTokens(WriteTokens(%v))", tc.users)
		})
	}
}

// A token that starts with '#' cannot be written: its line would read
// back as a comment and the user would silently disappear.
func TestWriteTokensRejectsCommentToken(t *testing.T) {
	users := []authn.TokenUser{
		{Token: "t0", User: request.User{Name: "bob", UID: "u0"}},
		{Token: "#t1", User: request.User{Name: "alice", UID: "u1"}},
	}
	var buf bytes.Buffer
	assert.Error(t, authn.WriteTokens(&buf, users), "WriteTokens(%v)", users)
}

func TestReadTokenFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "tokens.csv")
	require.NoError(t, os.WriteFile(path, []byte("t1,alice,u1,dev\n"), 0o600))
	tf, err := authn.ReadTokenFile(path)
	require.NoError(t, err, "ReadTokenFile(%s)", path)
	u, ok, err := tf.AuthenticateRequest(bearer("t1"))
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "alice", u.Name)

	_, err = authn.ReadTokenFile(filepath.Join(t.TempDir(), "missing.csv"))
	assert.Error(t, err, "ReadTokenFile(missing)")

	bad := filepath.Join(t.TempDir(), "bad.csv")
	require.NoError(t, os.WriteFile(bad, []byte("t1\n"), 0o600))
	_, err = authn.ReadTokenFile(bad)
	assert.ErrorContains(t, err, bad, "ReadTokenFile(bad) names the file")
}

func bearer(token string) *http.Request {
	r := httptest.NewRequest(http.MethodGet, "/api/v1/pods", nil)
	r.Header.Set("Authorization", "Bearer "+token)
	return r
}

func TestTokenFileAuthenticateRequest(t *testing.T) {
	users := []authn.TokenUser{
		{Token: "admin-token", User: request.User{Name: "admin", UID: "u0", Groups: []string{request.SystemPrivilegedGroup}}},
		{Token: "alice-token", User: request.User{Name: "alice", UID: "u1"}},
	}
	tf := authn.NewTokenFile(users)
	tests := []struct {
		name    string
		header  string // the Authorization header; "" sends none
		want    *request.User
		wantOK  bool
		wantErr error
	}{
		{name: "admin", header: "Bearer admin-token", wantOK: true, want: &request.User{
			Name: "admin", UID: "u0", Groups: []string{request.SystemPrivilegedGroup, request.AllAuthenticated}}},
		{name: "no groups", header: "Bearer alice-token", wantOK: true, want: &request.User{
			Name: "alice", UID: "u1", Groups: []string{request.AllAuthenticated}}},
		{name: "lowercase scheme", header: "bearer alice-token", wantOK: true, want: &request.User{
			Name: "alice", UID: "u1", Groups: []string{request.AllAuthenticated}}},
		{name: "spaces around the token", header: "Bearer   alice-token  ", wantOK: true, want: &request.User{
			Name: "alice", UID: "u1", Groups: []string{request.AllAuthenticated}}},
		{name: "wrong token", header: "Bearer nope", wantErr: authn.ErrInvalidToken},
		{name: "prefix of a token", header: "Bearer alice", wantErr: authn.ErrInvalidToken},
		{name: "token plus more", header: "Bearer alice-token2", wantErr: authn.ErrInvalidToken},
		{name: "no header"},
		{name: "basic auth", header: "Basic YWxpY2U6cGFzcw=="},
		{name: "scheme only", header: "Bearer"},
		{name: "empty token", header: "Bearer "},
		{name: "token without scheme", header: "alice-token"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/pods", nil)
			if tc.header != "" {
				r.Header.Set("Authorization", tc.header)
			}
			u, ok, err := tf.AuthenticateRequest(r)
			assert.Equal(t, tc.wantOK, ok, "AuthenticateRequest(%q): ok", tc.header)
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr, "AuthenticateRequest(%q)", tc.header)
			} else {
				assert.NoError(t, err, "AuthenticateRequest(%q)", tc.header)
			}
			assert.Equal(t, tc.want, u, "AuthenticateRequest(%q): user", tc.header)
		})
	}

	// NewTokenFile copies the groups: the caller's slice is not changed
	// by the system:authenticated it adds.
	assert.Equal(t, []string{request.SystemPrivilegedGroup}, users[0].Groups, "caller's groups after NewTokenFile")
}

// stubAuth answers every request the same way and counts its calls.
type stubAuth struct {
	user  *request.User
	ok    bool
	err   error
	calls int
}

func (s *stubAuth) AuthenticateRequest(*http.Request) (*request.User, bool, error) {
	s.calls++
	return s.user, s.ok, s.err
}

func TestUnion(t *testing.T) {
	alice := &request.User{Name: "alice"}
	bob := &request.User{Name: "bob"}
	errA, errB := errors.New("a rejected"), errors.New("b rejected")
	accept := func(u *request.User) *stubAuth { return &stubAuth{user: u, ok: true} }
	reject := func(err error) *stubAuth { return &stubAuth{err: err} }
	pass := func() *stubAuth { return &stubAuth{} }

	tests := []struct {
		name      string
		auths     []*stubAuth
		want      *request.User
		wantOK    bool
		wantErr   error
		wantCalls []int
	}{
		{name: "empty"},
		{name: "first accepts, rest not asked", auths: []*stubAuth{accept(alice), accept(bob)},
			want: alice, wantOK: true, wantCalls: []int{1, 0}},
		{name: "second accepts after a pass", auths: []*stubAuth{pass(), accept(bob)},
			want: bob, wantOK: true, wantCalls: []int{1, 1}},
		{name: "a rejection does not stop the others", auths: []*stubAuth{reject(errA), accept(bob)},
			want: bob, wantOK: true, wantCalls: []int{1, 1}},
		{name: "all pass", auths: []*stubAuth{pass(), pass()}, wantCalls: []int{1, 1}},
		{name: "the first rejection is returned", auths: []*stubAuth{pass(), reject(errA), reject(errB)},
			wantErr: errA, wantCalls: []int{1, 1, 1}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var u authn.Union
			for _, a := range tc.auths {
				u = append(u, a)
			}
			got, ok, err := u.AuthenticateRequest(httptest.NewRequest(http.MethodGet, "/", nil))
			assert.Equal(t, tc.wantOK, ok, "%s: ok", tc.name)
			assert.Equal(t, tc.want, got, "%s: user", tc.name)
			if tc.wantErr != nil {
				assert.ErrorIs(t, err, tc.wantErr, "%s", tc.name)
			} else {
				assert.NoError(t, err, "%s", tc.name)
			}
			for i, a := range tc.auths {
				assert.Equal(t, tc.wantCalls[i], a.calls, "%s: calls of authenticator %d", tc.name, i)
			}
		})
	}
}

func TestUnionOfTokenFiles(t *testing.T) {
	admin := authn.NewTokenFile([]authn.TokenUser{{Token: "admin", User: request.User{Name: "admin"}}})
	users := authn.NewTokenFile([]authn.TokenUser{{Token: "alice", User: request.User{Name: "alice"}}})
	u := authn.Union{admin, users}

	got, ok, err := u.AuthenticateRequest(bearer("alice"))
	require.NoError(t, err, "a token of the second file")
	require.True(t, ok, "a token of the second file")
	assert.Equal(t, "alice", got.Name)

	_, ok, err = u.AuthenticateRequest(bearer("mallory"))
	assert.False(t, ok, "a token of neither file")
	assert.ErrorIs(t, err, authn.ErrInvalidToken, "a token of neither file")
}

func TestWithAnonymous(t *testing.T) {
	tokens := authn.WithAnonymous(authn.NewTokenFile([]authn.TokenUser{{Token: "good", User: request.User{Name: "alice"}}}))

	u, ok, err := tokens.AuthenticateRequest(httptest.NewRequest(http.MethodGet, "/healthz", nil))
	require.NoError(t, err, "no credentials")
	require.True(t, ok, "no credentials")
	assert.Equal(t, authn.AnonymousUser(), u, "no credentials is anonymous")

	u, ok, err = tokens.AuthenticateRequest(bearer("good"))
	require.NoError(t, err)
	require.True(t, ok)
	assert.Equal(t, "alice", u.Name, "a good token is its user")

	_, ok, err = tokens.AuthenticateRequest(bearer("wrong"))
	assert.False(t, ok, "a wrong token is not anonymous")
	assert.ErrorIs(t, err, authn.ErrInvalidToken)
}

func TestAuthenticatorFunc(t *testing.T) {
	want := &request.User{Name: "f"}
	f := authn.AuthenticatorFunc(func(*http.Request) (*request.User, bool, error) { return want, true, nil })
	got, ok, err := f.AuthenticateRequest(httptest.NewRequest(http.MethodGet, "/", nil))
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Same(t, want, got)
}
