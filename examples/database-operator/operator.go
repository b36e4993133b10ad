package main

import (
	"context"
	"errors"
	"fmt"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/controllers/manager"
)

// newClient returns an admin client of c whose scheme knows the Database
// types and the webhook configurations besides the built-in kinds: what
// the operator's manager, cache and reconciler decode with.
func newClient(c *cluster.Cluster) (*client.Client, error) {
	scheme, err := client.NewScheme()
	if err != nil {
		return nil, err
	}
	for _, add := range []func(*runtime.Scheme) error{AddToScheme, admissionregistrationv1.AddToScheme} {
		if err := add(scheme); err != nil {
			return nil, err
		}
	}
	return client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token(), Scheme: scheme})
}

// operator is the operator running in this process, as it would in its
// own pod: the webhook's HTTPS server and the manager running the
// Database controller.
type operator struct {
	webhook *Webhook
	manager *manager.Manager
	cancel  context.CancelFunc
	// doneCh receives the result of the webhook's Start and of the
	// manager's; buffer 2, so neither waits for stop to read it.
	doneCh chan error
}

// startOperator starts the webhook and the manager with the Database
// controller, and returns once the manager runs with its caches synced.
// Call stop to end both.
func startOperator(ctx context.Context, cl *client.Client, clk clock.Clock) (*operator, error) {
	wh, err := NewWebhook(clk.Now())
	if err != nil {
		return nil, err
	}
	mgr, err := manager.New(manager.Options{Client: cl, Clock: clk})
	if err != nil {
		return nil, err
	}
	if err := Add(mgr); err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(ctx)
	o := &operator{webhook: wh, manager: mgr, cancel: cancel, doneCh: make(chan error, 2)}
	go func() { o.doneCh <- wh.Start(ctx) }()
	go func() { o.doneCh <- mgr.Start(ctx) }()
	if err := mgr.WaitIdle(ctx); err != nil {
		return nil, errors.Join(err, o.stop())
	}
	return o, nil
}

// stop cancels the webhook and the manager and waits until both have
// returned.
func (o *operator) stop() error {
	o.cancel()
	var errs []error
	for range 2 {
		if err := <-o.doneCh; err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("operator: %w", err)
	}
	return nil
}
