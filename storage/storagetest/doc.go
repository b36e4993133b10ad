// Package storagetest is for tests of code built on storage: one embedded
// etcd shared by a whole test binary (Main, Client, Prefix, Compact), the
// goleak ignore list every package's TestMain uses (LeakOptions), a small
// test kind (Widget), and the conformance suite every storage.Interface
// implementation must pass (RunStorageTests): the etcd Store today, the
// watch cache's Cacher later.
//
// A package's main_test.go:
//
//	func TestMain(m *testing.M) { storagetest.Main(m) }
//
// Each test then takes Client(t) and a Prefix(t) of its own, so tests never
// see each other's keys.
//
// Upstream: k8s.io/apiserver/pkg/storage/testing (store_tests.go) and
// k8s.io/apiserver/pkg/storage/etcd3/testserver.
package storagetest
