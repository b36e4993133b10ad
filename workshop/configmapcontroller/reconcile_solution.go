//go:build solution

package configmapcontroller

import (
	"context"
	"fmt"
	"strconv"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/controllers/controllerref"
	"github.com/minicp/minicp/controllers/reconcile"
)

// Reconcile makes the Deployment named like the ConfigMap req names match
// it: it creates the Deployment when absent, updates it when its replicas
// or image differ, and writes nothing when it already matches.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cm, err := r.clientset.ConfigMaps(req.Namespace).Get(ctx, req.Name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil // its Deployment goes with it: the ownerReference
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if cm.Labels[DeployLabel] != "true" {
		return reconcile.Result{}, nil
	}
	want, err := desiredDeployment(cm)
	if err != nil {
		return reconcile.Result{}, reconcile.TerminalError(err)
	}
	deployments := r.clientset.Deployments(cm.Namespace)
	current, err := deployments.Get(ctx, cm.Name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		_, err = deployments.Create(ctx, want, client.WriteOptions{})
		return reconcile.Result{}, err
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if ref := current.ControllerRef(); ref == nil || ref.UID != cm.UID {
		return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("deployment %s/%s exists and is not controlled by its ConfigMap", cm.Namespace, cm.Name))
	}
	replicas, image := *want.Spec.Replicas, want.Spec.Template.Spec.Containers[0].Image
	if current.Spec.Replicas != nil && *current.Spec.Replicas == replicas &&
		len(current.Spec.Template.Spec.Containers) == 1 && current.Spec.Template.Spec.Containers[0].Image == image {
		return reconcile.Result{}, nil // level reached: an idempotent reconcile writes nothing
	}
	updated := current.DeepCopy()
	updated.Spec.Replicas = &replicas
	updated.Spec.Template.Spec.Containers = want.Spec.Template.Spec.Containers
	// A Conflict (someone wrote in between) is returned: the controller
	// requeues, and the next Reconcile starts from the new state.
	_, err = deployments.Update(ctx, updated, client.WriteOptions{})
	return reconcile.Result{}, err
}

// desiredDeployment is the Deployment cm asks for.
func desiredDeployment(cm *corev1.ConfigMap) (*appsv1.Deployment, error) {
	image := cm.Data[ImageKey]
	if image == "" {
		return nil, fmt.Errorf("configmap %s/%s: no %q", cm.Namespace, cm.Name, ImageKey)
	}
	replicas := int32(1)
	if s, ok := cm.Data[ReplicasKey]; ok {
		n, err := strconv.ParseInt(s, 10, 32)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("configmap %s/%s: %s %q is not a replica count", cm.Namespace, cm.Name, ReplicasKey, s)
		}
		replicas = int32(n)
	}
	labels := map[string]string{AppLabel: cm.Name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{
			Name: cm.Name, Namespace: cm.Namespace, Labels: labels,
			OwnerReferences: []metav1.OwnerReference{
				controllerref.NewControllerRef(&cm.ObjectMeta, corev1.SchemeGroupVersion.WithKind("ConfigMap")),
			},
		},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: image}}},
			},
		},
	}, nil
}
