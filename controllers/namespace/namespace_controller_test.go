package namespace_test

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
)

// TestNamespaceDeletionDeletesAllContent: deleting a namespace with
// configmaps, secrets, a service and running pods ends with the namespace
// and everything in it gone. Meanwhile the namespace refuses new content;
// the pods go first, the rest only once they are gone, and a pod that
// ignores SIGTERM holds the namespace for its whole grace period.
func TestNamespaceDeletionDeletesAllContent(t *testing.T) {
	if testing.Short() {
		t.Skip("scenario test")
	}
	h := newClusterHarness(t, 1)
	ctx := testContext(t)
	start := h.clk.Now()
	const ns = "doomed"
	_, err := h.cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, client.WriteOptions{})
	require.NoError(t, err, "create namespace")
	for _, name := range []string{"settings", "flags"} {
		_, err := h.cs.ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name},
			Data: map[string]string{"k": "v"}}, client.WriteOptions{})
		require.NoError(t, err, "create configmap %s", name)
	}
	_, err = h.cs.Secrets(ns).Create(ctx, &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "password"}}, client.WriteOptions{})
	require.NoError(t, err, "create secret")
	_, err = h.cs.ServiceAccounts(ns).Create(ctx, &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "runner"}}, client.WriteOptions{})
	require.NoError(t, err, "create serviceaccount")
	_, err = h.cs.Services(ns).Create(ctx, &corev1.Service{ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.ServiceSpec{Selector: map[string]string{"app": "web"}, Ports: []corev1.ServicePort{{Port: 80}}}}, client.WriteOptions{})
	require.NoError(t, err, "create service")
	// nginx stops at SIGTERM; a sleeping PID 1 ignores it and is killed
	// when its 20s grace period ends.
	grace := int64(20)
	pods := []*corev1.Pod{
		{ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "sleeper"},
			Spec: corev1.PodSpec{TerminationGracePeriodSeconds: &grace,
				Containers: []corev1.Container{{Name: "sleep", Image: "busybox", Command: []string{"sleep", "3600"}}}}},
	}
	pw, err := h.cs.Pods(ns).Watch(ctx, client.ListOptions{ResourceVersion: "0"})
	require.NoError(t, err, "watch pods")
	defer pw.Stop()
	for _, pod := range pods {
		_, err := h.cs.Pods(ns).Create(ctx, pod, client.WriteOptions{})
		require.NoError(t, err, "create pod %s", pod.Name)
	}
	running := map[string]bool{}
	for len(running) < len(pods) {
		select {
		case ev := <-pw.ResultChan():
			if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == corev1.PodRunning {
				running[p.Name] = true
			}
		case <-ctx.Done():
			t.Fatalf("pods running: %v", running)
		}
	}
	w := h.watchNamespaces(t, ctx)

	h.deleting(t, ctx, ns)
	got, err := h.cs.Namespaces().Get(ctx, ns, client.GetOptions{})
	require.NoError(t, err, "get namespace")
	assert.Equal(t, corev1.NamespaceTerminating, got.Status.Phase)
	_, err = h.cs.ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "late"}}, client.WriteOptions{})
	require.True(t, apierrors.IsForbidden(err), "a create in a Terminating namespace is Forbidden: %v", err)
	var se *apierrors.StatusError
	require.ErrorAs(t, err, &se)
	require.NotNil(t, se.ErrStatus.Details)
	require.NotEmpty(t, se.ErrStatus.Details.Causes)
	assert.Equal(t, metav1.CauseType("NamespaceTerminating"), se.ErrStatus.Details.Causes[0].Type)

	// The grace period ends: the pods are deleted, nothing else yet.
	h.step(t, ctx, 5*time.Second)
	sleeper, err := h.cs.Pods(ns).Get(ctx, "sleeper", client.GetOptions{})
	require.NoError(t, err, "sleeper runs out its grace period")
	require.NotNil(t, sleeper.DeletionTimestamp, "sleeper is being deleted")
	assert.Equal(t, grace, *sleeper.DeletionGracePeriodSeconds)
	cms, err := h.cs.ConfigMaps(ns).List(ctx, client.ListOptions{})
	require.NoError(t, err, "list configmaps")
	assert.Len(t, cms.Items, 2, "configmaps outlive the pods")
	got, err = h.cs.Namespaces().Get(ctx, ns, client.GetOptions{})
	require.NoError(t, err, "get namespace")
	remaining := condition(t, got, corev1.NamespaceContentRemaining)
	assert.Equal(t, corev1.ConditionTrue, remaining.Status)
	assert.Contains(t, remaining.Message, "pods. has ", "the pods are what remains")

	gone := h.stepUntilGone(t, ctx, w, ns, 5*time.Second)
	assert.Empty(t, gone.Spec.Finalizers)
	assert.GreaterOrEqual(t, h.clk.Since(start), 25*time.Second, "sleeper held the namespace for its grace period")

	// Nothing is left behind in any namespaced resource.
	for _, info := range h.cs.Client().Scheme().Resources() {
		if !info.Namespaced || !info.HasVerb("list") {
			continue
		}
		r, err := client.NewResource[metav1.Object, metav1.ListInterface](h.cs.Client(), info.GVR)
		require.NoError(t, err, "client of %s", info.GVR)
		list, err := r.Namespace(ns).List(ctx, client.ListOptions{})
		require.NoError(t, err, "list %s", info.GVR)
		items, err := runtime.ListItems(list)
		require.NoError(t, err, "items of %s", info.GVR)
		assert.Empty(t, items, "%s left in %s", info.GVR.Resource, ns)
	}
}
