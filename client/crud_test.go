package client_test

import (
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
)

func TestCreateGetUpdateDelete(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		pods := cs.Pods("default")
		in := newPod("", "web", map[string]string{"app": "web"})
		created, err := pods.Create(ctx, in, client.WriteOptions{})
		require.NoError(t, err, "Create")
		assert.Equal(t, "Pod", created.Kind, "the server sets the kind")
		assert.Equal(t, "default", created.Namespace)
		assert.NotEmpty(t, created.UID)
		assert.NotEmpty(t, created.ResourceVersion)
		assert.Empty(t, in.ResourceVersion, "Create does not modify its argument")

		_, err = pods.Create(ctx, newPod("", "web", nil), client.WriteOptions{})
		assert.True(t, apierrors.IsAlreadyExists(err), "second Create: %v", err)

		got, err := pods.Get(ctx, "web", client.GetOptions{})
		require.NoError(t, err, "Get")
		assert.Equal(t, created.UID, got.UID)

		got.Labels["tier"] = "front"
		updated, err := pods.Update(ctx, got, client.WriteOptions{})
		require.NoError(t, err, "Update")
		assert.Equal(t, "front", updated.Labels["tier"])

		// got still carries the old resourceVersion: a lost race.
		got.Labels["tier"] = "back"
		_, err = pods.Update(ctx, got, client.WriteOptions{})
		assert.True(t, apierrors.IsConflict(err), "stale Update: %v", err)

		updated.Status.Phase = corev1.PodRunning
		withStatus, err := pods.UpdateStatus(ctx, updated, client.WriteOptions{})
		require.NoError(t, err, "UpdateStatus")
		assert.Equal(t, corev1.PodRunning, withStatus.Status.Phase)

		stale := updated.ResourceVersion
		err = pods.Delete(ctx, "web", metav1.DeleteOptions{Preconditions: &metav1.Preconditions{ResourceVersion: &stale}})
		assert.True(t, apierrors.IsConflict(err), "Delete with a stale precondition: %v", err)

		require.NoError(t, pods.Delete(ctx, "web", metav1.DeleteOptions{}), "Delete")
		_, err = pods.Get(ctx, "web", client.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "Get after Delete: %v", err)
		err = pods.Delete(ctx, "web", metav1.DeleteOptions{})
		assert.True(t, apierrors.IsNotFound(err), "second Delete: %v", err)
	})
}

func TestPatch(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		pods := cs.Pods("default")
		_, err := pods.Create(ctx, newPod("", "p", map[string]string{"a": "1"}), client.WriteOptions{})
		require.NoError(t, err)

		tests := []struct {
			name   string
			pt     client.PatchType
			patch  string
			sub    []string
			check  func(t *testing.T, p *corev1.Pod)
			errIs  func(error) bool
			errMsg string
		}{
			{name: "merge", pt: client.MergePatchType, patch: `{"metadata":{"labels":{"b":"2","a":null}}}`,
				check: func(t *testing.T, p *corev1.Pod) { assert.Equal(t, map[string]string{"b": "2"}, p.Labels) }},
			{name: "json", pt: client.JSONPatchType, patch: `[{"op":"add","path":"/metadata/labels/c","value":"3"}]`,
				check: func(t *testing.T, p *corev1.Pod) { assert.Equal(t, "3", p.Labels["c"]) }},
			{name: "status", pt: client.MergePatchType, patch: `{"status":{"phase":"Running"}}`, sub: []string{"status"},
				check: func(t *testing.T, p *corev1.Pod) { assert.Equal(t, corev1.PodRunning, p.Status.Phase) }},
			{name: "failed test op", pt: client.JSONPatchType, patch: `[{"op":"test","path":"/metadata/name","value":"x"}]`,
				errIs: apierrors.IsInvalid},
			{name: "strategic merge", pt: client.StrategicMergePatchType,
				patch: `{"spec":{"containers":[{"name":"c","image":"busybox:2"}]}}`,
				check: func(t *testing.T, p *corev1.Pod) { assert.Equal(t, "busybox:2", p.Spec.Containers[0].Image) }},
			{name: "server-side apply without a field manager", pt: client.ApplyPatchType, patch: `{}`,
				errIs: apierrors.IsInvalid},
		}
		for _, tc := range tests {
			t.Run(tc.name, func(t *testing.T) {
				p, err := pods.Patch(ctx, "p", tc.pt, []byte(tc.patch), client.WriteOptions{}, tc.sub...)
				if tc.errIs != nil {
					assert.True(t, tc.errIs(err), "Patch(%s): %v", tc.patch, err)
					return
				}
				require.NoError(t, err, "Patch(%s)", tc.patch)
				tc.check(t, p)
			})
		}
		// Server-side apply: the applied labels are owned by "tester", so
		// another manager changing one conflicts unless it forces.
		apply := func(manager, labels string, force bool) (*corev1.Pod, error) {
			return pods.Patch(ctx, "p", client.ApplyPatchType,
				[]byte(`{"apiVersion":"v1","kind":"Pod","metadata":{"name":"p","labels":`+labels+`}}`),
				client.WriteOptions{FieldManager: manager, Force: force})
		}
		p, err := apply("tester", `{"applied":"yes"}`, false)
		require.NoError(t, err, "apply as tester")
		assert.Equal(t, "yes", p.Labels["applied"])
		_, err = apply("other", `{"applied":"no"}`, false)
		assert.True(t, apierrors.IsConflict(err), "apply of tester's label by other: %v", err)
		p, err = apply("other", `{"applied":"no"}`, true)
		require.NoError(t, err, "forced apply as other")
		assert.Equal(t, "no", p.Labels["applied"])

		_, err = pods.Patch(ctx, "missing", client.MergePatchType, []byte(`{}`), client.WriteOptions{})
		assert.True(t, apierrors.IsNotFound(err), "Patch of a missing pod: %v", err)
	})
}

func TestListSelectorsAndPages(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		createPods(t, cs, "web", 3, map[string]string{"app": "web"})
		createPods(t, cs, "db", 2, map[string]string{"app": "db"})

		all, err := cs.Pods("default").List(ctx, client.ListOptions{})
		require.NoError(t, err)
		assert.Len(t, all.Items, 5)
		assert.NotEmpty(t, all.ResourceVersion)

		web, err := cs.Pods("default").List(ctx, client.ListOptions{LabelSelector: "app=web"})
		require.NoError(t, err)
		assert.Len(t, web.Items, 3, "labelSelector app=web")

		one, err := cs.Pods("default").List(ctx, client.ListOptions{FieldSelector: "metadata.name=db-1"})
		require.NoError(t, err)
		require.Len(t, one.Items, 1, "fieldSelector metadata.name=db-1")
		assert.Equal(t, "db-1", one.Items[0].Name)

		var names []string
		opts := client.ListOptions{Limit: 2}
		for page := 0; ; page++ {
			require.Less(t, page, 5, "paging does not end")
			list, err := cs.Pods("default").List(ctx, opts)
			require.NoError(t, err, "page %d", page)
			assert.LessOrEqual(t, len(list.Items), 2)
			for _, p := range list.Items {
				names = append(names, p.Name)
			}
			if list.Continue == "" {
				break
			}
			opts.Continue = list.Continue
		}
		assert.Equal(t, []string{"db-0", "db-1", "web-0", "web-1", "web-2"}, names)

		_, err = cs.Pods("default").List(ctx, client.ListOptions{LabelSelector: "app in (("})
		assert.True(t, apierrors.IsBadRequest(err), "bad selector: %v", err)

		allNS, err := cs.Pods("").List(ctx, client.ListOptions{})
		require.NoError(t, err, "List across namespaces")
		assert.Len(t, allNS.Items, 5)
	})
}

func TestDeleteCollection(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		createPods(t, cs, "web", 3, map[string]string{"app": "web"})
		createPods(t, cs, "db", 1, map[string]string{"app": "db"})
		require.NoError(t, cs.Pods("default").DeleteCollection(ctx, metav1.DeleteOptions{}, client.ListOptions{LabelSelector: "app=web"}))
		left, err := cs.Pods("default").List(ctx, client.ListOptions{})
		require.NoError(t, err)
		require.Len(t, left.Items, 1)
		assert.Equal(t, "db-0", left.Items[0].Name)
	})
}

func TestClusterScopedResources(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		ns, err := cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team-a"}}, client.WriteOptions{})
		require.NoError(t, err)
		assert.Equal(t, "team-a", ns.Name)
		_, err = cs.Pods("team-a").Create(ctx, newPod("", "p", nil), client.WriteOptions{})
		require.NoError(t, err, "create in the new namespace")

		node, err := cs.Nodes().Create(ctx, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, client.WriteOptions{})
		require.NoError(t, err)
		node.Status.Phase = corev1.NodeRunning
		_, err = cs.Nodes().UpdateStatus(ctx, node, client.WriteOptions{})
		require.NoError(t, err, "node UpdateStatus")
		nodes, err := cs.Nodes().List(ctx, client.ListOptions{})
		require.NoError(t, err)
		assert.Len(t, nodes.Items, 1)

		_, err = cs.Client().Scheme().New(cs.Nodes().Info().GVK())
		require.NoError(t, err)
		_, err = cs.Nodes().Namespace("default").Get(ctx, "n1", client.GetOptions{})
		assert.ErrorContains(t, err, "cluster-scoped", "a namespace on a cluster-scoped resource")
	})
}

func TestValidationAndDryRun(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		bad := newPod("", "bad", nil)
		bad.Spec.Containers = nil
		_, err := cs.Pods("default").Create(ctx, bad, client.WriteOptions{})
		require.True(t, apierrors.IsInvalid(err), "pod without containers: %v", err)
		assert.Equal(t, int32(http.StatusUnprocessableEntity), apierrors.CodeForError(err))

		_, err = cs.Pods("default").Create(ctx, newPod("", "dry", nil), client.WriteOptions{DryRun: true})
		require.NoError(t, err, "dry-run Create")
		_, err = cs.Pods("default").Get(ctx, "dry", client.GetOptions{})
		assert.True(t, apierrors.IsNotFound(err), "a dry run stores nothing: %v", err)

		_, err = cs.Pods("nope").Create(ctx, newPod("", "p", nil), client.WriteOptions{})
		assert.True(t, apierrors.IsNotFound(err), "create in a missing namespace: %v", err)
		_, err = cs.Pods("").Get(ctx, "p", client.GetOptions{})
		assert.ErrorContains(t, err, "namespace is required")
	})
}

func TestEventsClient(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		for i := range 2 {
			_, err := cs.Events("default").Create(ctx, &corev1.Event{
				ObjectMeta:          metav1.ObjectMeta{Name: fmt.Sprintf("e%d", i)},
				InvolvedObject:      corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "p"},
				Reason:              "Scheduled",
				Type:                corev1.EventTypeNormal,
				ReportingController: "test",
				ReportingInstance:   "test-1",
			}, client.WriteOptions{})
			require.NoError(t, err, "create event %d", i)
		}
		events, err := cs.Events("default").List(ctx, client.ListOptions{})
		require.NoError(t, err)
		assert.Len(t, events.Items, 2)
	})
}

func TestGenericResource(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		ctx := t.Context()
		createPods(t, cs, "p", 2, nil)
		pods, err := client.NewResource[metav1.Object, metav1.ListInterface](cs.Client(), corev1.SchemeGroupVersion.WithResource("pods"))
		require.NoError(t, err)
		list, err := pods.Namespace("default").List(ctx, client.ListOptions{})
		require.NoError(t, err)
		assert.IsType(t, &corev1.PodList{}, list)
		obj, err := pods.Namespace("default").Get(ctx, "p-0", client.GetOptions{})
		require.NoError(t, err)
		assert.IsType(t, &corev1.Pod{}, obj)

		_, err = client.NewResource[*corev1.Node, *corev1.NodeList](cs.Client(), corev1.SchemeGroupVersion.WithResource("pods"))
		assert.ErrorContains(t, err, "not a", "a Node client for pods")
		_, err = client.NewResource[metav1.Object, metav1.ListInterface](cs.Client(), corev1.SchemeGroupVersion.WithResource("widgets"))
		assert.ErrorContains(t, err, "not in the scheme")
	})
}
