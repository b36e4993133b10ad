package resourcequota_test

import (
	"strconv"
	"testing"

	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/apiservertest"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/resourcequota"
)

const ns = "default"

func resources(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

// sameAmounts compares resource lists by amount, as the API writes
// "500m" and "0.5" alike.
func sameAmounts(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for name, q := range a {
		if other, ok := b[name]; !ok || q.Cmp(other) != 0 {
			return false
		}
	}
	return true
}

// TestUsage: the controller fills status.hard from the spec and
// status.used from the pods, ConfigMaps and Deployments of the
// namespace, and follows them as they come, finish and go.
func TestUsage(t *testing.T) {
	cl := clustertest.InMemoryClient(t, apiservertest.New(t))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	ctx := t.Context()
	pod := func(name, cpu string) *corev1.Pod {
		p, err := cs.Pods(ns).Create(ctx, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx",
				Resources: corev1.ResourceRequirements{Requests: resources("cpu", cpu), Limits: resources("cpu", cpu)}}}},
		}, client.WriteOptions{})
		require.NoError(t, err, "create pod %s", name)
		return p
	}
	pod("a", "250m")
	done := pod("b", "500m")
	_, err = cs.ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "cm", Namespace: ns}}, client.WriteOptions{})
	require.NoError(t, err)
	_, err = cs.Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "d", Namespace: ns},
		Spec: appsv1.DeploymentSpec{Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "d"}}, Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "d"}},
			Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
		}},
	}, client.WriteOptions{})
	require.NoError(t, err)

	hard := resources("pods", "5", "count/pods", "5", "requests.cpu", "2", "limits.memory", "1Gi", "count/configmaps", "3",
		"count/deployments.apps", "2", "services", "1")
	quotas, err := client.NewResource[*corev1.ResourceQuota, *corev1.ResourceQuotaList](cl, corev1.SchemeGroupVersion.WithResource("resourcequotas"))
	require.NoError(t, err)
	quotas = quotas.Namespace(ns)
	_, err = quotas.Create(ctx, &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: ns}, Spec: corev1.ResourceQuotaSpec{Hard: hard}},
		client.WriteOptions{})
	require.NoError(t, err)
	clustertest.StartManager(t, cl, clock.Real, resourcequota.Add)

	waitUsed := func(what string, want corev1.ResourceList) {
		t.Helper()
		clustertest.WaitFor(t, quotas, "q", what, func(q *corev1.ResourceQuota, found bool) bool {
			return found && sameAmounts(q.Status.Hard, hard) && sameAmounts(q.Status.Used, want)
		})
	}
	waitUsed("first usage", resources("pods", "2", "count/pods", "2", "requests.cpu", "750m", "limits.memory", "0",
		"count/configmaps", "1", "count/deployments.apps", "1", "services", "0"))

	// A pod that finished uses nothing but its count.
	done.Status.Phase = corev1.PodSucceeded
	_, err = cs.Pods(ns).UpdateStatus(ctx, done, client.WriteOptions{})
	require.NoError(t, err)
	waitUsed("b finished", resources("pods", "1", "count/pods", "2", "requests.cpu", "250m", "limits.memory", "0",
		"count/configmaps", "1", "count/deployments.apps", "1", "services", "0"))

	require.NoError(t, cs.Pods(ns).Delete(ctx, "a", metav1.DeleteOptions{}))
	waitUsed("a deleted", resources("pods", "0", "count/pods", "1", "requests.cpu", "0", "limits.memory", "0",
		"count/configmaps", "1", "count/deployments.apps", "1", "services", "0"))
}

// TestChargeHeldUntilReplenished: a charge the admission plugin wrote
// for an object the controller's cache does not hold yet stands through
// the charge itself and through creates (recomputing then would hand it
// back while the object is being stored, and let the next create past
// the bound); a delete recomputes, and returns a charge whose object was
// never stored.
func TestChargeHeldUntilReplenished(t *testing.T) {
	cl := clustertest.InMemoryClient(t, apiservertest.New(t))
	cs, err := client.NewClientset(cl)
	require.NoError(t, err)
	ctx := t.Context()
	quotas, err := client.NewResource[*corev1.ResourceQuota, *corev1.ResourceQuotaList](cl, corev1.SchemeGroupVersion.WithResource("resourcequotas"))
	require.NoError(t, err)
	quotas = quotas.Namespace(ns)
	hard := resources("pods", "5")
	_, err = quotas.Create(ctx, &corev1.ResourceQuota{ObjectMeta: metav1.ObjectMeta{Name: "q", Namespace: ns}, Spec: corev1.ResourceQuotaSpec{Hard: hard}},
		client.WriteOptions{})
	require.NoError(t, err)
	mgr := clustertest.StartManager(t, cl, clock.Real, resourcequota.Add)
	waitUsed := func(what, pods string) {
		t.Helper()
		clustertest.WaitFor(t, quotas, "q", what, func(q *corev1.ResourceQuota, found bool) bool {
			return found && sameAmounts(q.Status.Hard, hard) && sameAmounts(q.Status.Used, resources("pods", pods))
		})
	}
	// settled waits until the manager's informer of obj's kind holds the
	// write at rv and the controller has done all it will about it.
	settled := func(obj runtime.Object, rv string) {
		t.Helper()
		inf, err := mgr.GetCache().GetInformer(obj)
		require.NoError(t, err)
		revision, err := strconv.ParseInt(rv, 10, 64)
		require.NoError(t, err)
		wctx, cancel := clustertest.WaitContext(t)
		defer cancel()
		require.NoError(t, inf.WaitSyncedTo(wctx, revision), "the informer reaches %s", rv)
		require.NoError(t, mgr.WaitIdle(wctx), "WaitIdle")
	}
	used := func() string {
		t.Helper()
		q, err := quotas.Get(ctx, "q", client.GetOptions{})
		require.NoError(t, err)
		n := q.Status.Used["pods"]
		return n.String()
	}
	waitUsed("first usage", "0")

	// The plugin's charge for a pod that is still being stored.
	q, err := quotas.Get(ctx, "q", client.GetOptions{})
	require.NoError(t, err)
	q.Status.Used = resources("pods", "1")
	q, err = quotas.UpdateStatus(ctx, q, client.WriteOptions{})
	require.NoError(t, err)
	settled(&corev1.ResourceQuota{}, q.ResourceVersion)
	require.Equal(t, "1", used(), "the charge stands after the controller saw it")

	// A create: the plugin charges it too, and both charges stand.
	p, err := cs.Pods(ns).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: ns},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx"}}},
	}, client.WriteOptions{})
	require.NoError(t, err)
	settled(&corev1.Pod{}, p.ResourceVersion)
	require.Equal(t, "2", used(), "the charges stand after the controller saw the create")

	// A delete recomputes: none of the pods charged for exists.
	require.NoError(t, cs.Pods(ns).Delete(ctx, "a", metav1.DeleteOptions{}))
	waitUsed("a deleted", "0")
}
