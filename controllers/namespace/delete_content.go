package namespace

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/logging"
)

// finalizerEstimateSeconds is how long to wait, as upstream, before
// looking again at content held only by finalizers: their controllers
// (the garbage collector, an operator) usually finish within it.
const finalizerEstimateSeconds int64 = 15

// podsGVR is the resource deleted first, and the only one whose deletion
// has a grace period to estimate.
var podsGVR = corev1.SchemeGroupVersion.WithResource("pods")

// genericResource is the client of any resource, its objects decoded into
// their Go types.
type genericResource = client.Resource[metav1.Object, metav1.ListInterface]

// gvrDeletionMetadata is what deleting one resource's content left.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (gvrDeletionMetadata).
type gvrDeletionMetadata struct {
	// finalizerEstimateSeconds is how much longer to wait; 0 means no
	// estimate, not that everything is gone.
	finalizerEstimateSeconds int64
	// numRemaining is how many objects remain.
	numRemaining int
	// finalizersToNumRemaining counts the remaining objects per finalizer
	// they wait on.
	finalizersToNumRemaining map[string]int
}

// allGVRDeletionMetadata is what deleting a namespace's content left,
// over every resource.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (allGVRDeletionMetadata).
type allGVRDeletionMetadata struct {
	gvrToNumRemaining        map[runtime.GroupVersionResource]int
	finalizersToNumRemaining map[string]int
}

// add counts what deleting gvr's content left.
func (a *allGVRDeletionMetadata) add(gvr runtime.GroupVersionResource, md gvrDeletionMetadata) {
	if md.numRemaining == 0 {
		return
	}
	a.gvrToNumRemaining[gvr] = md.numRemaining
	for finalizer, n := range md.finalizersToNumRemaining {
		a.finalizersToNumRemaining[finalizer] += n
	}
}

// deletableResources returns the clients of the namespaced resources
// the API server serves with the delete verb, found through discovery at
// every call, so that custom resources installed at run time are cleaned
// up too. A resource the client's scheme does not know (a custom
// resource) is registered in it as unstructured: the deleter reads only
// metadata. When some group versions could not be discovered, the
// resources of the others are returned with the error.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.discoverResourcesFn, which the controller
// sets to discovery's ServerPreferredNamespacedResources; the deleter then
// keeps the resources with the delete verb). Upstream reads metadata
// through the metadata client instead of registering kinds.
func (d *namespacedResourcesDeleter) deletableResources(ctx context.Context) ([]*genericResource, error) {
	infos, err := d.discovery.ServerPreferredResources(ctx)
	var partial *client.GroupDiscoveryFailedError
	if err != nil && !errors.As(err, &partial) {
		return nil, err
	}
	errs := []error{err}
	var out []*genericResource
	for _, info := range infos {
		if !info.Namespaced || !info.HasVerb("delete") {
			continue
		}
		if err := client.AddUnstructuredResource(d.client.Scheme(), info); err != nil {
			errs = append(errs, err)
			continue
		}
		r, err := client.NewResource[metav1.Object, metav1.ListInterface](d.client, info.GVR)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		out = append(out, r)
	}
	return out, errors.Join(errs...)
}

// deleteAllContent deletes the content of every deletable resource in ns,
// pods first: until the pods are gone, nothing else is deleted. It
// records the outcome in ns's status conditions and returns an estimate,
// in seconds, of how long the remaining content takes to go; if it is
// positive, content remains. Errors of single resources do not stop the
// others; they are joined.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.deleteAllContent), with
// OrderedNamespaceDeletion on.
func (d *namespacedResourcesDeleter) deleteAllContent(ctx context.Context, ns *corev1.Namespace) (int64, error) {
	deletedAt := *ns.DeletionTimestamp
	updater := newConditionUpdater(metav1.NewTime(d.clock.Now()))
	var errs []error
	resources, err := d.deletableResources(ctx)
	if err != nil {
		// Not fatal: the resources that were found are still cleaned up.
		errs = append(errs, err)
		updater.processDiscoverResourcesErr(err)
	}
	totals := allGVRDeletionMetadata{
		gvrToNumRemaining:        map[runtime.GroupVersionResource]int{},
		finalizersToNumRemaining: map[string]int{},
	}
	estimate := int64(0)
	deleteResource := func(r *genericResource) {
		md, err := d.deleteAllContentForGroupVersionResource(ctx, r, ns.Name, deletedAt)
		if err != nil {
			errs = append(errs, err)
			updater.processDeleteContentErr(err)
		}
		estimate = max(estimate, md.finalizerEstimateSeconds)
		totals.add(r.Info().GVR, md)
	}

	// Pods first, so that no pod runs on without the secrets, configmaps
	// and service accounts it uses.
	for _, r := range resources {
		if r.Info().GVR == podsGVR {
			deleteResource(r)
		}
	}
	if totals.gvrToNumRemaining[podsGVR] == 0 {
		for _, r := range resources {
			if r.Info().GVR != podsGVR {
				deleteResource(r)
			}
		}
	}
	// Upstream reports the totals only once past the pods; reporting them
	// while pods remain too shows what the namespace waits for.
	updater.processContentTotals(totals)
	d.updateConditions(ctx, ns, updater)
	return estimate, errors.Join(errs...)
}

// updateConditions writes ns's conditions as updater computed them, if
// they changed, and keeps ns in step with what was written. A failed
// write is only logged, as upstream: the conditions report progress, and
// the next pass writes them again.
func (d *namespacedResourcesDeleter) updateConditions(ctx context.Context, ns *corev1.Namespace, updater *namespaceConditionUpdater) {
	if !updater.update(ns) {
		return
	}
	out, err := d.namespaces.UpdateStatus(ctx, ns, client.WriteOptions{})
	if err != nil {
		logging.FromContext(ctx).WarnContext(ctx, "update namespace conditions failed", "namespace", ns.Name, "err", err)
		return
	}
	*ns = *out
}

// deleteAllContentForGroupVersionResource deletes r's objects in ns and
// says what remains. Remaining objects are expected while a grace period
// runs (the estimate) or when they wait on finalizers; otherwise they are
// an error.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.deleteAllContentForGroupVersionResource).
func (d *namespacedResourcesDeleter) deleteAllContentForGroupVersionResource(ctx context.Context, r *genericResource, ns string, deletedAt metav1.Time) (gvrDeletionMetadata, error) {
	gvr := r.Info().GVR
	estimate, err := d.estimateGracefulTermination(ctx, gvr, ns, deletedAt)
	if err != nil {
		return gvrDeletionMetadata{}, err
	}
	supported, err := d.deleteCollection(ctx, r, ns)
	if err != nil {
		return gvrDeletionMetadata{finalizerEstimateSeconds: estimate}, err
	}
	if !supported {
		if err := d.deleteEachItem(ctx, r, ns); err != nil {
			return gvrDeletionMetadata{finalizerEstimateSeconds: estimate}, err
		}
	}
	// What is left: fine while a grace period runs or finalizers hold it.
	items, listSupported, err := d.listCollection(ctx, r, ns)
	if err != nil {
		return gvrDeletionMetadata{finalizerEstimateSeconds: estimate}, err
	}
	if !listSupported {
		return gvrDeletionMetadata{finalizerEstimateSeconds: estimate}, nil
	}
	if len(items) == 0 {
		return gvrDeletionMetadata{}, nil
	}
	finalizers := map[string]int{}
	for _, item := range items {
		for _, f := range item.GetObjectMeta().Finalizers {
			finalizers[f]++
		}
	}
	md := gvrDeletionMetadata{finalizerEstimateSeconds: estimate, numRemaining: len(items), finalizersToNumRemaining: finalizers}
	switch {
	case estimate != 0:
		return md, nil
	case len(finalizers) > 0:
		md.finalizerEstimateSeconds = finalizerEstimateSeconds
		return md, nil
	}
	md.finalizersToNumRemaining = nil
	return md, fmt.Errorf("unexpected items still remain in namespace: %s for gvr: %v", ns, gvr)
}

// deleteCollection deletes r's objects in ns with one DeleteCollection.
// It reports false when r has no deletecollection, so the caller deletes
// each object instead, and an error only when a supported call failed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.deleteCollection).
func (d *namespacedResourcesDeleter) deleteCollection(ctx context.Context, r *genericResource, ns string) (bool, error) {
	if !r.Info().HasVerb("deletecollection") {
		return false, nil
	}
	err := r.Namespace(ns).DeleteCollection(ctx, backgroundDeletion(), client.ListOptions{})
	if err == nil {
		return true, nil
	}
	// A resource discovery listed but the server no longer serves (a CRD
	// deleted since), or not with this verb: fall back to deleting each
	// object, as upstream.
	if apierrors.IsMethodNotSupported(err) || apierrors.IsNotFound(err) {
		return false, nil
	}
	return true, fmt.Errorf("deletecollection %s in %s: %w", r.Info().GVR.Resource, ns, err)
}

// listCollection lists r's objects in ns. It reports false when r cannot
// be listed, and an error only when a supported list failed.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.listCollection).
func (d *namespacedResourcesDeleter) listCollection(ctx context.Context, r *genericResource, ns string) ([]metav1.Object, bool, error) {
	if !r.Info().HasVerb("list") {
		return nil, false, nil
	}
	list, err := r.Namespace(ns).List(ctx, client.ListOptions{})
	if apierrors.IsMethodNotSupported(err) || apierrors.IsNotFound(err) {
		return nil, false, nil
	}
	if err != nil {
		return nil, true, fmt.Errorf("list %s in %s: %w", r.Info().GVR.Resource, ns, err)
	}
	items, err := runtime.ListItems(list)
	if err != nil {
		return nil, true, fmt.Errorf("list %s in %s: %w", r.Info().GVR.Resource, ns, err)
	}
	out := make([]metav1.Object, 0, len(items))
	for _, item := range items {
		obj, ok := item.(metav1.Object)
		if !ok {
			return nil, true, fmt.Errorf("list %s in %s: item %T has no metadata", r.Info().GVR.Resource, ns, item)
		}
		out = append(out, obj)
	}
	return out, true, nil
}

// deleteEachItem lists r's objects in ns and deletes them one by one.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.deleteEachItem).
func (d *namespacedResourcesDeleter) deleteEachItem(ctx context.Context, r *genericResource, ns string) error {
	items, listSupported, err := d.listCollection(ctx, r, ns)
	if err != nil || !listSupported {
		return err
	}
	for _, item := range items {
		name := item.GetObjectMeta().Name
		err := r.Namespace(ns).Delete(ctx, name, backgroundDeletion())
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsMethodNotSupported(err) {
			return fmt.Errorf("delete %s %s/%s: %w", r.Info().GVR.Resource, ns, name, err)
		}
	}
	return nil
}

// backgroundDeletion is the options of every delete: dependents are
// deleted by the garbage collector afterwards, never orphaned, since the
// namespace's content must all go.
func backgroundDeletion() metav1.DeleteOptions {
	background := metav1.DeletePropagationBackground
	return metav1.DeleteOptions{PropagationPolicy: &background}
}

// estimateGracefulTermination estimates, in seconds, how long gvr's
// objects in ns take to go after their deletion: for pods, the longest
// grace period of a pod still running. An estimate the time since the
// namespace's deletion already exceeds is 0: the pods should be gone.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespacedResourcesDeleter.estimateGracefulTermination and
// estimateGracefulTerminationForPods).
func (d *namespacedResourcesDeleter) estimateGracefulTermination(ctx context.Context, gvr runtime.GroupVersionResource, ns string, deletedAt metav1.Time) (int64, error) {
	if gvr.GroupResource() != podsGVR.GroupResource() {
		return 0, nil
	}
	pods, err := d.clientset.Pods(ns).List(ctx, client.ListOptions{})
	if err != nil {
		return 0, fmt.Errorf("estimate graceful termination of pods in %s: %w", ns, err)
	}
	estimate := int64(0)
	for i := range pods.Items {
		pod := &pods.Items[i]
		if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
			continue // terminal pods go at once
		}
		// The API server defaults the grace period; a pod stored without
		// one gets the default from the kubelet, so count that.
		grace := int64(corev1.DefaultTerminationGracePeriodSeconds)
		if pod.Spec.TerminationGracePeriodSeconds != nil {
			grace = *pod.Spec.TerminationGracePeriodSeconds
		}
		estimate = max(estimate, grace)
	}
	if d.clock.Since(deletedAt.Time) >= time.Duration(estimate)*time.Second {
		return 0, nil
	}
	return estimate, nil
}
