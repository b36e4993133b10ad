// Package endpoints is the endpoints controller: for every Service with a
// selector it keeps an Endpoints object of the same name listing the
// matching pods' IPs and the Service's ports resolved against each pod.
// kube-proxy (and DNS for headless services) read those Endpoints; this
// controller is the only writer of the ones it owns.
//
// Where it sits on the watch path:
//
//	Service, Pod, Endpoints informers -> handlers -> queue of Services
//	  -> Reconcile(service): pods from the cache -> subsets -> RepackSubsets
//	  -> create / update (only when changed) / delete the Endpoints
//
// What it owns:
//
//   - the subsets: ready pods (PodReady=True) in Addresses, the others in
//     NotReadyAddresses, or all of them in Addresses when the Service sets
//     publishNotReadyAddresses; pods without an IP, terminal pods and
//     terminating ones (unless publishNotReadyAddresses) are left out;
//   - the ports: each Service port with its targetPort resolved per pod,
//     by number, or by the name of a container port (a pod without that
//     name is skipped for that port);
//   - the labels (the Service's, plus service.kubernetes.io/headless for
//     headless services) and the annotations
//     endpoints.kubernetes.io/last-change-trigger-time and
//     endpoints.kubernetes.io/over-capacity.
//
// Services without a selector (such as the API server's own "kubernetes"
// Service) and ExternalName Services are left alone: their Endpoints are
// written by someone else. When a Service goes, so do its Endpoints; at
// start, Endpoints left over from Services deleted while the controller
// was down are found and deleted.
//
// These Endpoints are the end of the path a request takes to a pod behind
// a Service (a DNS name, a TCP connection to the Service's virtual IP,
// kube-proxy, a pod): the virtual IP is forwarded to the addresses
// written here.
//
// Upstream: k8s.io/kubernetes/pkg/controller/endpoint.
package endpoints
