// Package client is minicp's REST client: how controllers, the scheduler,
// kubelets, proxies and tests talk to the API server. It sits at the start
// of the request path (client -> filters -> registry -> etcd) and at the
// end of the watch path (etcd -> API server -> newline-delimited JSON ->
// Watch -> informer).
//
// It owns:
//
//   - Config and kubeconfig loading (LoadKubeconfig, ParseKubeconfig):
//     server, bearer token, CA, client certificate, context namespace;
//   - Client, the HTTP plumbing (TLS, token, user agent, optional QPS
//     limit, retries of a 429 or 5xx after its Retry-After) and the one
//     place a non-2xx response becomes an *apierrors.StatusError, so
//     apierrors.IsNotFound and friends work the same on both sides of the
//     wire;
//   - Resource[T, L], one typed client per resource (Create, Get, List,
//     Update, UpdateStatus, Patch, Delete, DeleteCollection, Watch), and
//     Clientset, the core/v1 resources built from it;
//   - DiscoveryClient, which reads what the server serves (/api, /apis)
//     as runtime.ResourceInfos, and DynamicResource, the client of any
//     resource (custom resources included) as unstructured objects, which
//     registers what discovery finds in the client's scheme
//     (AddUnstructuredResource) so informers serve it too;
//   - NewInMemoryTransport, which calls the API server's http.Handler
//     directly: the whole handler chain runs, without TCP or TLS;
//   - RetryOnConflict, with DefaultRetry and DefaultBackoff (wait.Backoff
//     values) for how long to keep trying.
//
// What the client speaks is list-watch over the API server's REST paths
// (/api/v1/namespaces/{ns}/{resource}/{name}, /apis/{group}/{version}/...
// for the named groups): LIST over short HTTP requests, WATCH over a
// long-lived one whose body is a stream of events.
//
// Upstream: k8s.io/client-go/rest, k8s.io/client-go/kubernetes,
// k8s.io/client-go/discovery, k8s.io/client-go/dynamic,
// k8s.io/client-go/tools/clientcmd, k8s.io/client-go/util/retry.
package client
