package storagetest

import (
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"go.etcd.io/etcd/api/v3/v3rpc/rpctypes"
	clientv3 "go.etcd.io/etcd/client/v3"
)

// Client returns the client on the test binary's shared etcd. Main owns it:
// share it, never close it. It fails the test when the package's TestMain
// does not call Main.
func Client(t testing.TB) *clientv3.Client {
	t.Helper()
	if sharedEtcd == nil {
		t.Fatal("storagetest: no shared etcd; call storagetest.Main(m) from TestMain")
	}
	return sharedEtcd.Client()
}

// prefixSeq numbers prefixes so two tests of one name (-count=2) differ.
var prefixSeq atomic.Int64

// maxPrefixName caps the part of a prefix taken from the test name; keys
// stay readable in etcdctl and well under etcd's limits.
const maxPrefixName = 48

// Prefix returns an etcd key prefix no other test in the binary uses,
// "/t<N>-<test name>/registry", for a Store of the test's own.
func Prefix(t testing.TB) string {
	name := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, t.Name())
	if len(name) > maxPrefixName {
		name = name[:maxPrefixName]
	}
	return fmt.Sprintf("/t%d-%s/registry", prefixSeq.Add(1), name)
}

// Compact compacts the shared etcd's history up to rev: reads and watches
// at revisions before rev fail with "compacted" from then on, for every
// prefix. A test that compacts must not run in parallel with tests that
// read old revisions. A rev already compacted is not an error.
func Compact(t testing.TB, client *clientv3.Client, rev int64) {
	t.Helper()
	// WithCompactPhysical waits until etcd has applied the compaction, so
	// the next read at an older revision fails every time.
	_, err := client.Compact(t.Context(), rev, clientv3.WithCompactPhysical())
	if err != nil && !errors.Is(err, rpctypes.ErrCompacted) {
		t.Fatalf("storagetest: compact at %d: %v", rev, err)
	}
}

// Endpoints returns the client URLs of the test binary's shared etcd, for
// code under test that connects by itself (an external etcd, as
// --etcd-servers gives it).
func Endpoints(t testing.TB) []string {
	t.Helper()
	if sharedEtcd == nil {
		t.Fatal("storagetest: no shared etcd; call storagetest.Main(m) from TestMain")
	}
	return sharedEtcd.Endpoints()
}
