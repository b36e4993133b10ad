package storage

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"sync"
	"sync/atomic"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/server/v3/embed"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3client"
	"go.uber.org/zap/zapcore"
)

// EmbeddedOptions configures an embedded etcd. The zero value works: a
// throwaway single-member etcd in a temporary directory.
type EmbeddedOptions struct {
	// DataDir holds etcd's data. Defaults to a new temporary directory,
	// which Close removes; a DataDir given here is kept, so a restart finds
	// its objects again.
	DataDir string
	// Logger receives etcd's own Error records (server and client) and
	// Info records when it starts and stops. Defaults to a logger that
	// discards.
	Logger *slog.Logger
	// UnsafeNoFsync skips fsync on every write: far faster, but a machine
	// crash can lose writes etcd acknowledged. For tests and throwaway
	// clusters. Defaults to false.
	UnsafeNoFsync bool
	// WatchProgressNotifyInterval is how often etcd tells idle watches that
	// asked for it (ListOptions.ProgressNotify) which revision they are
	// current to. Defaults to etcd's 10 minutes; etcd allows no less than
	// 100ms. etcd keeps it in a process-wide variable, so the last etcd
	// started with one sets it for every etcd in the process.
	WatchProgressNotifyInterval time.Duration
}

// EmbeddedEtcd is a single-member etcd running inside this process, with
// one in-process client on it. It listens on 127.0.0.1 only, on ports the kernel picks
// (Endpoints says which), so any number can run side by side.
//
// Other etcd settings are etcd's defaults, except:
//   - auto-compaction stays off (etcd's default too): history is kept until
//     someone compacts, as kube-apiserver does every 5 minutes with its own
//     compactor; minicp does not compact yet, so every revision stays
//     readable (and watchable) for the life of the data directory;
//   - the raft tick is 10ms and the election timeout 100ms (etcd: 100ms and
//     1s). A single member elects itself, so the only effect of the longer
//     defaults is a start that takes 0.6s instead of 30ms;
//   - the gRPC gateway (JSON over HTTP) is off: minicp speaks gRPC only.
//
// Methods are safe for concurrent use.
type EmbeddedEtcd struct {
	etcd    *embed.Etcd
	client  *clientv3.Client
	logger  *slog.Logger
	dataDir string
	// tempDir is the data directory to remove on Close, or "" to keep it.
	tempDir string
	// muteEtcdLogs silences etcd's logs once Close starts: etcd reports its
	// own orderly shutdown as errors ("serving failed: mux: server closed")
	// that nobody needs to act on.
	muteEtcdLogs atomic.Bool

	closeOnce sync.Once
	closeErr  error
}

// StartEmbeddedEtcd starts etcd and blocks until it serves clients, etcd
// fails, or ctx is done; pass a ctx with a deadline to bound the wait. On
// error nothing is left running or on disk. The caller must Close the
// result.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3/testserver (RunEtcd).
func StartEmbeddedEtcd(ctx context.Context, opts EmbeddedOptions) (*EmbeddedEtcd, error) {
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	logger = logger.With("component", "etcd")
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("start etcd: %w", err)
	}
	e := &EmbeddedEtcd{logger: logger}

	dataDir := opts.DataDir
	if dataDir == "" {
		dir, err := os.MkdirTemp("", "minicp-etcd-")
		if err != nil {
			return nil, fmt.Errorf("start etcd: %w", err)
		}
		dataDir, e.tempDir = dir, dir
	}

	cfg := embed.NewConfig()
	cfg.Name = "minicp"
	cfg.Dir = dataDir
	// Port 0: the kernel picks a free port when etcd listens, so there is
	// no window in which another process can take a port we picked.
	local := url.URL{Scheme: "http", Host: "127.0.0.1:0"}
	cfg.ListenClientUrls = []url.URL{local}
	cfg.AdvertiseClientUrls = []url.URL{local}
	cfg.ListenPeerUrls = []url.URL{local}
	cfg.AdvertisePeerUrls = []url.URL{local}
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	// Why 10ms and 100ms: see the EmbeddedEtcd doc.
	cfg.TickMs = 10
	cfg.ElectionMs = 100
	cfg.EnableGRPCGateway = false
	// etcd's gRPC server takes a little more than this, so the client's
	// send limit (the same number) is reached first (see maxRequestBytes).
	cfg.MaxRequestBytes = maxRequestBytes
	cfg.UnsafeNoFsync = opts.UnsafeNoFsync
	if opts.WatchProgressNotifyInterval > 0 {
		cfg.WatchProgressNotifyInterval = opts.WatchProgressNotifyInterval
	}
	// etcd logs through zap at Info by default: lines per start, per
	// election and per slow request. Only its errors are worth a reader's
	// time.
	cfg.LogLevel = "error"
	cfg.ZapLoggerBuilder = embed.NewZapLoggerBuilder(newZapLogger(logger, zapcore.ErrorLevel, &e.muteEtcdLogs).Named("etcd-server"))

	etcd, err := embed.StartEtcd(cfg)
	if err != nil {
		e.removeTempDir()
		return nil, fmt.Errorf("start etcd: %w", err)
	}
	e.etcd = etcd
	e.dataDir = dataDir
	select {
	case <-etcd.Server.ReadyNotify():
	case err := <-etcd.Err():
		return nil, e.abort(fmt.Errorf("start etcd: %w", err))
	case <-etcd.Server.StopNotify():
		return nil, e.abort(errors.New("start etcd: server stopped before it was ready"))
	case <-ctx.Done():
		return nil, e.abort(fmt.Errorf("start etcd: %w", ctx.Err()))
	}
	// The process's own client calls the server's handlers directly
	// instead of through gRPC over loopback: the same requests and
	// answers, without the HTTP/2 framing and protobuf round trip that
	// were two fifths of the CPU a cluster spent starting. Other
	// processes still connect through Endpoints.
	e.client = v3client.New(etcd.Server)
	logger.InfoContext(ctx, "etcd started", "endpoints", e.Endpoints(), "dataDir", dataDir)
	return e, nil
}

// abort undoes a start that failed half-way and returns err.
func (e *EmbeddedEtcd) abort(err error) error {
	e.muteEtcdLogs.Store(true)
	e.etcd.Close()
	e.removeTempDir()
	return err
}

// Endpoints returns the client URLs ("http://127.0.0.1:PORT"), the form
// --etcd-servers takes.
func (e *EmbeddedEtcd) Endpoints() []string {
	out := make([]string, 0, len(e.etcd.Clients))
	for _, l := range e.etcd.Clients {
		out = append(out, "http://"+l.Addr().String())
	}
	return out
}

// DataDir returns the directory etcd keeps its data in.
func (e *EmbeddedEtcd) DataDir() string { return e.dataDir }

// Client returns the client EmbeddedEtcd owns: share it, never close it;
// Close closes it.
func (e *EmbeddedEtcd) Client() *clientv3.Client { return e.client }

// Close stops etcd and releases what StartEmbeddedEtcd acquired, in order:
//
//  1. mute etcd's logs, which report an orderly shutdown as errors;
//  2. close the client, ending its watches and connections; Stores built
//     on it fail from then on;
//  3. close the server: stop serving clients, stop raft, and wait for every
//     etcd goroutine to exit (etcd's own Close, which may wait up to its
//     request timeout for calls in flight);
//  4. remove the data directory, if StartEmbeddedEtcd created it.
//
// Close blocks until all four are done. It is idempotent and safe for
// concurrent use; every call returns the first call's error.
func (e *EmbeddedEtcd) Close() error {
	e.closeOnce.Do(func() {
		e.muteEtcdLogs.Store(true)
		var errs []error
		if err := e.client.Close(); err != nil && !errors.Is(err, context.Canceled) {
			errs = append(errs, fmt.Errorf("close etcd client: %w", err))
		}
		e.etcd.Close()
		if err := e.removeTempDir(); err != nil {
			errs = append(errs, err)
		}
		e.logger.Info("etcd stopped")
		e.closeErr = errors.Join(errs...)
	})
	return e.closeErr
}

func (e *EmbeddedEtcd) removeTempDir() error {
	if e.tempDir == "" {
		return nil
	}
	if err := os.RemoveAll(e.tempDir); err != nil {
		return fmt.Errorf("remove etcd data dir: %w", err)
	}
	return nil
}
