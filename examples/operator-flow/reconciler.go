package main

import (
	"context"
	"fmt"
	"html"
	"maps"

	"go.opentelemetry.io/otel/attribute"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/tracing"
)

// The reconciler's own hops, marked in its reconcile's trace so that the
// flow shows the three steps of a control loop.
const (
	hopRead = "reconcile.read"
	hopDiff = "reconcile.diff"
	hopAct  = "reconcile.act"
)

// Reconciler makes a Website's ConfigMap hold its page, and reports it in
// the Website's status. It reads from the manager's cache and writes
// through the API server; the controller never runs two reconciles of
// one Website at once.
type Reconciler struct {
	websites   *client.Resource[*Website, *WebsiteList]
	clientset  *client.Clientset
	lister     *informer.Lister[*Website]
	configMaps *informer.Lister[*corev1.ConfigMap]
	// component names the reconciler's marks in traces.
	component string
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// addController adds the Website controller to mgr: For Website, Owns
// ConfigMap, so that a ConfigMap edited or deleted by hand brings its
// Website back to the queue.
func addController(mgr *manager.Manager, component string) error {
	r := &Reconciler{component: component}
	var err error
	if r.websites, err = client.NewResource[*Website, *WebsiteList](mgr.GetClient(), websitesGVR); err != nil {
		return err
	}
	if r.clientset, err = client.NewClientset(mgr.GetClient()); err != nil {
		return err
	}
	if r.lister, err = cache.ListerFor[*Website](mgr.GetCache()); err != nil {
		return err
	}
	if r.configMaps, err = cache.ListerFor[*corev1.ConfigMap](mgr.GetCache()); err != nil {
		return err
	}
	return builder.ControllerManagedBy(mgr).For(&Website{}).Owns(&corev1.ConfigMap{}).Complete(r)
}

// configMapName is the ConfigMap of a Website's page.
func configMapName(w *Website) string { return w.Name + "-html" }

// Reconcile is one turn of the control loop: read the Website and its
// ConfigMap from the cache, compute the difference with what the spec
// asks for, act on it, and report in status. It is level-triggered and
// idempotent: when everything matches it writes nothing.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	// 1. Read the current state.
	site, err := r.lister.Get(req.Namespace, req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil // deleted: the garbage collector removes its ConfigMap
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	cm, err := r.configMaps.Get(site.Namespace, configMapName(site))
	if err != nil && !apierrors.IsNotFound(err) {
		return reconcile.Result{}, err
	}
	current := "absent"
	if cm != nil && err == nil {
		current = "rv " + cm.ResourceVersion
	} else {
		cm = nil
	}
	tracing.Mark(ctx, r.component, hopRead, attribute.String("website", site.Name), tracing.KeyRV.String(site.ResourceVersion),
		attribute.String("configmap", configMapName(site)+" "+current))

	// 2. Compute the difference.
	want := map[string]string{"index.html": "<h1>" + html.EscapeString(site.Spec.Title) + "</h1>\n"}
	diff := "none"
	switch {
	case cm == nil:
		diff = "configmap missing"
	case !maps.Equal(cm.Data, want):
		diff = "page out of date"
	}
	tracing.Mark(ctx, r.component, hopDiff, attribute.String("difference", diff))

	// 3. Act on it.
	switch {
	case cm == nil:
		cm = &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: configMapName(site), Namespace: site.Namespace,
			OwnerReferences: []metav1.OwnerReference{controllerref.NewControllerRef(&site.ObjectMeta, websiteGVK)}}, Data: want}
		tracing.Mark(ctx, r.component, hopAct, attribute.String("action", "create configmap "+cm.Name))
		if cm, err = r.clientset.ConfigMaps(site.Namespace).Create(ctx, cm, client.WriteOptions{}); err != nil {
			// AlreadyExists too: the cache is behind; retry once it shows it.
			return reconcile.Result{}, fmt.Errorf("create configmap: %w", err)
		}
	case diff != "none":
		cm = cm.DeepCopy() // never change the cache's object
		cm.Data = want
		tracing.Mark(ctx, r.component, hopAct, attribute.String("action", "update configmap "+cm.Name))
		if cm, err = r.clientset.ConfigMaps(site.Namespace).Update(ctx, cm, client.WriteOptions{}); err != nil {
			return reconcile.Result{}, fmt.Errorf("update configmap: %w", err)
		}
	}

	// 4. Report what was observed, only when it changed.
	status := WebsiteStatus{ObservedGeneration: site.Generation, Phase: PhaseReady, ConfigMap: cm.Name}
	if site.Status == status {
		return reconcile.Result{}, nil
	}
	site = site.DeepCopy()
	site.Status = status
	if _, err := r.websites.Namespace(site.Namespace).UpdateStatus(ctx, site, client.WriteOptions{}); err != nil {
		return reconcile.Result{}, fmt.Errorf("update status: %w", err)
	}
	return reconcile.Result{}, nil
}
