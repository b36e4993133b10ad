package cluster

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/minicp/minicp/wait"
)

// The Service network serves every cluster address at a fixed loopback
// address (10.96.0.1 at 127.96.0.1, a pod's 10.244.x.y at 127.244.x.y),
// the same for every cluster. Two processes running it at once would
// each bind what the other has not yet bound, and one cluster's pods
// would reach the other's API server and pods. So one process at a time
// runs it on a host: the first cluster of a process takes a lock file,
// and a cluster of another process waits for it (the wait is logged).
// Clusters of the same process share the lock: they share the addresses
// too, and one of them waiting for another of its own process could wait
// for ever (a test starting two clusters side by side); the second one's
// proxy then retries the addresses the first holds, as before.

// hostNetworkLockFile is the lock's path; flock locks it, so a process
// that dies releases it.
var hostNetworkLockFile = filepath.Join(os.TempDir(), "minicp-service-network.lock")

// hostNetworkLockRetry paces the attempts while another process holds the
// lock: a file lock offers no notification, and its holder (a test
// binary, a `minicp up`) holds it for seconds to hours.
var hostNetworkLockRetry = wait.Backoff{Initial: 20 * time.Millisecond, Factor: 2, Jitter: 0.5, Cap: 500 * time.Millisecond}

// hostNetworkLock is this process's hold on the lock file.
var hostNetworkLock struct {
	// mu guards users and file, and is held while taking the lock, so
	// clusters of this process starting together wait for one attempt.
	mu    sync.Mutex
	users int
	file  *os.File
}

// acquireHostNetwork returns once this process holds the host's Service
// network lock (at once if one of its clusters already does), or ctx's
// error. The caller must call release once.
func acquireHostNetwork(ctx context.Context, log *slog.Logger) (release func(), err error) {
	hostNetworkLock.mu.Lock()
	defer hostNetworkLock.mu.Unlock()
	if hostNetworkLock.users == 0 {
		f, err := lockFile(ctx, log)
		if err != nil {
			return nil, err
		}
		hostNetworkLock.file = f
	}
	hostNetworkLock.users++
	var once sync.Once
	return func() { once.Do(releaseHostNetwork) }, nil
}

func releaseHostNetwork() {
	hostNetworkLock.mu.Lock()
	defer hostNetworkLock.mu.Unlock()
	hostNetworkLock.users--
	if hostNetworkLock.users == 0 {
		unlockFile(hostNetworkLock.file)
		hostNetworkLock.file = nil
	}
}

// lockFile opens the lock file and takes its lock, trying again until
// ctx ends while another process holds it.
func lockFile(ctx context.Context, log *slog.Logger) (*os.File, error) {
	f, err := os.OpenFile(hostNetworkLockFile, os.O_RDWR|os.O_CREATE, 0o666)
	if err != nil {
		// No lock file (a read-only temporary directory): run without
		// the lock rather than without a network.
		log.Warn("service network: no host lock", "err", err)
		return nil, nil
	}
	backoff := hostNetworkLockRetry
	logged := false
	for {
		err := tryLock(f)
		if err == nil {
			return f, nil
		}
		if !errors.Is(err, errLocked) {
			f.Close()
			log.Warn("service network: no host lock", "err", err)
			return nil, nil
		}
		if !logged {
			log.Info("waiting for another process's Service network on this host", "lock", hostNetworkLockFile)
			logged = true
		}
		if err := backoff.Wait(ctx); err != nil {
			f.Close()
			return nil, fmt.Errorf("service network: waiting for %s: %w", hostNetworkLockFile, err)
		}
	}
}

// errLocked is tryLock's answer when another process holds the lock.
var errLocked = errors.New("locked by another process")

func unlockFile(f *os.File) {
	if f != nil {
		f.Close() // closing the descriptor releases its flock
	}
}
