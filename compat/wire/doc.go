// Package wire checks that minicp's JSON is kube-apiserver's, byte for
// byte: the objects a running minicp cluster serves (pods run by kubelets,
// Deployments, ReplicaSets, Jobs, Services and their Endpoints, Nodes,
// Leases, Events, Namespaces, ConfigMaps, Secrets, ServiceAccounts), read
// over HTTP with GET and LIST, must decode into k8s.io/api's types without
// an unknown field and encode back with encoding/json, which is what
// kube-apiserver's JSON serializer writes, to the very bytes minicp sent.
// That holds only if minicp writes the fields upstream writes, in
// upstream's order, with upstream's empty structs ("resources": {},
// "status": {}) and nulls (a zero time), and no field upstream would drop.
// The items of a LIST carry no kind and apiVersion, as kube-apiserver's
// do for built-in kinds.
//
// It also checks, without a cluster, that every `json` struct tag in
// minicp's api/meta/v1, api/core/v1, api/apps/v1, api/batch/v1,
// api/autoscaling/v1 and api/coordination/v1 behaves as upstream's, field
// by field and in upstream's field order, and that every field upstream
// has and minicp lacks is left out when empty, so re-encoding never adds
// it.
//
// It is its own module, so that the minicp library never depends on
// k8s.io modules (docs/architecture.md: compatibility tests live in their
// own module). It holds only tests; run them with
//
//	cd compat/wire && go test ./...
package wire
