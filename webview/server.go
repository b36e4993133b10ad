package webview

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/tracing"
	"github.com/minicp/minicp/wait"
)

//go:embed assets
var assets embed.FS

// Options configures a web view.
type Options struct {
	// Client reaches the API server, with credentials that may list
	// every kind the page shows and GET /debug/watchcache (the admin's).
	// Required.
	Client *client.Client
	// Tracing is the cluster's: the sequence diagram and the scheduling
	// panel read its Recorder. Defaults to nil, and the page then says
	// that tracing is off.
	Tracing *tracing.Tracing
	// Listener, when set, is where Start serves the page until its ctx
	// is done; Start closes it. It must be a loopback address: the page
	// reads the cluster with Client's credentials. Defaults to nil: the
	// caller serves Handler itself.
	Listener net.Listener
	// Clock paces the event stream. Defaults to clock.Real.
	Clock clock.Clock
	// Logger defaults to a discard logger.
	Logger *slog.Logger
}

// Server is the web view of one cluster: its informers and its HTTP
// handler. Start it once.
type Server struct {
	client  *client.Client
	tracing *tracing.Tracing
	ln      net.Listener
	clock   clock.Clock
	log     *slog.Logger
	factory *informer.SharedInformerFactory
	kinds   *kindInformers
	handler http.Handler

	// changed is notified on every change an informer delivers: the
	// event stream's cue.
	changed wait.Broadcast
}

// New validates opts and returns a web view that is not running.
func New(opts Options) (*Server, error) {
	if opts.Client == nil {
		return nil, errors.New("webview: Options.Client is required")
	}
	s := &Server{
		client:  opts.Client,
		tracing: opts.Tracing,
		ln:      opts.Listener,
		clock:   opts.Clock,
		log:     logging.OrDiscard(opts.Logger).With("component", "webview"),
	}
	if s.clock == nil {
		s.clock = clock.Real
	}
	var err error
	// The web view's own informers are not traced: a learner follows the
	// cluster's requests, not the page watching them.
	s.factory, err = informer.NewSharedInformerFactory(informer.SharedInformerFactoryOptions{
		Client: opts.Client, Clock: s.clock, Logger: s.log,
	})
	if err != nil {
		return nil, fmt.Errorf("webview: %w", err)
	}
	if s.kinds, err = newKindInformers(s.factory, opts.Client, s.changed.Notify); err != nil {
		return nil, fmt.Errorf("webview: %w", err)
	}
	static, err := fs.Sub(assets, "assets")
	if err != nil {
		return nil, fmt.Errorf("webview: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /", http.FileServerFS(static))
	mux.HandleFunc("GET /api/cluster", s.serveCluster)
	mux.HandleFunc("GET /api/objects", s.serveObjects)
	mux.HandleFunc("GET /api/watchcache", s.serveWatchCache)
	mux.HandleFunc("GET /api/requests", s.serveRequests)
	mux.HandleFunc("GET /api/sequence", s.serveSequence)
	mux.HandleFunc("GET /api/scheduling", s.serveScheduling)
	mux.HandleFunc("GET /api/events", s.serveEvents)
	// What the patterns above do not take is a Status: another method
	// anywhere 405, an unknown endpoint 404.
	mux.HandleFunc("GET /api/", func(w http.ResponseWriter, r *http.Request) { writeError(w, notFound(r.URL.Path)) })
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) { writeError(w, methodNotAllowed(r.Method)) })
	s.handler = loopbackOnly(mux)
	return s, nil
}

// loopbackOnly refuses (403) a request whose Host is not a loopback
// address or localhost: a page of another site that got its name to
// resolve to 127.0.0.1 (DNS rebinding) must not read what the web view
// reads as the admin.
func loopbackOnly(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		host, _, err := net.SplitHostPort(r.Host)
		if err != nil {
			host = r.Host
		}
		if ip, err := netip.ParseAddr(strings.Trim(host, "[]")); (err != nil || !ip.IsLoopback()) && host != "localhost" {
			writeError(w, apierrors.NewForbidden(runtime.GroupResource{Resource: "webview"}, "",
				fmt.Errorf("the web view answers requests to a loopback address only, not to host %q", r.Host)))
			return
		}
		h.ServeHTTP(w, r)
	})
}

// Handler serves the page and its JSON endpoints. The JSON answers come
// from informers, which hold nothing until Start has them synced.
func (s *Server) Handler() http.Handler { return s.handler }

// WaitForSync blocks until the informers have listed the cluster once,
// or ctx is done (its error).
func (s *Server) WaitForSync(ctx context.Context) error { return s.factory.WaitForCacheSync(ctx) }

// serveShutdownTimeout bounds the wait for responses still being written
// once ctx is done: the event streams end with ctx, so only a slow
// client can take this long.
const serveShutdownTimeout = 5 * time.Second

// Start runs the informers and, with Options.Listener, serves the page on
// it, until ctx is done. It returns once everything it started has
// stopped: every request's context (and so every event stream) ends with
// ctx, the server shuts down, then the informers stop.
func (s *Server) Start(ctx context.Context) error {
	var wg sync.WaitGroup
	defer wg.Wait()
	// Cancelled on return too, so the informers stop when serving fails.
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	wg.Go(func() {
		if err := s.factory.Start(ctx); err != nil && ctx.Err() == nil {
			s.log.Error("informers stopped", "err", err)
		}
	})
	if s.ln == nil {
		<-ctx.Done()
		return nil
	}
	srv := &http.Server{
		Handler:           s.handler,
		ReadHeaderTimeout: 10 * time.Second,
		BaseContext:       func(net.Listener) context.Context { return ctx },
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
	errCh := make(chan error, 1)
	wg.Go(func() { errCh <- srv.Serve(s.ln) })
	s.log.Info("serving", "url", "http://"+s.ln.Addr().String())
	select {
	case err := <-errCh:
		return fmt.Errorf("webview: serve: %w", err)
	case <-ctx.Done():
	}
	shutdownCtx, cancelShutdown := context.WithTimeout(context.WithoutCancel(ctx), serveShutdownTimeout)
	defer cancelShutdown()
	err := srv.Shutdown(shutdownCtx)
	if errors.Is(err, context.DeadlineExceeded) {
		err = srv.Close()
	}
	<-errCh
	return err
}
