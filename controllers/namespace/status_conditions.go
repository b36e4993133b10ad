package namespace

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

// conditionTypes are the namespace conditions the controller maintains.
// Every one is always present while a namespace terminates: True with the
// problem, or False with its "ok" reason and message.
//
// NamespaceDeletionGroupVersionParsingFailure reports discovery documents
// whose groupVersion does not parse. minicp's discovery client builds
// group versions from a group's name and version fields and never parses
// a groupVersion string, so it is always False here; it is kept so
// clients reading the conditions see what upstream shows.
var conditionTypes = []corev1.NamespaceConditionType{
	corev1.NamespaceDeletionDiscoveryFailure,
	corev1.NamespaceDeletionGVParsingFailure,
	corev1.NamespaceDeletionContentFailure,
	corev1.NamespaceContentRemaining,
	corev1.NamespaceFinalizersRemaining,
}

// okReasons and okMessages are the False variants of the conditions, as
// upstream words them.
var (
	okReasons = map[corev1.NamespaceConditionType]string{
		corev1.NamespaceDeletionDiscoveryFailure: "ResourcesDiscovered",
		corev1.NamespaceDeletionGVParsingFailure: "ParsedGroupVersions",
		corev1.NamespaceDeletionContentFailure:   "ContentDeleted",
		corev1.NamespaceContentRemaining:         "ContentRemoved",
		corev1.NamespaceFinalizersRemaining:      "ContentRemoved",
	}
	okMessages = map[corev1.NamespaceConditionType]string{
		corev1.NamespaceDeletionDiscoveryFailure: "All resources successfully discovered",
		corev1.NamespaceDeletionGVParsingFailure: "All legacy kube types successfully parsed",
		corev1.NamespaceDeletionContentFailure:   "All content successfully deleted, may be waiting on finalization",
		corev1.NamespaceContentRemaining:         "All content successfully removed",
		corev1.NamespaceFinalizersRemaining:      "All content successfully removed",
	}
)

// namespaceConditionUpdater collects what one deletion pass found and
// turns it into status conditions. Use it for one pass only.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespaceConditionUpdater).
type namespaceConditionUpdater struct {
	// now stamps the conditions that change status.
	now                 metav1.Time
	newConditions       []corev1.NamespaceCondition
	deleteContentErrors []error
}

// newConditionUpdater returns an updater that stamps changes with now.
func newConditionUpdater(now metav1.Time) *namespaceConditionUpdater {
	return &namespaceConditionUpdater{now: now}
}

// processDiscoverResourcesErr records that some resources could not be
// discovered.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespaceConditionUpdater.ProcessDiscoverResourcesErr).
func (u *namespaceConditionUpdater) processDiscoverResourcesErr(err error) {
	msg := err.Error()
	var partial *client.GroupDiscoveryFailedError
	if errors.As(err, &partial) {
		msg = fmt.Sprintf("Discovery failed for some groups, %d failing: %v", len(partial.Groups), err)
	}
	u.newConditions = append(u.newConditions, corev1.NamespaceCondition{
		Type:               corev1.NamespaceDeletionDiscoveryFailure,
		Status:             corev1.ConditionTrue,
		LastTransitionTime: u.now,
		Reason:             "DiscoveryFailed",
		Message:            msg,
	})
}

// processDeleteContentErr records that deleting one resource's content
// failed.
func (u *namespaceConditionUpdater) processDeleteContentErr(err error) {
	u.deleteContentErrors = append(u.deleteContentErrors, err)
}

// processContentTotals records what content remains, per resource and
// per finalizer it waits on. Messages are sorted so that the same state
// always writes the same conditions.
func (u *namespaceConditionUpdater) processContentTotals(totals allGVRDeletionMetadata) {
	var resources []string
	for gvr, n := range totals.gvrToNumRemaining {
		if n > 0 {
			resources = append(resources, fmt.Sprintf("%s.%s has %d resource instances", gvr.Resource, gvr.Group, n))
		}
	}
	if len(resources) > 0 {
		slices.Sort(resources)
		u.newConditions = append(u.newConditions, corev1.NamespaceCondition{
			Type:               corev1.NamespaceContentRemaining,
			Status:             corev1.ConditionTrue,
			LastTransitionTime: u.now,
			Reason:             "SomeResourcesRemain",
			Message:            "Some resources are remaining: " + strings.Join(resources, ", "),
		})
	}
	var finalizers []string
	for finalizer, n := range totals.finalizersToNumRemaining {
		if n > 0 {
			finalizers = append(finalizers, fmt.Sprintf("%s in %d resource instances", finalizer, n))
		}
	}
	if len(finalizers) > 0 {
		slices.Sort(finalizers)
		u.newConditions = append(u.newConditions, corev1.NamespaceCondition{
			Type:               corev1.NamespaceFinalizersRemaining,
			Status:             corev1.ConditionTrue,
			LastTransitionTime: u.now,
			Reason:             "SomeFinalizerRemain",
			Message:            "Some finalizers are remaining: " + strings.Join(finalizers, ", "),
		})
	}
}

// update sets ns's conditions to what was recorded (the ok variant of
// every condition nothing was recorded for) and reports whether any
// changed. It modifies ns.
//
// Upstream: k8s.io/kubernetes/pkg/controller/namespace/deletion
// (namespaceConditionUpdater.Update).
func (u *namespaceConditionUpdater) update(ns *corev1.Namespace) bool {
	if getCondition(u.newConditions, corev1.NamespaceDeletionContentFailure) == nil && len(u.deleteContentErrors) > 0 {
		msgs := make([]string, 0, len(u.deleteContentErrors))
		for _, err := range u.deleteContentErrors {
			msgs = append(msgs, err.Error())
		}
		slices.Sort(msgs)
		u.newConditions = append(u.newConditions, corev1.NamespaceCondition{
			Type:               corev1.NamespaceDeletionContentFailure,
			Status:             corev1.ConditionTrue,
			LastTransitionTime: u.now,
			Reason:             "ContentDeletionFailed",
			Message:            fmt.Sprintf("Failed to delete all resource types, %d remaining: %v", len(msgs), strings.Join(msgs, ", ")),
		})
	}
	return u.updateConditions(&ns.Status)
}

// updateConditions merges the recorded conditions into status. A
// condition's lastTransitionTime changes only when its status does.
func (u *namespaceConditionUpdater) updateConditions(status *corev1.NamespaceStatus) (changed bool) {
	for _, t := range conditionTypes {
		want := getCondition(u.newConditions, t)
		if want == nil {
			want = &corev1.NamespaceCondition{
				Type: t, Status: corev1.ConditionFalse, LastTransitionTime: u.now,
				Reason: okReasons[t], Message: okMessages[t],
			}
		}
		have := getCondition(status.Conditions, t)
		switch {
		case have == nil:
			status.Conditions = append(status.Conditions, *want)
			changed = true
		case have.Status != want.Status || have.Reason != want.Reason || have.Message != want.Message:
			if have.Status != want.Status {
				have.LastTransitionTime = u.now
			}
			have.Status, have.Reason, have.Message = want.Status, want.Reason, want.Message
			changed = true
		}
	}
	return changed
}

// getCondition returns the condition of type t in conditions, or nil.
func getCondition(conditions []corev1.NamespaceCondition, t corev1.NamespaceConditionType) *corev1.NamespaceCondition {
	for i := range conditions {
		if conditions[i].Type == t {
			return &conditions[i]
		}
	}
	return nil
}
