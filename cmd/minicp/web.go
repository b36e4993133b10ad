package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/netip"
	"syscall"

	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/webview"
)

// listenWeb binds --web-address, before etcd starts as --listen is: a
// taken port or an address off loopback is an error at once. The web
// view reads the cluster as the admin, so it is never served beyond the
// machine.
func listenWeb(addr string) (net.Listener, error) {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, fmt.Errorf("--web-address %s: %w", addr, err)
	}
	if ip, err := netip.ParseAddr(host); (err != nil || !ip.IsLoopback()) && host != "localhost" {
		return nil, fmt.Errorf("--web-address %s: not a loopback address; the web view reads the cluster as the admin, so it listens on 127.0.0.1, ::1 or localhost only", addr)
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		if errors.Is(err, syscall.EADDRINUSE) {
			return nil, fmt.Errorf("cannot listen on %s: address already in use (choose another address with --web-address, or turn the web view off with --web-address=\"\")", addr)
		}
		return nil, fmt.Errorf("cannot listen on %s: %w (see --web-address)", addr, err)
	}
	return ln, nil
}

// startWebView serves the web view of the ready cluster c on ln until
// ctx is done; the returned channel gets Start's error. It closes ln. It reads the
// cluster as the admin, in process: over the in-memory transport, so
// every request still runs the API server's whole handler chain.
func startWebView(ctx context.Context, c *cluster.Cluster, ln net.Listener, tr *tracing.Tracing, logger *slog.Logger) (<-chan error, error) {
	cl, err := client.New(client.Config{Host: "http://in-memory", Transport: client.NewInMemoryTransport(c.APIServer().Handler()),
		BearerToken: c.Token()})
	if err != nil {
		ln.Close()
		return nil, fmt.Errorf("web view: %w", err)
	}
	w, err := webview.New(webview.Options{Client: cl, Tracing: tr, Listener: ln, Logger: logger})
	if err != nil {
		ln.Close()
		return nil, err
	}
	done := make(chan error, 1)
	go func() { done <- w.Start(ctx) }()
	return done, nil
}
