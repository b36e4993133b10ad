package main

import (
	"context"
	"fmt"
	"reflect"
	"slices"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
)

// operatorName names the operator in its events and in the
// app.kubernetes.io/managed-by label of what it creates.
const operatorName = "database-operator"

// finalizer keeps a deleted Database until the operator has cleaned up
// after it: the API server only sets its deletionTimestamp while the
// finalizer is there.
const finalizer = "databases.example.com/cleanup"

// Add adds the Database controller to mgr (see SetupWithManager).
func Add(mgr *manager.Manager) error {
	r, err := NewReconciler(mgr)
	if err != nil {
		return err
	}
	return r.SetupWithManager(mgr)
}

// Reconciler makes a Database's world match its spec. It reads from the
// manager's cache and writes through the API server. It is safe for
// concurrent use; the controller never runs two reconciles of one
// Database at once.
type Reconciler struct {
	databases   *client.Resource[*Database, *DatabaseList]
	clientset   *client.Clientset
	dbLister    *informer.Lister[*Database]
	deployments *informer.Lister[*appsv1.Deployment]
	services    *informer.Lister[*corev1.Service]
	secrets     *informer.Lister[*corev1.Secret]
	recorder    record.EventRecorder
	clock       clock.Clock
}

var _ reconcile.Reconciler = (*Reconciler)(nil)

// NewReconciler returns a Reconciler over mgr's client, whose scheme must
// hold the Database types (AddToScheme), and mgr's cache.
func NewReconciler(mgr *manager.Manager) (*Reconciler, error) {
	r := &Reconciler{recorder: mgr.GetEventRecorderFor(operatorName), clock: mgr.GetClock()}
	var err error
	if r.databases, err = client.NewResource[*Database, *DatabaseList](mgr.GetClient(), databasesGVR); err != nil {
		return nil, fmt.Errorf("database operator: %w", err)
	}
	if r.clientset, err = client.NewClientset(mgr.GetClient()); err != nil {
		return nil, fmt.Errorf("database operator: %w", err)
	}
	c := mgr.GetCache()
	r.dbLister, err = cache.ListerFor[*Database](c)
	if err == nil {
		r.deployments, err = cache.ListerFor[*appsv1.Deployment](c)
	}
	if err == nil {
		r.services, err = cache.ListerFor[*corev1.Service](c)
	}
	if err == nil {
		r.secrets, err = cache.ListerFor[*corev1.Secret](c)
	}
	if err != nil {
		return nil, fmt.Errorf("database operator: %w", err)
	}
	return r, nil
}

// SetupWithManager adds r to mgr as a controller that reconciles a
// Database when it changes (For) and when a Deployment, Service or Secret
// it controls changes (Owns, through the controller ownerReference): a
// child deleted by hand, or a Deployment whose pods become ready, brings
// its Database back to the queue.
func (r *Reconciler) SetupWithManager(mgr *manager.Manager) error {
	return builder.ControllerManagedBy(mgr).
		For(&Database{}).
		Owns(&appsv1.Deployment{}).
		Owns(&corev1.Service{}).
		Owns(&corev1.Secret{}).
		Complete(r)
}

// Reconcile is one turn of the control loop for one Database: read it,
// compare what exists with what its spec asks for, act, report in status.
// It is level-triggered and idempotent: it does not know which event
// brought it here, and when everything already matches it writes nothing.
func (r *Reconciler) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	db, err := r.dbLister.Get(req.Namespace, req.Name)
	switch {
	case apierrors.IsNotFound(err):
		return reconcile.Result{}, nil // gone: the garbage collector deletes what it owned
	case err != nil:
		return reconcile.Result{}, err
	case db.DeletionTimestamp != nil:
		return reconcile.Result{}, r.finalize(ctx, db)
	}
	if _, ok := engines[db.Spec.Engine]; !ok {
		// The webhook keeps such Databases out; one stored before it was
		// registered cannot be fixed by retrying.
		return reconcile.Result{}, reconcile.TerminalError(fmt.Errorf("database %s/%s: unknown engine %q", db.Namespace, db.Name, db.Spec.Engine))
	}
	if !slices.Contains(db.Finalizers, finalizer) {
		// First, so that no child exists before the cleanup is promised.
		db = db.DeepCopy()
		db.Finalizers = append(db.Finalizers, finalizer)
		if db, err = r.databases.Namespace(db.Namespace).Update(ctx, db, client.WriteOptions{}); err != nil {
			return reconcile.Result{}, fmt.Errorf("add finalizer: %w", err)
		}
	}
	if err := r.ensureSecret(ctx, db); err != nil {
		return reconcile.Result{}, err
	}
	deploy, err := createOrUpdate(ctx, r, db, r.deployments, r.clientset.Deployments(db.Namespace),
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: db.Name, Namespace: db.Namespace}},
		func(d *appsv1.Deployment) error { return mutateDeployment(d, db) })
	if err != nil {
		return reconcile.Result{}, err
	}
	svc, err := createOrUpdate(ctx, r, db, r.services, r.clientset.Services(db.Namespace),
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: db.Name, Namespace: db.Namespace}},
		func(s *corev1.Service) error { return mutateService(s, db) })
	if err != nil {
		return reconcile.Result{}, err
	}
	return reconcile.Result{}, r.updateStatus(ctx, db, deploy, svc)
}

// ensureSecret creates db's Secret of credentials if it does not exist,
// and otherwise leaves it alone: the password is generated once.
func (r *Reconciler) ensureSecret(ctx context.Context, db *Database) error {
	_, err := r.secrets.Get(db.Namespace, secretName(db))
	if !apierrors.IsNotFound(err) {
		return err // nil: it exists, and is never regenerated
	}
	secret, err := r.clientset.Secrets(db.Namespace).Create(ctx, newSecret(db), client.WriteOptions{})
	switch {
	case apierrors.IsAlreadyExists(err):
		return nil // created by an earlier reconcile the cache has not shown yet
	case err != nil:
		return fmt.Errorf("create secret: %w", err)
	}
	r.recorder.Eventf(db, corev1.EventTypeNormal, "Created", "created Secret %s", secret.Name)
	return nil
}

// createOrUpdate makes the object named like obj match what mutate sets.
// It reads the object from the cache, applies mutate to a copy, and
// writes only if that changed something: creating it when absent,
// updating it when different, and leaving it alone otherwise. It returns
// the object as stored.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/controller/controllerutil
// (CreateOrUpdate).
func createOrUpdate[T metav1.Object, L metav1.ListInterface](ctx context.Context, r *Reconciler, db *Database,
	lister *informer.Lister[T], api *client.Resource[T, L], obj T, mutate func(T) error) (T, error) {
	kind := reflect.TypeFor[T]().Elem().Name()
	meta := obj.GetObjectMeta()
	current, err := lister.Get(meta.Namespace, meta.Name)
	if apierrors.IsNotFound(err) {
		if err := mutate(obj); err != nil {
			return obj, reconcile.TerminalError(err)
		}
		created, err := api.Create(ctx, obj, client.WriteOptions{})
		if err != nil {
			// AlreadyExists too: the cache is behind; retry once it shows it.
			return obj, fmt.Errorf("create %s: %w", kind, err)
		}
		r.recorder.Eventf(db, corev1.EventTypeNormal, "Created", "created %s %s", kind, meta.Name)
		return created, nil
	}
	if err != nil {
		return obj, err
	}
	// Never change the cache's object: mutate a copy.
	want := current.DeepCopyObject().(T)
	if err := mutate(want); err != nil {
		return obj, reconcile.TerminalError(err)
	}
	if reflect.DeepEqual(current, want) {
		return current, nil
	}
	updated, err := api.Update(ctx, want, client.WriteOptions{})
	if err != nil {
		return obj, fmt.Errorf("update %s: %w", kind, err)
	}
	r.recorder.Eventf(db, corev1.EventTypeNormal, "Updated", "updated %s %s", kind, meta.Name)
	return updated, nil
}

// updateStatus reports what the children show: the endpoint, the ready
// replicas, the phase and the Ready condition. It writes only when that
// differs from the stored status.
func (r *Reconciler) updateStatus(ctx context.Context, db *Database, deploy *appsv1.Deployment, svc *corev1.Service) error {
	status := DatabaseStatus{
		ObservedGeneration: db.Generation,
		Endpoint:           endpoint(svc),
		ReadyReplicas:      deploy.Status.ReadyReplicas,
		CredentialsSecret:  secretName(db),
		Conditions:         slices.Clone(db.Status.Conditions),
	}
	ready := metav1.Condition{Type: ConditionReady, ObservedGeneration: db.Generation,
		Message: fmt.Sprintf("%d/%d replicas ready", deploy.Status.ReadyReplicas, db.Spec.Replicas)}
	if rolledOut(deploy, db.Spec.Replicas) {
		status.Phase, ready.Status, ready.Reason = PhaseReady, metav1.ConditionTrue, "DeploymentReady"
	} else {
		status.Phase, ready.Status, ready.Reason = PhaseProvisioning, metav1.ConditionFalse, "WaitingForReplicas"
	}
	setCondition(&status.Conditions, ready, r.clock.Now())
	if reflect.DeepEqual(db.Status, status) {
		return nil
	}
	db = db.DeepCopy()
	db.Status = status
	if _, err := r.databases.Namespace(db.Namespace).UpdateStatus(ctx, db, client.WriteOptions{}); err != nil {
		return fmt.Errorf("update status: %w", err)
	}
	return nil
}

// rolledOut reports whether the Deployment's controller has seen its
// latest spec and runs exactly replicas pods, all of them ready.
func rolledOut(d *appsv1.Deployment, replicas int32) bool {
	s := d.Status
	return s.ObservedGeneration >= d.Generation && s.Replicas == replicas &&
		s.UpdatedReplicas == replicas && s.ReadyReplicas == replicas
}

// finalize is the cleanup a deleted Database waits for: the operator
// deletes the Secret itself, so that credentials do not outlive the
// database even for as long as the garbage collector takes, records an
// event, and removes its finalizer; the API server then deletes the
// Database, and the garbage collector its Deployment and Service.
func (r *Reconciler) finalize(ctx context.Context, db *Database) error {
	if !slices.Contains(db.Finalizers, finalizer) {
		return nil // cleaned up already: other finalizers hold it
	}
	err := r.clientset.Secrets(db.Namespace).Delete(ctx, secretName(db), metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("cleanup: delete secret: %w", err)
	}
	r.recorder.Eventf(db, corev1.EventTypeNormal, "CleanedUp", "deleted Secret %s before the Database goes", secretName(db))
	db = db.DeepCopy()
	db.Finalizers = slices.DeleteFunc(db.Finalizers, func(f string) bool { return f == finalizer })
	_, err = r.databases.Namespace(db.Namespace).Update(ctx, db, client.WriteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("cleanup: remove finalizer: %w", err)
	}
	return nil
}

// setCondition sets c in conditions, replacing the one of its type. Its
// lastTransitionTime is now when its status changed, and the old one
// otherwise, so that a reconcile that finds nothing new changes nothing.
//
// Upstream: k8s.io/apimachinery/pkg/api/meta (SetStatusCondition).
func setCondition(conditions *[]metav1.Condition, c metav1.Condition, now time.Time) {
	for i, old := range *conditions {
		if old.Type != c.Type {
			continue
		}
		c.LastTransitionTime = old.LastTransitionTime
		if old.Status != c.Status {
			c.LastTransitionTime = metav1.NewTime(now)
		}
		(*conditions)[i] = c
		return
	}
	c.LastTransitionTime = metav1.NewTime(now)
	*conditions = append(*conditions, c)
}
