package serviceaccount

import (
	"context"
	"errors"
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/event"
	"github.com/minicp/minicp/controllers/handler"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/service-account-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "service-account-controller"

// ControllerName is the controller's name, as kube-controller-manager's
// --controllers flag spells it.
const ControllerName = "serviceaccount"

// DefaultServiceAccountName is the service account every namespace gets,
// and the one a pod runs as unless its spec names another.
const DefaultServiceAccountName = "default"

// Add adds the ServiceAccount controller to mgr: it ensures a "default"
// ServiceAccount in every active namespace.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager
// (startServiceAccountController).
func Add(mgr *manager.Manager) error {
	namespaces, err := cache.ListerFor[*corev1.Namespace](mgr.GetCache())
	if err != nil {
		return fmt.Errorf("serviceaccount controller: %w", err)
	}
	serviceAccounts, err := cache.ListerFor[*corev1.ServiceAccount](mgr.GetCache())
	if err != nil {
		return fmt.Errorf("serviceaccount controller: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return fmt.Errorf("serviceaccount controller: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return fmt.Errorf("serviceaccount controller: %w", err)
	}
	r := &serviceAccountsController{
		clientset:       cs,
		namespaces:      namespaces,
		serviceAccounts: serviceAccounts,
		toEnsure:        []corev1.ServiceAccount{{ObjectMeta: metav1.ObjectMeta{Name: DefaultServiceAccountName}}},
	}
	return builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		// Any change of a namespace (its creation, a resync) is a chance
		// to check its service accounts.
		Watches(&corev1.Namespace{}, handler.EnqueueRequestForObject{}).
		// Only a deletion can take a service account away.
		Watches(&corev1.ServiceAccount{}, handler.Funcs{DeleteFunc: enqueueNamespaceOf}).
		Complete(r)
}

// enqueueNamespaceOf enqueues the namespace of a deleted service account.
func enqueueNamespaceOf(_ context.Context, ev event.DeleteEvent, q handler.Queue) {
	if ev.Object == nil {
		return
	}
	q.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Name: ev.Object.GetObjectMeta().Namespace}})
}

// serviceAccountsController creates the service accounts toEnsure in every
// active namespace. Requests name a namespace. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/serviceaccount
// (ServiceAccountsController).
type serviceAccountsController struct {
	clientset       *client.Clientset
	namespaces      *informer.Lister[*corev1.Namespace]
	serviceAccounts *informer.Lister[*corev1.ServiceAccount]
	// toEnsure are the service accounts every namespace must have; only
	// their names are read.
	toEnsure []corev1.ServiceAccount
}

var _ reconcile.Reconciler = (*serviceAccountsController)(nil)

// Reconcile creates the missing service accounts of the namespace req
// names, unless it is gone or not Active.
//
// Upstream: k8s.io/kubernetes/pkg/controller/serviceaccount
// (ServiceAccountsController.syncNamespace).
func (r *serviceAccountsController) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	ns, err := r.namespaces.Get("", req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if ns.Status.Phase != corev1.NamespaceActive {
		// A terminating namespace takes no new objects.
		return reconcile.Result{}, nil
	}
	var errs []error
	for _, want := range r.toEnsure {
		_, err := r.serviceAccounts.Get(ns.Name, want.Name)
		if err == nil {
			continue
		}
		if !apierrors.IsNotFound(err) {
			return reconcile.Result{}, err
		}
		sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: want.Name, Namespace: ns.Name}}
		_, err = r.clientset.ServiceAccounts(ns.Name).Create(ctx, sa, client.WriteOptions{})
		switch {
		case err == nil, apierrors.IsAlreadyExists(err):
			// Created, or our cache was behind.
		case apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
			// The namespace turned Terminating after the cache saw it.
		default:
			errs = append(errs, fmt.Errorf("create serviceaccount %s/%s: %w", ns.Name, want.Name, err))
		}
	}
	return reconcile.Result{}, errors.Join(errs...)
}
