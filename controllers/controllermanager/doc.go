// Package controllermanager is minicp's kube-controller-manager: the
// built-in controllers (deployment, replicaset, job, garbage collector,
// namespace, endpoints, node lifecycle, serviceaccount, ...) by name,
// added to a reconcile-framework Manager, which runs them over one shared
// informer cache.
//
// Controllers are chosen the way kube-controller-manager's --controllers
// flag chooses them: "*" enables every controller, "name" enables one and
// "-name" disables one.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager/app
// (NewControllerDescriptors, KnownControllers).
package controllermanager
