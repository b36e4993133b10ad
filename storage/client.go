package storage

import (
	"context"
	"errors"
	"fmt"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.uber.org/zap"
)

// The keepalive settings of kube-apiserver's etcd client: a ping after 30s
// without traffic, and a connection given up 10s after an unanswered ping,
// so a dead member is noticed (and its watches fail over) within 40s.
const (
	keepAliveTime    = 30 * time.Second
	keepAliveTimeout = 10 * time.Second
)

// maxRequestBytes is the largest write the embedded etcd takes, and the
// largest message the client sends. The API server takes bodies up to
// 3 MiB, and an object's stored JSON adds to its body (defaults, status,
// managedFields): etcd's default of 1.5 MiB refused objects the API
// server had accepted. An external etcd keeps its own limit; a write
// over it is a 413 (ErrRequestTooLarge).
const maxRequestBytes = 8 << 20

// NewClient connects to an external etcd cluster (the --etcd-servers
// endpoints, "http://host:2379") and blocks until one endpoint answers a
// read or ctx is done. ctx bounds only that check: the client lives until
// the caller closes it. Its own logging is discarded; failures reach the
// caller as errors.
func NewClient(ctx context.Context, endpoints []string) (*clientv3.Client, error) {
	if len(endpoints) == 0 {
		return nil, errors.New("etcd client: no endpoints")
	}
	// A no-op logger: clientv3's default writes warnings to stderr, and
	// every failure it would warn about also comes back as an error.
	client, err := newClient(endpoints, zap.NewNop())
	if err != nil {
		return nil, err
	}
	// The "health" key is what etcdctl endpoint health reads; any read
	// proves the cluster has a leader and answers.
	if _, err := client.Get(ctx, "health"); err != nil {
		client.Close()
		return nil, fmt.Errorf("etcd client: %v: %w", endpoints, err)
	}
	return client, nil
}

// newClient returns a client on endpoints without waiting for it to
// connect.
func newClient(endpoints []string, logger *zap.Logger) (*clientv3.Client, error) {
	client, err := clientv3.New(clientv3.Config{
		Endpoints:            endpoints,
		DialKeepAliveTime:    keepAliveTime,
		DialKeepAliveTimeout: keepAliveTimeout,
		MaxCallSendMsgSize:   maxRequestBytes,
		Logger:               logger,
	})
	if err != nil {
		return nil, fmt.Errorf("etcd client: %w", err)
	}
	return client, nil
}
