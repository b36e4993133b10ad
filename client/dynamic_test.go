package client_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
)

// newDeveloper returns an unstructured Developer to create in default.
func newDeveloper(name, language string) *unstructured.Unstructured {
	return &unstructured.Unstructured{
		TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Developer"},
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Content:    map[string]any{"spec": map[string]any{"language": language, "level": int64(3)}},
	}
}

// The dynamic client of a custom resource writes, reads, lists and
// watches unstructured objects, and registers the resource in the
// client's scheme, so the generic client serves it too.
func TestDynamicResourceOfCustomResource(t *testing.T) {
	forEachMode(t, func(t *testing.T, cs *client.Clientset) {
		cl := cs.Client()
		installCRD(t, cl, developersCRD())
		_, known := cl.Scheme().Resource(developersGVR)
		require.False(t, known, "the scheme does not know developers yet")

		r, err := client.NewDynamicResource(t.Context(), cl, developersGVR)
		require.NoError(t, err, "NewDynamicResource(%s)", developersGVR)
		info := r.Info()
		assert.Equal(t, "Developer", info.Kind)
		assert.True(t, info.Namespaced)
		devs := r.Namespace("default")
		w, err := devs.Watch(t.Context(), client.ListOptions{ResourceVersion: "0"})
		require.NoError(t, err, "watch developers")
		defer w.Stop()

		created, err := devs.Create(t.Context(), newDeveloper("megyo", "go"), client.WriteOptions{})
		require.NoError(t, err, "create developer")
		assert.NotEmpty(t, created.UID)
		lang, _ := unstructured.NestedString(created.Content, "spec", "language")
		assert.Equal(t, "go", lang)

		ev := clustertest.NextEvent(t, w)
		assert.Equal(t, watch.Added, ev.Type)
		added, ok := ev.Object.(*unstructured.Unstructured)
		require.True(t, ok, "watch events decode as Unstructured, not %T", ev.Object)
		assert.Equal(t, "megyo", added.Name)
		assert.Equal(t, runtime.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Developer"}, added.GroupVersionKind())
		level, _ := unstructured.NestedInt64(added.Content, "spec", "level")
		assert.Equal(t, int64(3), level)

		unstructured.SetNestedField(created.Content, "rust", "spec", "language")
		updated, err := devs.Update(t.Context(), created, client.WriteOptions{})
		require.NoError(t, err, "update developer")
		ev = clustertest.NextEvent(t, w)
		assert.Equal(t, watch.Modified, ev.Type)
		lang, _ = unstructured.NestedString(ev.Object.(*unstructured.Unstructured).Content, "spec", "language")
		assert.Equal(t, "rust", lang)

		updated.Content["status"] = map[string]any{"assigned": true}
		withStatus, err := devs.UpdateStatus(t.Context(), updated, client.WriteOptions{})
		require.NoError(t, err, "update status")
		assigned, _ := unstructured.NestedField(withStatus.Content, "status", "assigned")
		assert.Equal(t, true, assigned)
		ev = clustertest.NextEvent(t, w)
		assert.Equal(t, watch.Modified, ev.Type, "the status update")

		list, err := devs.List(t.Context(), client.ListOptions{})
		require.NoError(t, err, "list developers")
		require.Len(t, list.Items, 1)
		assert.Equal(t, "DeveloperList", list.Kind)

		// The scheme now serves developers to generic code (informers).
		generic, err := client.NewResource[metav1.Object, metav1.ListInterface](cl, developersGVR)
		require.NoError(t, err, "the generic client of a registered custom resource")
		obj, err := generic.Namespace("default").Get(t.Context(), "megyo", client.GetOptions{})
		require.NoError(t, err)
		assert.IsType(t, &unstructured.Unstructured{}, obj)

		require.NoError(t, devs.Delete(t.Context(), "megyo", metav1.DeleteOptions{}))
		ev = clustertest.NextEvent(t, w)
		assert.Equal(t, watch.Deleted, ev.Type)
		assert.IsType(t, &unstructured.Unstructured{}, ev.Object)
	})
}

// A built-in resource is served unstructured too, while the scheme keeps
// its Go type for the typed clients.
func TestDynamicResourceOfBuiltInResource(t *testing.T) {
	cs := newClientset(t, connectInMemory(t))
	createPods(t, cs, "p", 1, nil)
	pods, err := client.NewDynamicResource(t.Context(), cs.Client(), corev1.SchemeGroupVersion.WithResource("pods"))
	require.NoError(t, err)
	got, err := pods.Namespace("default").Get(t.Context(), "p-0", client.GetOptions{})
	require.NoError(t, err)
	image, _ := unstructured.NestedField(got.Content, "spec", "containers")
	assert.Len(t, image, 1)
	typed, err := cs.Pods("default").Get(t.Context(), "p-0", client.GetOptions{})
	require.NoError(t, err, "the typed client still decodes Pods")
	assert.Equal(t, "busybox", typed.Spec.Containers[0].Image)
}

func TestDynamicResourceNotServed(t *testing.T) {
	cs := newClientset(t, connectInMemory(t))
	for _, gvr := range []runtime.GroupVersionResource{
		developersGVR,                        // a group the server does not serve
		{Version: "v1", Resource: "widgets"}, // a resource missing from a served group
	} {
		_, err := client.NewDynamicResource(t.Context(), cs.Client(), gvr)
		assert.True(t, apierrors.IsNotFound(err), "NewDynamicResource(%s): %v", gvr, err)
	}
}

// A program's own Go types for a custom resource win: registering the
// discovered resource leaves them, and both the typed and the dynamic
// client work on one scheme.
func TestAddUnstructuredResourceKeepsTheProgramsTypes(t *testing.T) {
	scheme, err := client.NewScheme()
	require.NoError(t, err)
	require.NoError(t, addDeveloperTypes(scheme))
	info, ok := scheme.Resource(developersGVR)
	require.True(t, ok)
	require.NoError(t, client.AddUnstructuredResource(scheme, info), "a resource the scheme has is left alone")
	obj, err := scheme.New(info.GVK())
	require.NoError(t, err)
	assert.IsType(t, &Developer{}, obj)

	other := runtime.ResourceInfo{GVR: runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "teams"},
		Kind: "Team", Verbs: runtime.AllVerbs}
	require.NoError(t, client.AddUnstructuredResource(scheme, other))
	obj, err = scheme.New(other.GVK())
	require.NoError(t, err)
	assert.IsType(t, &unstructured.Unstructured{}, obj, "a kind the scheme did not know is unstructured")
	list, err := scheme.New(other.ListGVK())
	require.NoError(t, err)
	assert.IsType(t, &unstructured.UnstructuredList{}, list)

	cfg := connectInMemory(t)
	cfg.Scheme = scheme
	cl, err := client.New(cfg)
	require.NoError(t, err)
	installCRD(t, cl, developersCRD())
	typed, err := client.NewResource[*Developer, *DeveloperList](cl, developersGVR)
	require.NoError(t, err)
	_, err = typed.Namespace("default").Create(t.Context(), &Developer{ObjectMeta: metav1.ObjectMeta{Name: "typed"},
		Spec: DeveloperSpec{Language: "go"}}, client.WriteOptions{})
	require.NoError(t, err)
	dynamic, err := client.NewDynamicResource(t.Context(), cl, developersGVR)
	require.NoError(t, err)
	got, err := dynamic.Namespace("default").Get(t.Context(), "typed", client.GetOptions{})
	require.NoError(t, err)
	lang, _ := unstructured.NestedString(got.Content, "spec", "language")
	assert.Equal(t, "go", lang)
}
