package job

import (
	"context"
	"errors"
	"fmt"
	"log/slog"

	"github.com/minicp/minicp/api/apierrors"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/client/record"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/controllers/builder"
	"github.com/minicp/minicp/controllers/cache"
	"github.com/minicp/minicp/controllers/controller"
	"github.com/minicp/minicp/controllers/expectations"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/informer"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/wait"
)

// serviceAccountName is the identity the controller acts as, the
// ServiceAccount kube-system/job-controller under
// kube-controller-manager's --use-service-account-credentials.
const serviceAccountName = "job-controller"

// ControllerName is the job controller's name as a reporting component:
// the source of its Events.
const ControllerName = "job-controller"

// MaxConcurrentReconciles is how many Jobs are synced at once: the
// default of kube-controller-manager's --concurrent-job-syncs.
const MaxConcurrentReconciles = 5

// maxConflictRetries bounds the syncs of one Reconcile whose status write
// lost a race (409 Conflict) with a write the cache had not shown yet:
// each retry syncs again from a fresh read, as upstream's requeue would,
// without waiting for the rate limiter.
const maxConflictRetries = 3

// conflictRetry syncs again at once: the write that won the race has
// already landed, the fresh read sees it, and the rate limiter's backoff
// is for errors that take time to clear.
var conflictRetry = wait.Backoff{Steps: maxConflictRetries}

// controllerKind is the kind written into the pods' ownerReferences.
var controllerKind = batchv1.SchemeGroupVersion.WithKind("Job")

// Add sets the job controller up on mgr: a controller "job" that
// reconciles Jobs, woken by their pods, and a controller "job-orphan-pod"
// that removes the tracking finalizer from pods no running Job will count.
// It has the signature of controllermanager.AddFunc.
func Add(mgr *manager.Manager) error {
	c, err := New(mgr)
	if err != nil {
		return err
	}
	err = builder.ControllerManagedBy(mgr).
		Named("job").
		For(&batchv1.Job{}).
		Watches(&corev1.Pod{}, c.podHandler()).
		WithOptions(controller.Options{MaxConcurrentReconciles: MaxConcurrentReconciles}).
		Complete(c)
	if err != nil {
		return fmt.Errorf("job: %w", err)
	}
	orphans := &orphanPodReconciler{c: c}
	err = builder.ControllerManagedBy(mgr).
		Named("job-orphan-pod").
		Watches(&corev1.Pod{}, orphans.podHandler()).
		Watches(&batchv1.Job{}, orphans.jobHandler()).
		Complete(orphans)
	if err != nil {
		return fmt.Errorf("job: %w", err)
	}
	return nil
}

// Controller is the job controller's Reconciler: it runs a Job's pods
// until enough succeed, or too many fail, and keeps the Job's status
// (counts, conditions, start and completion times) in step. Make one
// with New; Add also registers it. Safe for concurrent use: Reconcile
// runs for several Jobs at once, never twice at once for one Job.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller).
type Controller struct {
	jobs     *informer.Lister[*batchv1.Job]
	pods     *informer.Lister[*corev1.Pod]
	cs       *client.Clientset
	recorder record.EventRecorder
	clock    clock.Clock
	log      *slog.Logger

	// expectations counts the pod creations and deletions of each Job
	// that its informer has not shown yet: until they are seen, a sync
	// does not create or delete pods, so a slow watch never makes it act
	// twice.
	expectations *expectations.Expectations
	// finalizerExpectations holds the pods whose tracking finalizer was
	// removed but whose update the informer has not shown yet, so they
	// are not counted twice.
	finalizerExpectations *uidTrackingExpectations
	// podBackoff keeps each Job's pod failure backoff between syncs.
	podBackoff *backoffStore
	// written holds the resourceVersion of each Job's last status write
	// (see Reconcile).
	written *writtenVersions
}

var _ reconcile.Reconciler = (*Controller)(nil)

// New returns the job controller of mgr, reading Jobs and pods through
// mgr's cache and writing through its client. It does not start anything.
func New(mgr *manager.Manager) (*Controller, error) {
	if mgr == nil {
		return nil, errors.New("job: nil manager")
	}
	jobs, err := cache.ListerFor[*batchv1.Job](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	pods, err := cache.ListerFor[*corev1.Pod](mgr.GetCache())
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	cl, err := mgr.GetClientFor(serviceAccountName)
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	cs, err := client.NewClientset(cl)
	if err != nil {
		return nil, fmt.Errorf("job: %w", err)
	}
	return &Controller{
		jobs:                  jobs,
		pods:                  pods,
		cs:                    cs,
		recorder:              mgr.GetEventRecorderFor(ControllerName),
		clock:                 mgr.GetClock(),
		log:                   mgr.GetLogger().With("component", ControllerName),
		expectations:          expectations.New(mgr.GetClock()),
		finalizerExpectations: newUIDTrackingExpectations(),
		podBackoff:            newBackoffStore(),
		written:               newWrittenVersions(),
	}, nil
}

// Reconcile syncs the Job req names. A Job that is gone has its
// bookkeeping forgotten.
//
// The Job is read from the cache, unless the cache does not show the
// status this controller wrote last: then it is read from the API server.
// A stale Job next to fresher pods would miscount: a pod whose finalizer
// the last sync removed after putting it in uncountedTerminatedPods is
// counted nowhere in a Job from before that sync, and the sync would
// replace it. (Upstream delays pod-triggered syncs by a second, which
// mostly hides the race; minicp syncs at once.) A status write that still
// conflicts is retried at once from a fresh read, a few times, then
// returned as an error, which retries with backoff.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.syncJob).
func (c *Controller) Reconcile(ctx context.Context, req reconcile.Request) (reconcile.Result, error) {
	key := req.String()
	job, err := c.jobs.ByNamespace(req.Namespace).Get(req.Name)
	if apierrors.IsNotFound(err) {
		c.forget(key)
		return reconcile.Result{}, nil
	}
	if err != nil {
		return reconcile.Result{}, err
	}
	if rv, ok := c.written.get(key); ok && rv != job.ResourceVersion {
		if job, err = c.getFresh(ctx, req); job == nil || err != nil {
			return reconcile.Result{}, err
		}
	}
	var res reconcile.Result
	reread := false
	err = client.RetryOnConflict(ctx, conflictRetry, func() error {
		if reread {
			fresh, err := c.getFresh(ctx, req)
			if fresh == nil || err != nil {
				res = reconcile.Result{}
				return err
			}
			job = fresh
		}
		reread = true
		var syncErr error
		res, syncErr = c.syncJob(ctx, key, job)
		if apierrors.IsConflict(syncErr) {
			logging.FromContext(ctx).DebugContext(ctx, "status conflict, syncing again from a fresh read", "err", syncErr)
		}
		return syncErr
	})
	return res, err
}

// getFresh reads the Job req names from the API server; nil without an
// error when it is gone (the informer's delete event comes next).
func (c *Controller) getFresh(ctx context.Context, req reconcile.Request) (*batchv1.Job, error) {
	job, err := c.cs.Jobs(req.Namespace).Get(ctx, req.Name, client.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return job, nil
}

// forget drops the bookkeeping of a Job that is gone.
func (c *Controller) forget(key string) {
	c.expectations.Delete(key)
	c.finalizerExpectations.deleteExpectations(key)
	c.podBackoff.remove(key)
	c.written.forget(key)
}

// resolveControllerRef returns the Job ref names in ns if it is still the
// same Job (same UID), else nil.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (Controller.resolveControllerRef).
func (c *Controller) resolveControllerRef(ns string, ref *metav1.OwnerReference) *batchv1.Job {
	if ref.Kind != controllerKind.Kind || runtime.ParseGroupVersion(ref.APIVersion).Group != controllerKind.Group {
		return nil
	}
	job, err := c.jobs.ByNamespace(ns).Get(ref.Name)
	if err != nil || job.UID != ref.UID {
		return nil
	}
	return job
}

// getPodJobs returns the Jobs of pod's namespace whose selector matches
// it: the candidates to adopt an orphan.
//
// Upstream: k8s.io/client-go/listers/batch/v1 (JobLister.GetPodJobs).
func (c *Controller) getPodJobs(pod *corev1.Pod) []*batchv1.Job {
	jobs, err := c.jobs.ByNamespace(pod.Namespace).List(nil)
	if err != nil {
		return nil
	}
	var out []*batchv1.Job
	for _, job := range jobs {
		selector, err := labels.FromLabelSelector(job.Spec.Selector)
		if err != nil || job.Spec.Selector == nil || selector.Empty() {
			continue
		}
		if selector.Matches(labels.Set(pod.Labels)) {
			out = append(out, job)
		}
	}
	if len(out) > 1 {
		c.log.Warn("more than one job selects a pod", "namespace", pod.Namespace, "pod", pod.Name)
	}
	return out
}

// jobKey is the Job's "namespace/name": the key of its expectations.
func jobKey(job *batchv1.Job) string {
	return job.Namespace + "/" + job.Name
}

// managedByExternalController returns spec.managedBy when it names
// another controller than the built-in one, which then leaves the Job
// alone.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (managedByExternalController).
func managedByExternalController(job *batchv1.Job) *string {
	if m := job.Spec.ManagedBy; m != nil && *m != batchv1.JobControllerName {
		return m
	}
	return nil
}

// withTypeMeta returns job with its kind set, as an Event's
// involvedObject needs it and objects from a list may lack it.
func withTypeMeta(job *batchv1.Job) *batchv1.Job {
	if job.Kind != "" {
		return job
	}
	cp := *job
	cp.APIVersion, cp.Kind = controllerKind.GroupVersion().String(), controllerKind.Kind
	return &cp
}
