package protobuf

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kcorev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/cluster"
)

// widgetsCRD is a namespaced custom resource with no schema to speak of.
const widgetsCRD = `{
  "apiVersion": "apiextensions.k8s.io/v1", "kind": "CustomResourceDefinition",
  "metadata": {"name": "widgets.example.com"},
  "spec": {"group": "example.com", "scope": "Namespaced",
    "names": {"plural": "widgets", "singular": "widget", "kind": "Widget"},
    "versions": [{"name": "v1", "served": true, "storage": true,
      "schema": {"openAPIV3Schema": {"type": "object", "x-kubernetes-preserve-unknown-fields": true}}}]}
}`

var (
	podsGVR        = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	deploymentsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgetsGVR     = schema.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "widgets"}
)

// TestClientGoMetadataClient runs client-go's metadata client (what
// controller-runtime's metadata-only cache uses) against minicp: LIST,
// GET and WATCH of built-in kinds and a custom resource answer
// PartialObjectMetadata(List) in protobuf, holding the metadata a JSON
// client reads.
func TestClientGoMetadataClient(t *testing.T) {
	var crd apiextensionsv1.CustomResourceDefinition
	require.NoError(t, json.Unmarshal([]byte(widgetsCRD), &crd))
	c := startCluster(t, cluster.Options{CRDs: []*apiextensionsv1.CustomResourceDefinition{&crd}})
	rec := &recorder{}
	mc := metadata.NewForConfigOrDie(restConfig(c, "", rec))
	js := kubernetes.NewForConfigOrDie(restConfig(c, contentTypeJSON, nil))
	dyn := dynamic.NewForConfigOrDie(restConfig(c, contentTypeJSON, nil))
	ctx := t.Context()

	for _, name := range []string{"a", "b"} {
		_, err := js.CoreV1().Pods("default").Create(ctx, &kcorev1.Pod{
			ObjectMeta: kmetav1.ObjectMeta{Name: name, Labels: map[string]string{"app": name}, Annotations: map[string]string{"note": "x"}},
			Spec:       kcorev1.PodSpec{Containers: []kcorev1.Container{{Name: "c", Image: "busybox"}}},
		}, kmetav1.CreateOptions{})
		require.NoError(t, err, "create pod %s", name)
	}
	widget := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "example.com/v1", "kind": "Widget",
		"metadata": map[string]any{"name": "w", "labels": map[string]any{"size": "big"}},
		"spec":     map[string]any{"color": "blue"},
	}}
	_, err := dyn.Resource(widgetsGVR).Namespace("default").Create(ctx, widget, kmetav1.CreateOptions{})
	require.NoError(t, err, "create widget")

	t.Run("pods", func(t *testing.T) {
		pods, err := js.CoreV1().Pods("default").List(ctx, kmetav1.ListOptions{})
		require.NoError(t, err, "JSON LIST")
		want := make([]kmetav1.ObjectMeta, len(pods.Items))
		for i := range pods.Items {
			want[i] = pods.Items[i].ObjectMeta
		}
		checkMetadata(t, rec, mc.Resource(podsGVR).Namespace("default"), want, "c", func() {
			_, err := js.CoreV1().Pods("default").Create(ctx, &kcorev1.Pod{
				ObjectMeta: kmetav1.ObjectMeta{Name: "c"},
				Spec:       kcorev1.PodSpec{Containers: []kcorev1.Container{{Name: "c", Image: "busybox"}}},
			}, kmetav1.CreateOptions{})
			require.NoError(t, err, "create pod c")
		})
	})
	t.Run("deployments, none", func(t *testing.T) {
		list, err := mc.Resource(deploymentsGVR).Namespace("default").List(ctx, kmetav1.ListOptions{})
		require.NoError(t, err, "metadata LIST of no deployments")
		assert.Empty(t, list.Items)
		rec.assertAnswered(t, "metadata client", contentTypeProtobuf)
	})
	t.Run("custom resource", func(t *testing.T) {
		widgets, err := dyn.Resource(widgetsGVR).Namespace("default").List(ctx, kmetav1.ListOptions{})
		require.NoError(t, err, "JSON LIST of widgets")
		want := make([]kmetav1.ObjectMeta, len(widgets.Items))
		for i := range widgets.Items {
			b, err := json.Marshal(widgets.Items[i].Object["metadata"])
			require.NoError(t, err)
			require.NoError(t, json.Unmarshal(b, &want[i]))
		}
		checkMetadata(t, rec, mc.Resource(widgetsGVR).Namespace("default"), want, "w2", func() {
			w := widget.DeepCopy()
			w.SetName("w2")
			_, err := dyn.Resource(widgetsGVR).Namespace("default").Create(ctx, w, kmetav1.CreateOptions{})
			require.NoError(t, err, "create widget w2")
		})

		// The custom resource itself is never protobuf: a protobuf-only
		// client is refused (406), and told so in a Status it can read.
		pb := kubernetes.NewForConfigOrDie(restConfig(c, contentTypeProtobuf, nil))
		err = pb.CoreV1().RESTClient().Get().AbsPath("/apis/example.com/v1/namespaces/default/widgets/w").
			SetHeader("Accept", contentTypeProtobuf).Do(ctx).Error()
		require.Error(t, err, "protobuf-only GET of a widget")
		assert.Equal(t, kmetav1.StatusReasonNotAcceptable, apierrors.ReasonForError(err), "protobuf-only GET of a widget: %v", err)
	})
}

// checkMetadata lists, gets and watches through the metadata client mc
// and compares with want, the items' metadata as a JSON client reads it;
// create makes one more object, newName, which the watch must report.
func checkMetadata(t *testing.T, rec *recorder, mc metadata.ResourceInterface, want []kmetav1.ObjectMeta, newName string, create func()) {
	ctx := t.Context()
	rec.take()
	list, err := mc.List(ctx, kmetav1.ListOptions{})
	require.NoError(t, err, "metadata LIST")
	require.Len(t, list.Items, len(want), "items of the metadata LIST")
	for i := range list.Items {
		assertSemanticEqual(t, want[i], list.Items[i].ObjectMeta, "metadata of a LIST item")
	}
	got, err := mc.Get(ctx, want[0].Name, kmetav1.GetOptions{})
	require.NoError(t, err, "metadata GET")
	assertSemanticEqual(t, want[0], got.ObjectMeta, "metadata GET")

	w, err := mc.Watch(ctx, kmetav1.ListOptions{ResourceVersion: list.ResourceVersion})
	require.NoError(t, err, "metadata WATCH")
	defer w.Stop()
	create()
	select {
	case ev, ok := <-w.ResultChan():
		require.True(t, ok, "the metadata watch closed")
		require.Equal(t, watch.Added, ev.Type, "event %v", ev.Object)
		partial, ok := ev.Object.(*kmetav1.PartialObjectMetadata)
		require.True(t, ok, "the watch event carries a %T, want *PartialObjectMetadata", ev.Object)
		assert.NotEmpty(t, partial.UID, "uid of the watched object")
		assert.Equal(t, newName, partial.Name, "name of the watched object")
	case <-t.Context().Done():
		t.Fatal("test ended before a watch event")
	}
	rec.assertAnswered(t, "metadata client", contentTypeProtobuf, watchProtobuf)
}
