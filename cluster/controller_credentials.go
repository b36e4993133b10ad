package cluster

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"time"

	"golang.org/x/sync/singleflight"

	"github.com/minicp/minicp/api/apierrors"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
)

// controllerTokenSeconds is how long a controller's token is valid:
// upstream's default TokenRequest hour. It is renewed at
// controllerTokenRenewAt of its life, well before it expires.
const (
	controllerTokenSeconds = int64(time.Hour / time.Second)
	controllerTokenRenewAt = 0.8
)

// serviceAccountClients gives each controller a client of its own that
// acts as the ServiceAccount kube-system/<name>, as kube-controller-manager
// with --use-service-account-credentials does: the controller-manager's
// own client (root) creates the ServiceAccount if missing and requests
// its tokens through TokenRequest, renewing them before they expire on
// the cluster's clock. Nothing is requested until a controller sends its
// first request, so a start costs no token. Safe for concurrent use.
//
// Upstream: k8s.io/controller-manager/pkg/clientbuilder
// (SAControllerClientBuilder).
type serviceAccountClients struct {
	root *client.Clientset
	// newClient builds a client whose transport wrap adds the token.
	newClient func(wrap func(http.RoundTripper) http.RoundTripper) (*client.Client, error)
	clock     clock.Clock

	// mu guards clients.
	mu      sync.Mutex
	clients map[string]*client.Client
}

// Client is a manager.ClientBuilder: the client of controller name, made
// once.
func (b *serviceAccountClients) Client(name string) (*client.Client, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if c, ok := b.clients[name]; ok {
		return c, nil
	}
	tok := &serviceAccountToken{name: name, root: b.root, clock: b.clock}
	c, err := b.newClient(func(next http.RoundTripper) http.RoundTripper {
		return &tokenTransport{token: tok, next: next}
	})
	if err != nil {
		return nil, err
	}
	if b.clients == nil {
		b.clients = map[string]*client.Client{}
	}
	b.clients[name] = c
	return c, nil
}

// Clientset is Client's Clientset.
func (b *serviceAccountClients) Clientset(name string) (*client.Clientset, error) {
	c, err := b.Client(name)
	if err != nil {
		return nil, err
	}
	cs, err := client.NewClientset(c)
	if err != nil {
		return nil, fmt.Errorf("cluster: client: %w", err)
	}
	return cs, nil
}

// serviceAccountToken is the current token of one controller's
// ServiceAccount, requested when first needed and again when due.
type serviceAccountToken struct {
	name  string
	root  *client.Clientset
	clock clock.Clock
	// fetches makes concurrent requests that find no valid token share
	// one TokenRequest.
	fetches singleflight.Group

	// mu guards token and renewAt.
	mu      sync.Mutex
	token   string
	renewAt time.Time
}

// get returns a valid token, requesting one when there is none or it is
// due for renewal. It blocks until then or until ctx is done.
func (t *serviceAccountToken) get(ctx context.Context) (string, error) {
	t.mu.Lock()
	tok, renewAt := t.token, t.renewAt
	t.mu.Unlock()
	if tok != "" && t.clock.Now().Before(renewAt) {
		return tok, nil
	}
	// The fetch runs under the context of the request that started it:
	// if that one is cancelled, the waiting requests fail too and the
	// next one fetches again.
	ch := t.fetches.DoChan("", func() (any, error) { return t.fetch(ctx) })
	select {
	case r := <-ch:
		if r.Err != nil {
			return "", r.Err
		}
		return r.Val.(string), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// invalidate drops tok, if it is still the current token: the server
// refused it (the ServiceAccount was deleted and made again).
func (t *serviceAccountToken) invalidate(tok string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.token == tok {
		t.token = ""
	}
}

// fetch requests a token, creating the ServiceAccount first if missing.
func (t *serviceAccountToken) fetch(ctx context.Context) (string, error) {
	accounts := t.root.ServiceAccounts(metav1.NamespaceSystem)
	exp := controllerTokenSeconds
	req := &authenticationv1.TokenRequest{
		TypeMeta: metav1.TypeMeta{APIVersion: authenticationv1.SchemeGroupVersion.String(), Kind: "TokenRequest"},
		Spec:     authenticationv1.TokenRequestSpec{ExpirationSeconds: &exp},
	}
	var out authenticationv1.TokenRequest
	err := accounts.CreateSubresource(ctx, t.name, "token", req, &out, client.WriteOptions{})
	if apierrors.IsNotFound(err) {
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: t.name, Namespace: metav1.NamespaceSystem}}
		if _, err := accounts.Create(ctx, sa, client.WriteOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return "", fmt.Errorf("create service account %s/%s: %w", metav1.NamespaceSystem, t.name, err)
		}
		err = accounts.CreateSubresource(ctx, t.name, "token", req, &out, client.WriteOptions{})
	}
	if err != nil {
		return "", fmt.Errorf("request a token for %s/%s: %w", metav1.NamespaceSystem, t.name, err)
	}
	now := t.clock.Now()
	life := out.Status.ExpirationTimestamp.Sub(now)
	t.mu.Lock()
	defer t.mu.Unlock()
	t.token = out.Status.Token
	t.renewAt = now.Add(time.Duration(float64(life) * controllerTokenRenewAt))
	return t.token, nil
}

// tokenTransport sends every request with the controller's current token.
//
// Upstream: k8s.io/client-go/transport (TokenSourceWrapTransport).
type tokenTransport struct {
	token *serviceAccountToken
	next  http.RoundTripper
}

// RoundTrip implements http.RoundTripper.
func (t *tokenTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	tok, err := t.token.get(req.Context())
	if err != nil {
		if req.Body != nil {
			req.Body.Close() // RoundTrip must close the body, even on error
		}
		return nil, err
	}
	req = req.Clone(req.Context())
	req.Header.Set("Authorization", "Bearer "+tok)
	resp, err := t.next.RoundTrip(req)
	if err == nil && resp.StatusCode == http.StatusUnauthorized {
		t.token.invalidate(tok)
	}
	return resp, err
}
