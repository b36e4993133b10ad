// Package apiservertest starts API servers for tests, as net/http/httptest
// starts HTTP servers: New gives a test an apiserver.Server alone (no
// listener, no controllers, no scheduler, no nodes) on the test binary's
// shared etcd (storage/storagetest) under a key prefix of its own, synced
// and with the system namespaces created, and stops it when the test ends.
//
// It is the one way tests start a bare API server: apiserver's own tests
// serve its Handler over httptest, client, informer, scheduler and
// controller tests reach it through client.NewInMemoryTransport (see
// clustertest.InMemoryClient), and clustertest.New starts the whole cluster
// around one. Only tests import it.
package apiservertest
