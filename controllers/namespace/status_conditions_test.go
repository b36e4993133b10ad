package namespace

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

var (
	at1 = metav1.NewTime(time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC))
	at2 = metav1.NewTime(time.Date(2024, 1, 1, 0, 1, 0, 0, time.UTC))
)

// conditionsOf indexes ns's conditions by type.
func conditionsOf(ns *corev1.Namespace) map[corev1.NamespaceConditionType]corev1.NamespaceCondition {
	out := map[corev1.NamespaceConditionType]corev1.NamespaceCondition{}
	for _, c := range ns.Status.Conditions {
		out[c.Type] = c
	}
	return out
}

func TestConditionUpdaterSetsEveryCondition(t *testing.T) {
	tests := []struct {
		name   string
		record func(u *namespaceConditionUpdater)
		want   map[corev1.NamespaceConditionType]corev1.NamespaceCondition
	}{{
		name:   "nothing wrong: every condition False with its ok reason",
		record: func(*namespaceConditionUpdater) {},
		want: map[corev1.NamespaceConditionType]corev1.NamespaceCondition{
			corev1.NamespaceDeletionDiscoveryFailure: {Status: corev1.ConditionFalse, Reason: "ResourcesDiscovered", Message: "All resources successfully discovered"},
			corev1.NamespaceDeletionGVParsingFailure: {Status: corev1.ConditionFalse, Reason: "ParsedGroupVersions", Message: "All legacy kube types successfully parsed"},
			corev1.NamespaceDeletionContentFailure:   {Status: corev1.ConditionFalse, Reason: "ContentDeleted", Message: "All content successfully deleted, may be waiting on finalization"},
			corev1.NamespaceContentRemaining:         {Status: corev1.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
			corev1.NamespaceFinalizersRemaining:      {Status: corev1.ConditionFalse, Reason: "ContentRemoved", Message: "All content successfully removed"},
		},
	}, {
		name: "content and finalizers remain: sorted messages",
		record: func(u *namespaceConditionUpdater) {
			u.processContentTotals(allGVRDeletionMetadata{
				gvrToNumRemaining: map[runtime.GroupVersionResource]int{
					{Version: "v1", Resource: "pods"}:                       2,
					{Group: "apps", Version: "v1", Resource: "deployments"}: 1,
					{Version: "v1", Resource: "secrets"}:                    0,
				},
				finalizersToNumRemaining: map[string]int{"z.io/b": 1, "a.io/a": 3},
			})
		},
		want: map[corev1.NamespaceConditionType]corev1.NamespaceCondition{
			corev1.NamespaceContentRemaining: {Status: corev1.ConditionTrue, Reason: "SomeResourcesRemain",
				Message: "Some resources are remaining: deployments.apps has 1 resource instances, pods. has 2 resource instances"},
			corev1.NamespaceFinalizersRemaining: {Status: corev1.ConditionTrue, Reason: "SomeFinalizerRemain",
				Message: "Some finalizers are remaining: a.io/a in 3 resource instances, z.io/b in 1 resource instances"},
			corev1.NamespaceDeletionContentFailure: {Status: corev1.ConditionFalse, Reason: "ContentDeleted",
				Message: "All content successfully deleted, may be waiting on finalization"},
		},
	}, {
		name: "deletion errors: counted and sorted",
		record: func(u *namespaceConditionUpdater) {
			u.processDeleteContentErr(errors.New("b failed"))
			u.processDeleteContentErr(errors.New("a failed"))
		},
		want: map[corev1.NamespaceConditionType]corev1.NamespaceCondition{
			corev1.NamespaceDeletionContentFailure: {Status: corev1.ConditionTrue, Reason: "ContentDeletionFailed",
				Message: "Failed to delete all resource types, 2 remaining: a failed, b failed"},
		},
	}, {
		name:   "discovery error",
		record: func(u *namespaceConditionUpdater) { u.processDiscoverResourcesErr(errors.New("no kind Widget")) },
		want: map[corev1.NamespaceConditionType]corev1.NamespaceCondition{
			corev1.NamespaceDeletionDiscoveryFailure: {Status: corev1.ConditionTrue, Reason: "DiscoveryFailed", Message: "no kind Widget"},
		},
	}}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ns := &corev1.Namespace{}
			u := newConditionUpdater(at1)
			tc.record(u)
			require.True(t, u.update(ns), "a namespace without conditions changes")
			got := conditionsOf(ns)
			assert.Len(t, got, len(conditionTypes), "every condition is set")
			for ct, want := range tc.want {
				want.Type, want.LastTransitionTime = ct, at1
				assert.Equal(t, want, got[ct], "%s", ct)
			}
		})
	}
}

func TestConditionUpdaterTransitionTime(t *testing.T) {
	ns := &corev1.Namespace{}
	remaining := func(n int) func(*namespaceConditionUpdater) {
		return func(u *namespaceConditionUpdater) {
			u.processContentTotals(allGVRDeletionMetadata{
				gvrToNumRemaining: map[runtime.GroupVersionResource]int{{Version: "v1", Resource: "pods"}: n},
			})
		}
	}
	pass := func(at metav1.Time, record func(*namespaceConditionUpdater)) bool {
		u := newConditionUpdater(at)
		record(u)
		return u.update(ns)
	}

	require.True(t, pass(at1, remaining(2)), "first pass")
	require.False(t, pass(at2, remaining(2)), "the same state writes nothing")
	assert.Equal(t, at1, conditionsOf(ns)[corev1.NamespaceContentRemaining].LastTransitionTime)

	require.True(t, pass(at2, remaining(1)), "a new message is a change")
	c := conditionsOf(ns)[corev1.NamespaceContentRemaining]
	assert.Equal(t, "Some resources are remaining: pods. has 1 resource instances", c.Message)
	assert.Equal(t, at1, c.LastTransitionTime, "no transition: the status is still True")

	require.True(t, pass(at2, func(*namespaceConditionUpdater) {}), "content gone")
	c = conditionsOf(ns)[corev1.NamespaceContentRemaining]
	assert.Equal(t, corev1.ConditionFalse, c.Status)
	assert.Equal(t, at2, c.LastTransitionTime, "True to False is a transition")
	assert.Equal(t, at1, conditionsOf(ns)[corev1.NamespaceDeletionContentFailure].LastTransitionTime, "unchanged conditions keep theirs")
	assert.Len(t, ns.Status.Conditions, len(conditionTypes), "conditions are updated in place, never duplicated")
}
