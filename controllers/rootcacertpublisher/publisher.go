package rootcacertpublisher

import (
	"context"
	"errors"
	"fmt"
	"maps"

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
// ServiceAccount kube-system/root-ca-cert-publisher under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "root-ca-cert-publisher"

// ControllerName is the controller's name, as kube-controller-manager's
// --controllers flag spells it.
const ControllerName = "root-ca-certificate-publisher-controller"

// ConfigMapName is the ConfigMap the controller keeps in every namespace;
// CAKey is its key holding the PEM bundle.
const (
	ConfigMapName = "kube-root-ca.crt"
	CAKey         = "ca.crt"
)

// DescriptionAnnotation and Description say what the ConfigMap is for,
// in upstream's words, so that tools that read it find the same text.
const (
	DescriptionAnnotation = "kubernetes.io/description"
	Description           = "Contains a CA bundle that can be used to verify the kube-apiserver when using internal endpoints such as the internal service IP or kubernetes.default.svc. " +
		"No other usage is guaranteed across distributions of Kubernetes clusters."
)

// ErrNoRootCA is returned by Add without a CA bundle to publish.
var ErrNoRootCA = errors.New("rootcacertpublisher: no root CA to publish")

// Add adds the publisher of rootCA, a PEM bundle, to mgr.
//
// Upstream: k8s.io/kubernetes/cmd/kube-controller-manager
// (startRootCACertPublisher).
func Add(mgr *manager.Manager, rootCA []byte) error {
	if len(rootCA) == 0 {
		return ErrNoRootCA
	}
	configMaps, err := cache.ListerFor[*corev1.ConfigMap](mgr.GetCache())
	if err != nil {
		return fmt.Errorf("rootcacertpublisher: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return fmt.Errorf("rootcacertpublisher: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return fmt.Errorf("rootcacertpublisher: %w", err)
	}
	p := &publisher{clientset: cs, configMaps: configMaps, rootCA: string(rootCA)}
	return builder.ControllerManagedBy(mgr).
		Named(ControllerName).
		Watches(&corev1.Namespace{}, handler.EnqueueRequestForObject{}).
		Watches(&corev1.ConfigMap{}, handler.Funcs{
			UpdateFunc: func(_ context.Context, ev event.UpdateEvent, q handler.Queue) { enqueueNamespaceOf(ev.ObjectNew, q) },
			DeleteFunc: func(_ context.Context, ev event.DeleteEvent, q handler.Queue) { enqueueNamespaceOf(ev.Object, q) },
		}).
		Complete(p)
}

// enqueueNamespaceOf enqueues the namespace of obj if obj is the
// published ConfigMap: no other ConfigMap is the publisher's business.
func enqueueNamespaceOf(obj metav1.Object, q handler.Queue) {
	if obj == nil {
		return
	}
	m := obj.GetObjectMeta()
	if m.Name != ConfigMapName {
		return
	}
	q.Add(reconcile.Request{NamespacedName: reconcile.NamespacedName{Name: m.Namespace}})
}

// publisher reconciles the ConfigMap of the namespace a request names.
// Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/certificates/rootcacertpublisher
// (Publisher).
type publisher struct {
	clientset  *client.Clientset
	configMaps *informer.Lister[*corev1.ConfigMap]
	rootCA     string
}

var _ reconcile.Reconciler = (*publisher)(nil)

// Reconcile creates the namespace's ConfigMap, or puts back its data and
// description if they differ.
//
// Upstream: Publisher.syncNamespace.
func (p *publisher) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	ns := req.Name
	data := map[string]string{CAKey: p.rootCA}
	cm, err := p.configMaps.Get(ns, ConfigMapName)
	switch {
	case apierrors.IsNotFound(err):
		_, err = p.clientset.ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{
				Name: ConfigMapName, Namespace: ns,
				Annotations: map[string]string{DescriptionAnnotation: Description},
			},
			Data: data,
		}, client.WriteOptions{})
		// A namespace gone or terminating takes no ConfigMap: do not
		// retry; an existing one means the cache was behind.
		if apierrors.IsNotFound(err) || apierrors.IsAlreadyExists(err) || apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause) {
			return reconcile.Result{}, nil
		}
		return reconcile.Result{}, err
	case err != nil:
		return reconcile.Result{}, err
	}
	if maps.Equal(cm.Data, data) && cm.Annotations[DescriptionAnnotation] != "" {
		return reconcile.Result{}, nil
	}
	// The cache's object is shared: change a copy.
	cm = cm.DeepCopyObject().(*corev1.ConfigMap)
	cm.Data = data
	if cm.Annotations == nil {
		cm.Annotations = map[string]string{}
	}
	cm.Annotations[DescriptionAnnotation] = Description
	_, err = p.clientset.ConfigMaps(ns).Update(ctx, cm, client.WriteOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		// Deleted or changed since the cache saw it: its event requeues.
		return reconcile.Result{}, nil
	}
	return reconcile.Result{}, err
}
