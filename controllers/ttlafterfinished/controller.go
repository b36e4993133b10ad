package ttlafterfinished

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/job"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/ttl-after-finished-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "ttl-after-finished-controller"

// MaxConcurrentReconciles is how many Jobs are checked at once: the
// default of kube-controller-manager's --concurrent-ttl-after-finished-syncs.
const MaxConcurrentReconciles = 5

// Add sets the TTL-after-finished controller up on mgr: a controller
// "ttl-after-finished" that reconciles Jobs. It has the signature of
// controllermanager.AddFunc.
func Add(mgr *manager.Manager) error {
	c, err := New(mgr)
	if err != nil {
		return err
	}
	err = builder.ControllerManagedBy(mgr).
		Named("ttl-after-finished").
		For(&batchv1.Job{}).
		WithOptions(controller.Options{MaxConcurrentReconciles: MaxConcurrentReconciles}).
		Complete(c)
	if err != nil {
		return fmt.Errorf("ttlafterfinished: %w", err)
	}
	return nil
}

// Controller is the TTL-after-finished controller's Reconciler. Make one
// with New; Add also registers it. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/ttlafterfinished (Controller).
type Controller struct {
	jobs  *informer.Lister[*batchv1.Job]
	cs    *client.Clientset
	clock clock.Clock
}

var _ reconcile.Reconciler = (*Controller)(nil)

// New returns the controller of mgr, reading Jobs through mgr's cache,
// deleting through its client, with mgr's clock. It starts nothing.
func New(mgr *manager.Manager) (*Controller, error) {
	if mgr == nil {
		return nil, errors.New("ttlafterfinished: nil manager")
	}
	jobs, err := cache.ListerFor[*batchv1.Job](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("ttlafterfinished: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("ttlafterfinished: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, fmt.Errorf("ttlafterfinished: %w", err)
	}
	return &Controller{jobs: jobs, cs: cs, clock: mgr.GetClock()}, nil
}

// Reconcile deletes the Job req names if it finished and its TTL has
// expired; if the TTL expires later, it asks to run again then. The
// cached Job decides whether to look closer; a fresh read from the API
// server decides whether to delete, as the TTL may have changed since.
//
// Upstream: k8s.io/kubernetes/pkg/controller/ttlafterfinished
// (Controller.processJob).
func (c *Controller) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	cached, err := c.jobs.ByNamespace(req.Namespace).Get(req.Name)
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if left, err := c.timeLeft(ctx, cached); err != nil || left > 0 {
		return requeueAfter(left), err
	} else if left < 0 {
		return reconcile.Result{}, nil // nothing to clean up
	}

	fresh, err := c.cs.Jobs(req.Namespace).Get(ctx, req.Name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if left, err := c.timeLeft(ctx, fresh); err != nil || left != 0 {
		return requeueAfter(left), err
	}
	// Foreground: the Job goes once its pods are gone, as upstream asks.
	// The UID precondition spares a Job recreated under the same name.
	policy := metav1.DeletePropagationForeground
	uid := fresh.UID
	err = c.cs.Jobs(req.Namespace).Delete(ctx, req.Name, metav1.DeleteOptions{
		PropagationPolicy: &policy,
		Preconditions:     &metav1.Preconditions{UID: &uid},
	})
	if apierrors.IsNotFound(err) {
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, fmt.Errorf("delete job %s: %w", req, err)
	}
	logging.FromContext(ctx).DebugContext(ctx, "deleted finished job after its TTL", "uid", uid)
	return reconcile.Result{}, nil
}

// requeueAfter asks for another look after left, when that is positive.
func requeueAfter(left time.Duration) reconcile.Result {
	if left > 0 {
		return reconcile.Result{RequeueAfter: left}
	}
	return reconcile.Result{}
}

// timeLeft returns how long job has before its TTL expires: 0 when it has
// expired, and -1 when job is not to be cleaned up (no TTL, not finished,
// or already being deleted). An error means the Job says it finished but
// not when: a status nobody can act on until it changes, hence terminal.
//
// Upstream: k8s.io/kubernetes/pkg/controller/ttlafterfinished
// (Controller.processTTL, timeLeft).
func (c *Controller) timeLeft(ctx context.Context, j *batchv1.Job) (time.Duration, error) {
	if j.DeletionTimestamp != nil || !needsCleanup(j) {
		return -1, nil
	}
	finishAt, err := jobFinishTime(j)
	if err != nil {
		return -1, reconcile.TerminalError(err)
	}
	now := c.clock.Now()
	if finishAt.After(now) {
		logging.FromContext(ctx).WarnContext(ctx, "job finished in the future, clock skew? cleanup deferred",
			"finished", finishAt.UTC())
	}
	left := finishAt.Add(time.Duration(*j.Spec.TTLSecondsAfterFinished) * time.Second).Sub(now)
	return max(left, 0), nil
}

// needsCleanup reports whether j has finished and has a TTL.
//
// Upstream: k8s.io/kubernetes/pkg/controller/ttlafterfinished (needsCleanup).
func needsCleanup(j *batchv1.Job) bool {
	return j.Spec.TTLSecondsAfterFinished != nil && job.IsJobFinished(j)
}

// jobFinishTime is when j finished: the lastTransitionTime of its True
// Complete or Failed condition.
//
// Upstream: k8s.io/kubernetes/pkg/controller/ttlafterfinished (jobFinishTime).
func jobFinishTime(j *batchv1.Job) (time.Time, error) {
	for _, c := range j.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			if c.LastTransitionTime.IsZero() {
				return time.Time{}, fmt.Errorf("unable to find the time when the Job %s/%s finished", j.Namespace, j.Name)
			}
			return c.LastTransitionTime.Time, nil
		}
	}
	// needsCleanup said it finished: unreachable.
	return time.Time{}, fmt.Errorf("unable to find the status of the finished Job %s/%s", j.Namespace, j.Name)
}
