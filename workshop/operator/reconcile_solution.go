//go:build solution

package operator

import (
	"context"
	"fmt"
	"slices"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/reconcile"
)

// Reconcile is one turn of the control loop for one Website: finalize a
// deleted one; otherwise promise the cleanup (the finalizer), publish,
// and report in status. It writes nothing when everything matches.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	websites := r.websites.Namespace(req.Namespace)
	w, err := websites.Get(ctx, req.Name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if w.DeletionTimestamp != nil {
		return reconcile.Result{}, r.finalize(ctx, w)
	}
	if !slices.Contains(w.Finalizers, Finalizer) {
		w.Finalizers = append(w.Finalizers, Finalizer)
		if w, err = websites.Update(ctx, w, client.WriteOptions{}); err != nil {
			return reconcile.Result{}, fmt.Errorf("add finalizer: %w", err)
		}
	}
	if err := r.publish(ctx, w); err != nil {
		return reconcile.Result{}, err
	}
	status := WebsiteStatus{ObservedGeneration: w.Generation, Phase: PhasePublished,
		PublishedAs: PublishNamespace + "/" + PublishedName(w)}
	if w.Status == status {
		return reconcile.Result{}, nil
	}
	w.Status = status
	if _, err := websites.UpdateStatus(ctx, w, client.WriteOptions{}); err != nil {
		return reconcile.Result{}, fmt.Errorf("update status: %w", err)
	}
	return reconcile.Result{}, nil
}

// publish makes w's ConfigMap hold its message.
func (r *Reconciler) publish(ctx context.Context, w *Website) error {
	cms := r.clientset.ConfigMaps(PublishNamespace)
	cm, err := cms.Get(ctx, PublishedName(w), client.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = cms.Create(ctx, &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: PublishedName(w)},
			Data:       map[string]string{MessageKey: w.Spec.Message},
		}, client.WriteOptions{})
		if err != nil {
			return fmt.Errorf("publish: %w", err)
		}
		return nil
	}
	if err != nil {
		return err
	}
	if cm.Data[MessageKey] == w.Spec.Message {
		return nil
	}
	if cm.Data == nil {
		cm.Data = map[string]string{}
	}
	cm.Data[MessageKey] = w.Spec.Message
	if _, err := cms.Update(ctx, cm, client.WriteOptions{}); err != nil {
		return fmt.Errorf("publish: %w", err)
	}
	return nil
}

// finalize unpublishes a deleted Website and removes its finalizer.
func (r *Reconciler) finalize(ctx context.Context, w *Website) error {
	if !slices.Contains(w.Finalizers, Finalizer) {
		return nil // done already; other finalizers hold it
	}
	err := r.clientset.ConfigMaps(PublishNamespace).Delete(ctx, PublishedName(w), metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("unpublish: %w", err)
	}
	w.Finalizers = slices.DeleteFunc(w.Finalizers, func(f string) bool { return f == Finalizer })
	_, err = r.websites.Namespace(w.Namespace).Update(ctx, w, client.WriteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("remove finalizer: %w", err)
	}
	return nil
}
