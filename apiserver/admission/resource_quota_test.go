package admission_test

import (
	"context"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/admission"
)

// quotaStore is an in-memory QuotaAccessor whose status writes are
// optimistic on a resourceVersion counter; conflicts makes the next
// writes fail as if another request had charged first.
type quotaStore struct {
	mu        sync.Mutex
	quotas    map[string]*corev1.ResourceQuota
	conflicts int
}

func (s *quotaStore) ListQuotas(_ context.Context, ns string, _ admission.ListQuotasOptions) ([]*corev1.ResourceQuota, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []*corev1.ResourceQuota
	for _, q := range s.quotas {
		if q.Namespace == ns {
			out = append(out, q.DeepCopy())
		}
	}
	return out, nil
}

func (s *quotaStore) UpdateQuotaStatus(_ context.Context, q *corev1.ResourceQuota) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	cur := s.quotas[q.Name]
	if s.conflicts > 0 || cur.ResourceVersion != q.ResourceVersion {
		s.conflicts--
		cur.ResourceVersion += "1"
		return apierrors.NewConflict(runtime.GroupResource{Resource: "resourcequotas"}, q.Name, assert.AnError)
	}
	next := q.DeepCopy()
	next.ResourceVersion += "1"
	s.quotas[q.Name] = next
	return nil
}

func (s *quotaStore) used(name string) corev1.ResourceList {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.quotas[name].Status.Used
}

func newQuotaStore(quotas ...*corev1.ResourceQuota) *quotaStore {
	s := &quotaStore{quotas: map[string]*corev1.ResourceQuota{}}
	for _, q := range quotas {
		q.Namespace, q.ResourceVersion = "default", "1"
		s.quotas[q.Name] = q
	}
	return s
}

// amount is the amount of name in list, as a string.
func amount(list corev1.ResourceList, name corev1.ResourceName) string {
	q := list[name]
	return q.String()
}

// synced is a quota whose controller has filled its status.
func synced(name string, hard, used corev1.ResourceList) *corev1.ResourceQuota {
	return &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: corev1.ResourceQuotaSpec{Hard: hard}, Status: corev1.ResourceQuotaStatus{Hard: hard, Used: used}}
}

func TestResourceQuotaCharges(t *testing.T) {
	store := newQuotaStore(synced("compute", resources("pods", "2", "requests.cpu", "1"), resources("pods", "1", "requests.cpu", "500m")))
	q := &admission.ResourceQuota{Quotas: store}

	require.NoError(t, q.Validate(t.Context(), podCreate(podWith("a", resources("cpu", "250m"), nil))))
	assert.Equal(t, "750m", amount(store.used("compute"), "requests.cpu"))
	assert.Equal(t, "2", amount(store.used("compute"), "pods"))

	err := q.Validate(t.Context(), podCreate(podWith("b", resources("cpu", "100m"), nil)))
	require.Error(t, err)
	assert.True(t, apierrors.IsForbidden(err))
	assert.Equal(t, `pods "b" is forbidden: exceeded quota: compute, requested: pods=1, used: pods=2, limited: pods=2`, err.Error())

	err = q.Validate(t.Context(), podCreate(podWith("c", nil, nil)))
	require.Error(t, err)
	assert.Equal(t, `pods "c" is forbidden: failed quota: compute: must specify requests.cpu`, err.Error())
}

func TestResourceQuotaStatusUnknownAndCounts(t *testing.T) {
	unsynced := &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "fresh"},
		Spec: corev1.ResourceQuotaSpec{Hard: resources("count/configmaps", "1")}}
	q := &admission.ResourceQuota{Quotas: newQuotaStore(unsynced)}
	cm := &admission.Attributes{Operation: admission.Create, Resource: runtime.GroupVersionResource{Version: "v1", Resource: "configmaps"},
		Namespace: "default", Name: "cm", Object: &corev1.ConfigMap{}}
	err := q.Validate(t.Context(), cm)
	require.Error(t, err)
	assert.Equal(t, `configmaps "cm" is forbidden: status unknown for quota: fresh, resources: count/configmaps`, err.Error())

	store := newQuotaStore(synced("objects", resources("count/configmaps", "1", "count/deployments.apps", "1"), resources("count/configmaps", "0")))
	q = &admission.ResourceQuota{Quotas: store}
	dryRun := *cm
	dryRun.DryRun = true
	require.NoError(t, q.Validate(t.Context(), &dryRun))
	assert.Equal(t, "0", amount(store.used("objects"), "count/configmaps"), "a dry run charges nothing")
	store.conflicts = 2
	require.NoError(t, q.Validate(t.Context(), cm), "conflicts are retried")
	err = q.Validate(t.Context(), cm)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exceeded quota: objects, requested: count/configmaps=1, used: count/configmaps=1, limited: count/configmaps=1")

	deploy := &admission.Attributes{Operation: admission.Create, Resource: runtime.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"},
		Namespace: "default", Name: "d", Object: &corev1.ConfigMap{}}
	require.NoError(t, q.Validate(t.Context(), deploy), "count/deployments.apps has room")
}

func TestResourceQuotaScopes(t *testing.T) {
	bestEffort := synced("best-effort", resources("pods", "0"), resources("pods", "0"))
	bestEffort.Spec.Scopes = []corev1.ResourceQuotaScope{corev1.ResourceQuotaScopeBestEffort}
	q := &admission.ResourceQuota{Quotas: newQuotaStore(bestEffort)}
	require.NoError(t, q.Validate(t.Context(), podCreate(podWith("guaranteed", resources("cpu", "1"), resources("cpu", "1")))),
		"out of the quota's scope")
	err := q.Validate(t.Context(), podCreate(podWith("free", nil, nil)))
	require.Error(t, err)
	assert.Contains(t, err.Error(), "exceeded quota: best-effort")
}

// TestResourceQuotaConflictsRunOut: a quota that conflicts on every
// charge is tried a bounded number of times, and the request fails as
// the server's error (500), not as a refusal.
func TestResourceQuotaConflictsRunOut(t *testing.T) {
	store := newQuotaStore(synced("objects", resources("count/configmaps", "5"), resources("count/configmaps", "0")))
	store.conflicts = 100
	q := &admission.ResourceQuota{Quotas: store}
	cm := &admission.Attributes{Operation: admission.Create, Resource: runtime.GroupVersionResource{Version: "v1", Resource: "configmaps"},
		Namespace: "default", Name: "cm", Object: &corev1.ConfigMap{}}
	err := q.Validate(t.Context(), cm)
	require.Error(t, err)
	assert.True(t, apierrors.IsInternalError(err), "got %v", err)
	assert.Contains(t, err.Error(), "update resource quota status")
	assert.Equal(t, 90, store.conflicts, "ten tries, then it gives up")
	assert.Equal(t, "0", amount(store.used("objects"), "count/configmaps"), "nothing charged")
}
