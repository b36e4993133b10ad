// Package webview is a live web page of a running cluster, for people
// learning how Kubernetes works: the nodes and the pods on them, the
// objects of each kind, each resource's watch cache window, a pod's
// scheduling decision per plugin, and a sequence diagram of one request's
// hops across the components (client, authn, authz, admission,
// validation, etcd, watch cache, informers, controller, scheduler,
// kubelet, status).
//
// It is a consumer like the controllers: it sees the cluster only through
// the API server, with informers for what it lists and a GET of
// /debug/watchcache for the caches' windows. The diagram and the
// scheduling panel read the spans of the cluster's tracing.Recorder in
// the same process; without tracing the page says so. The page (plain
// HTML, CSS and JavaScript, embedded in the binary, fetching nothing from
// the network) asks the JSON endpoints under /api/ again whenever the
// server-sent event stream at /api/events says something changed.
//
// `minicp up` serves it on a loopback address of its own (--web-address).
// The web view holds the admin's credentials, so it must only ever be
// served on loopback: Options.Listener is the caller's to choose.
package webview
