package v1

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

func TestAddToScheme(t *testing.T) {
	s := runtime.NewScheme()
	require.NoError(t, AddToScheme(s))
	for _, kind := range []string{"PodDisruptionBudget", "PodDisruptionBudgetList", "Eviction"} {
		obj, err := s.New(SchemeGroupVersion.WithKind(kind))
		require.NoError(t, err, "New(%s)", kind)
		assert.Equal(t, runtime.TypeMeta{APIVersion: "policy/v1", Kind: kind}, *obj.GetTypeMeta())
	}
	require.Len(t, s.Resources(), 1, "Eviction is only a subresource's kind")
	info := s.Resources()[0]
	assert.Equal(t, "poddisruptionbudgets", info.GVR.Resource)
	assert.True(t, info.Namespaced)
	assert.Equal(t, []string{"pdb"}, info.ShortNames)
	assert.Equal(t, []string{"status"}, info.Subresources)
}

func TestUpdateDisruptionAllowedCondition(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	pdb := &PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Generation: 2}}
	pdb.Status.ObservedGeneration = 2
	assert.False(t, ConditionsAreUpToDate(pdb), "no condition yet")

	UpdateDisruptionAllowedCondition(pdb, t0)
	assert.Equal(t, []metav1.Condition{{Type: DisruptionAllowedCondition, Status: metav1.ConditionFalse, Reason: InsufficientPodsReason,
		ObservedGeneration: 2, LastTransitionTime: metav1.NewTime(t0)}}, pdb.Status.Conditions)
	assert.True(t, ConditionsAreUpToDate(pdb))

	pdb.Status.DisruptionsAllowed = 1
	assert.False(t, ConditionsAreUpToDate(pdb), "the condition says none is allowed")
	UpdateDisruptionAllowedCondition(pdb, t0.Add(time.Minute))
	assert.Equal(t, metav1.Condition{Type: DisruptionAllowedCondition, Status: metav1.ConditionTrue, Reason: SufficientPodsReason,
		ObservedGeneration: 2, LastTransitionTime: metav1.NewTime(t0.Add(time.Minute))}, pdb.Status.Conditions[0], "the status changed: a new transition time")

	pdb.Status.DisruptionsAllowed = 2
	UpdateDisruptionAllowedCondition(pdb, t0.Add(time.Hour))
	assert.Equal(t, metav1.NewTime(t0.Add(time.Minute)), pdb.Status.Conditions[0].LastTransitionTime, "the same status keeps its time")
	pdb.Generation = 3
	assert.False(t, ConditionsAreUpToDate(pdb), "a generation not observed")
}
