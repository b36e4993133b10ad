package storagetest

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/minicp/minicp/storage"
)

// sharedEtcd is the etcd of this test binary: set by Main before any test
// runs and closed after the last, so reading it needs no lock.
var sharedEtcd *storage.EmbeddedEtcd

// startTimeout bounds the start of the shared etcd. It starts in about
// 30ms on an idle machine and in seconds on a loaded 2-core CI machine
// under -race; a minute means it is stuck, not slow.
const startTimeout = time.Minute

// progressNotifyInterval is the shared etcd's watch progress interval, so
// a test waiting for a Bookmark waits a fraction of a second, not etcd's
// 10 minutes. Only watches that ask for progress get them.
const progressNotifyInterval = 100 * time.Millisecond

// Main is a TestMain for packages that use the shared etcd: it starts it,
// runs the tests, closes it, and then fails the binary if goroutines
// outlive the tests (goleak, with LeakOptions). It does not return: it
// calls os.Exit with the result.
func Main(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	ctx, cancel := context.WithTimeout(context.Background(), startTimeout)
	etcd, err := storage.StartEmbeddedEtcd(ctx, storage.EmbeddedOptions{
		// Tests never survive a crash, so fsync buys them nothing but time.
		UnsafeNoFsync:               true,
		WatchProgressNotifyInterval: progressNotifyInterval,
	})
	cancel()
	if err != nil {
		fmt.Fprintf(os.Stderr, "storagetest: %v\n", err)
		return 1
	}
	sharedEtcd = etcd
	code := m.Run()
	if err := etcd.Close(); err != nil {
		fmt.Fprintf(os.Stderr, "storagetest: %v\n", err)
		code = max(code, 1)
	}
	// Leaks are checked only after etcd is closed (its goroutines are
	// gone then), and only when the tests passed: a failed test may leave
	// a watch behind, and its own failure says more.
	if code == 0 {
		if err := goleak.Find(LeakOptions()...); err != nil {
			fmt.Fprintf(os.Stderr, "storagetest: goroutines leaked: %v\n", err)
			code = 1
		}
	}
	return code
}

// LeakOptions is the one goleak ignore list for minicp; use it in every
// package's TestMain, through Main or with
// goleak.VerifyTestMain(m, storagetest.LeakOptions()...). It is empty on
// purpose: a closed EmbeddedEtcd and closed etcd clients leave no goroutine
// behind (goleak waits for those still exiting), so whatever goleak finds
// is a leak. Add an entry only for a goroutine a dependency starts once per
// process and never stops, with the reason beside it.
func LeakOptions() []goleak.Option {
	return nil
}
