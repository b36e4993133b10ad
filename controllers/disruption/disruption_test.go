package disruption_test

import (
	"maps"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/disruption"
	"github.com/minicp/minicp/controllers/manager"
)

// epoch is where the fake clocks start: a whole second, as the API keeps
// seconds.
var epoch = clock.Real.Now().Add(-time.Hour).Truncate(time.Second).UTC()

const ns = "default"

var web = map[string]string{"app": "web"}

// env is an API server with the disruption controller alone, on a fake
// clock: no kubelet, so tests write pods' status themselves, and no
// workload controller, so tests make the owners they need.
type env struct {
	t    *testing.T
	clk  *clocktest.Fake
	cs   *client.Clientset
	pdbs *disruption.PodDisruptionBudgetClient
	mgr  *manager.Manager
}

func newEnv(t *testing.T) *env {
	t.Helper()
	clk := clocktest.NewFake(epoch)
	cl := clustertest.InMemoryClient(t, apiservertest.New(t))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	pdbs, err := client.NewResource[*policyv1.PodDisruptionBudget, *policyv1.PodDisruptionBudgetList](cl, policyv1.Resource().GVR)
	require.NoError(t, err)
	return &env{t: t, clk: clk, cs: cs, pdbs: pdbs.Namespace(ns), mgr: clustertest.StartManager(t, cl, clk, disruption.Add)}
}

// pod creates a pod with labels, owned by owner when it is set, Running
// and Ready as ready says.
func (e *env) pod(name string, labels map[string]string, owner *metav1.OwnerReference, ready bool) *corev1.Pod {
	e.t.Helper()
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "busybox"}}},
	}
	if owner != nil {
		p.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	p, err := e.cs.Pods(ns).Create(e.t.Context(), p, client.WriteOptions{})
	require.NoError(e.t, err, "create pod %s", name)
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	p.Status.Phase = corev1.PodRunning
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: status}}
	p, err = e.cs.Pods(ns).UpdateStatus(e.t.Context(), p, client.WriteOptions{})
	require.NoError(e.t, err, "update status of pod %s", name)
	return p
}

func (e *env) budget(name string, spec policyv1.PodDisruptionBudgetSpec) {
	e.t.Helper()
	_, err := e.pdbs.Create(e.t.Context(), &policyv1.PodDisruptionBudget{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Spec: spec},
		client.WriteOptions{})
	require.NoError(e.t, err, "create budget %s", name)
}

// waitStatus waits until the budget's status, conditions aside, is want,
// and returns the budget.
func (e *env) waitStatus(name string, want policyv1.PodDisruptionBudgetStatus) *policyv1.PodDisruptionBudget {
	e.t.Helper()
	return clustertest.WaitFor(e.t, e.pdbs, name, "status "+statusString(want), func(pdb *policyv1.PodDisruptionBudget, found bool) bool {
		if !found {
			return false
		}
		got, w := pdb.Status, want
		// Times decode in the local zone: compare them as instants.
		if !maps.EqualFunc(got.DisruptedPods, w.DisruptedPods, func(a, b metav1.Time) bool { return a.Equal(b.Time) }) {
			return false
		}
		got.Conditions, got.DisruptedPods, w.DisruptedPods = nil, nil, nil
		return assert.ObjectsAreEqual(w, got)
	})
}

func statusString(s policyv1.PodDisruptionBudgetStatus) string {
	return intstr.FromInt32(s.DisruptionsAllowed).String() + " allowed"
}

func condition(pdb *policyv1.PodDisruptionBudget) metav1.Condition {
	for _, c := range pdb.Status.Conditions {
		if c.Type == policyv1.DisruptionAllowedCondition {
			c.LastTransitionTime = metav1.Time{}
			return c
		}
	}
	return metav1.Condition{}
}

func selector(labels map[string]string) *metav1.LabelSelector {
	return &metav1.LabelSelector{MatchLabels: labels}
}

func ptrTo[T any](v T) *T { return &v }

func controllerRef(apiVersion, kind, name, uid string) *metav1.OwnerReference {
	return &metav1.OwnerReference{APIVersion: apiVersion, Kind: kind, Name: name, UID: uid, Controller: ptrTo(true)}
}

// TestMinAvailableCount: an integer minAvailable counts the pods
// selected, and the ready ones are healthy.
func TestMinAvailableCount(t *testing.T) {
	e := newEnv(t)
	e.pod("web-1", web, nil, true)
	e.pod("web-2", web, nil, true)
	e.pod("web-3", web, nil, false)
	e.pod("other", map[string]string{"app": "other"}, nil, true)
	e.budget("web", policyv1.PodDisruptionBudgetSpec{Selector: selector(web), MinAvailable: ptrTo(intstr.FromInt32(1))})
	pdb := e.waitStatus("web", policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: 1, ExpectedPods: 3, CurrentHealthy: 2, DesiredHealthy: 1, DisruptionsAllowed: 1})
	assert.Equal(t, metav1.Condition{Type: "DisruptionAllowed", Status: metav1.ConditionTrue, Reason: "SufficientPods", ObservedGeneration: 1},
		condition(pdb))

	// A spec change is observed: its generation, and the new numbers.
	pdb.Spec.MinAvailable = ptrTo(intstr.FromInt32(2))
	_, err := e.pdbs.Update(t.Context(), pdb, client.WriteOptions{})
	require.NoError(t, err)
	pdb = e.waitStatus("web", policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: 2, ExpectedPods: 3, CurrentHealthy: 2, DesiredHealthy: 2})
	assert.Equal(t, metav1.Condition{Type: "DisruptionAllowed", Status: metav1.ConditionFalse, Reason: "InsufficientPods", ObservedGeneration: 2},
		condition(pdb))

	// A pod that turns ready adds one.
	p, err := e.cs.Pods(ns).Get(t.Context(), "web-3", client.GetOptions{})
	require.NoError(t, err)
	p.Status.Conditions[0].Status = corev1.ConditionTrue
	_, err = e.cs.Pods(ns).UpdateStatus(t.Context(), p, client.WriteOptions{})
	require.NoError(t, err)
	e.waitStatus("web", policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: 2, ExpectedPods: 3, CurrentHealthy: 3, DesiredHealthy: 2, DisruptionsAllowed: 1})
}

// TestControllersScale: a percentage, or maxUnavailable, counts the
// replicas of the pods' controllers: a Deployment through its
// ReplicaSet, a ReplicaSet of its own, a StatefulSet.
func TestControllersScale(t *testing.T) {
	e := newEnv(t)
	ctx := t.Context()
	d, err := e.cs.Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: appsv1.DeploymentSpec{Replicas: ptrTo(int32(4)), Selector: selector(web), Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: web},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
		}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	rs, err := e.cs.ReplicaSets(ns).Create(ctx, &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: ns, Labels: web,
			OwnerReferences: []metav1.OwnerReference{*controllerRef("apps/v1", "Deployment", "web", d.UID)}},
		Spec: appsv1.ReplicaSetSpec{Replicas: ptrTo(int32(4)), Selector: selector(web), Template: d.Spec.Template},
	}, client.WriteOptions{})
	require.NoError(t, err)
	for _, name := range []string{"web-a", "web-b", "web-c"} {
		e.pod(name, web, controllerRef("apps/v1", "ReplicaSet", rs.Name, rs.UID), true)
	}
	// Four replicas asked for, three ready: maxUnavailable 25% of 4
	// leaves 3 desired, none to spare.
	e.budget("web", policyv1.PodDisruptionBudgetSpec{Selector: selector(web), MaxUnavailable: ptrTo(intstr.FromString("25%"))})
	e.waitStatus("web", policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, ExpectedPods: 4, CurrentHealthy: 3, DesiredHealthy: 3})
	// minAvailable 50% of 4 (rounded up) is 2: one to spare.
	e.budget("half", policyv1.PodDisruptionBudgetSpec{Selector: selector(web), MinAvailable: ptrTo(intstr.FromString("50%"))})
	e.waitStatus("half", policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, ExpectedPods: 4, CurrentHealthy: 3, DesiredHealthy: 2, DisruptionsAllowed: 1})
}

// TestFailSafe: a budget whose numbers cannot be computed allows no
// disruption, with the reason in its condition.
func TestFailSafe(t *testing.T) {
	e := newEnv(t)
	job := map[string]string{"app": "batch"}
	j, err := e.cs.Jobs(ns).Create(t.Context(), &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: "batch", Namespace: ns},
		Spec: batchv1.JobSpec{Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			RestartPolicy: corev1.RestartPolicyNever, Containers: []corev1.Container{{Name: "c", Image: "busybox"}}}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	e.pod("batch-1", job, controllerRef("batch/v1", "Job", j.Name, j.UID), true)
	e.pod("orphan-1", map[string]string{"app": "orphan"}, controllerRef("apps/v1", "ReplicaSet", "gone", "no-such-uid"), true)

	for _, tc := range []struct {
		name, app, message string
	}{
		{"job", "batch", "jobs.batch does not implement the scale subresource"},
		{"orphan", "orphan", `found no controllers for pod "orphan-1"`},
	} {
		e.budget(tc.name, policyv1.PodDisruptionBudgetSpec{Selector: selector(map[string]string{"app": tc.app}), MaxUnavailable: ptrTo(intstr.FromInt32(1))})
		pdb := clustertest.WaitFor(t, e.pdbs, tc.name, "SyncFailed", func(pdb *policyv1.PodDisruptionBudget, found bool) bool {
			return found && condition(pdb).Reason == policyv1.SyncFailedReason
		})
		// The condition keeps the generation of the last status computed,
		// if the controller ever got that far.
		assert.Equal(t, metav1.Condition{Type: "DisruptionAllowed", Status: metav1.ConditionFalse, Reason: "SyncFailed", Message: tc.message,
			ObservedGeneration: pdb.Status.ObservedGeneration}, condition(pdb), tc.name)
		assert.Zero(t, pdb.Status.DisruptionsAllowed, tc.name)
	}
}

// TestDisruptedPodsTimeout: a pod an eviction let go is not healthy until
// it is deleted, or until DeletionTimeout passes without it being
// deleted, when the entry goes and the pod counts again.
func TestDisruptedPodsTimeout(t *testing.T) {
	e := newEnv(t)
	e.pod("web-1", web, nil, true)
	e.pod("web-2", web, nil, true)
	e.budget("web", policyv1.PodDisruptionBudgetSpec{Selector: selector(web), MinAvailable: ptrTo(intstr.FromInt32(1))})
	pdb := e.waitStatus("web", policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: 1, ExpectedPods: 2, CurrentHealthy: 2, DesiredHealthy: 1, DisruptionsAllowed: 1})

	// What an eviction of web-1 writes.
	evicted := metav1.NewTime(e.clk.Now())
	pdb.Status.DisruptionsAllowed = 0
	pdb.Status.DisruptedPods = map[string]metav1.Time{"web-1": evicted}
	_, err := e.pdbs.UpdateStatus(t.Context(), pdb, client.WriteOptions{})
	require.NoError(t, err)
	e.waitStatus("web", policyv1.PodDisruptionBudgetStatus{ObservedGeneration: 1, ExpectedPods: 2, CurrentHealthy: 1, DesiredHealthy: 1,
		DisruptedPods: map[string]metav1.Time{"web-1": evicted}})
	clustertest.WaitIdle(t, e.mgr)

	// The pod was never deleted: two minutes on, it counts again.
	e.clk.Step(disruption.DeletionTimeout + time.Second)
	e.waitStatus("web", policyv1.PodDisruptionBudgetStatus{
		ObservedGeneration: 1, ExpectedPods: 2, CurrentHealthy: 2, DesiredHealthy: 1, DisruptionsAllowed: 1})
}

// TestStaleDisruptionTarget: a pod that keeps the DisruptionTarget
// condition two minutes without being deleted has it reset to False.
func TestStaleDisruptionTarget(t *testing.T) {
	e := newEnv(t)
	p := e.pod("web-1", web, nil, true)
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
		Reason: "EvictionByEvictionAPI", LastTransitionTime: metav1.NewTime(e.clk.Now())})
	_, err := e.cs.Pods(ns).UpdateStatus(t.Context(), p, client.WriteOptions{})
	require.NoError(t, err)
	clustertest.WaitIdle(t, e.mgr)
	got, err := e.cs.Pods(ns).Get(t.Context(), "web-1", client.GetOptions{})
	require.NoError(t, err)
	assert.Equal(t, corev1.ConditionTrue, got.Status.Conditions[1].Status, "not stale yet")

	e.clk.Step(2*time.Minute + time.Second)
	clustertest.WaitFor(t, e.cs.Pods(ns), "web-1", "DisruptionTarget False", func(p *corev1.Pod, found bool) bool {
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.DisruptionTarget {
				return c.Status == corev1.ConditionFalse
			}
		}
		return false
	})
}
