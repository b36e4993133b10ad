package protobuf

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	kappsv1 "k8s.io/api/apps/v1"
	kcorev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"github.com/minicp/minicp/cluster"
)

// typedClient is the part of a client-go typed client (PodInterface,
// DeploymentInterface, ...) the verbs test uses.
type typedClient[T, L kruntime.Object] interface {
	Create(ctx context.Context, obj T, opts kmetav1.CreateOptions) (T, error)
	Update(ctx context.Context, obj T, opts kmetav1.UpdateOptions) (T, error)
	Get(ctx context.Context, name string, opts kmetav1.GetOptions) (T, error)
	List(ctx context.Context, opts kmetav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts kmetav1.ListOptions) (watch.Interface, error)
	Delete(ctx context.Context, name string, opts kmetav1.DeleteOptions) error
}

// eventTimeout bounds a wait for a watch event; a passing test never
// waits it out.
const eventTimeout = 30 * time.Second

// TestClientGoTypedProtobuf runs client-go's typed clientset, configured
// for protobuf as kubectl and controllers are, against minicp: CREATE,
// GET, LIST, UPDATE, WATCH and DELETE of pods and deployments, every
// answer in protobuf, each decoded result the one a JSON clientset gets.
func TestClientGoTypedProtobuf(t *testing.T) {
	c := startCluster(t, cluster.Options{})
	rec := &recorder{}
	pb := kubernetes.NewForConfigOrDie(restConfig(c, contentTypeProtobuf, rec))
	js := kubernetes.NewForConfigOrDie(restConfig(c, contentTypeJSON, nil))

	t.Run("pods", func(t *testing.T) {
		pod := &kcorev1.Pod{
			ObjectMeta: kmetav1.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
			Spec: kcorev1.PodSpec{Containers: []kcorev1.Container{{
				Name: "web", Image: "nginx:1.27", Ports: []kcorev1.ContainerPort{{ContainerPort: 80}},
			}}},
		}
		exerciseVerbs[*kcorev1.Pod, *kcorev1.PodList](t, rec, pb.CoreV1().Pods("default"), js.CoreV1().Pods("default"), pod,
			func(p *kcorev1.Pod) { p.Labels["tier"] = "front" })
	})
	t.Run("deployments", func(t *testing.T) {
		replicas := int32(3)
		deploy := &kappsv1.Deployment{
			ObjectMeta: kmetav1.ObjectMeta{Name: "web"},
			Spec: kappsv1.DeploymentSpec{
				Replicas: &replicas,
				Selector: &kmetav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
				Template: kcorev1.PodTemplateSpec{
					ObjectMeta: kmetav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
					Spec:       kcorev1.PodSpec{Containers: []kcorev1.Container{{Name: "web", Image: "nginx:1.27"}}},
				},
			},
		}
		exerciseVerbs[*kappsv1.Deployment, *kappsv1.DeploymentList](t, rec, pb.AppsV1().Deployments("default"), js.AppsV1().Deployments("default"), deploy,
			func(d *kappsv1.Deployment) { *d.Spec.Replicas = 5 })
	})
	t.Run("subresources", func(t *testing.T) {
		ctx := t.Context()
		replicas := int32(1)
		_, err := js.AppsV1().Deployments("default").Create(ctx, &kappsv1.Deployment{
			ObjectMeta: kmetav1.ObjectMeta{Name: "scaled"},
			Spec: kappsv1.DeploymentSpec{
				Replicas: &replicas,
				Selector: &kmetav1.LabelSelector{MatchLabels: map[string]string{"app": "scaled"}},
				Template: kcorev1.PodTemplateSpec{
					ObjectMeta: kmetav1.ObjectMeta{Labels: map[string]string{"app": "scaled"}},
					Spec:       kcorev1.PodSpec{Containers: []kcorev1.Container{{Name: "c", Image: "busybox"}}},
				},
			},
		}, kmetav1.CreateOptions{})
		require.NoError(t, err, "create deployment")
		rec.take()
		scale, err := pb.AppsV1().Deployments("default").GetScale(ctx, "scaled", kmetav1.GetOptions{})
		require.NoError(t, err, "protobuf GET scale")
		assert.Equal(t, int32(1), scale.Spec.Replicas)
		scale.Spec.Replicas = 4
		scale, err = pb.AppsV1().Deployments("default").UpdateScale(ctx, "scaled", scale, kmetav1.UpdateOptions{})
		require.NoError(t, err, "protobuf PUT scale")
		assert.Equal(t, int32(4), scale.Spec.Replicas)

		_, err = js.CoreV1().Pods("default").Create(ctx, &kcorev1.Pod{
			ObjectMeta: kmetav1.ObjectMeta{Name: "unbound"},
			Spec:       kcorev1.PodSpec{Containers: []kcorev1.Container{{Name: "c", Image: "busybox"}}},
		}, kmetav1.CreateOptions{})
		require.NoError(t, err, "create pod")
		require.NoError(t, pb.CoreV1().Pods("default").Bind(ctx, &kcorev1.Binding{
			ObjectMeta: kmetav1.ObjectMeta{Name: "unbound"},
			Target:     kcorev1.ObjectReference{Kind: "Node", Name: "n1"},
		}, kmetav1.CreateOptions{}), "protobuf POST binding")
		bound, err := js.CoreV1().Pods("default").Get(ctx, "unbound", kmetav1.GetOptions{})
		require.NoError(t, err)
		assert.Equal(t, "n1", bound.Spec.NodeName, "node of the bound pod")
		rec.assertAnswered(t, "subresources", contentTypeProtobuf)
	})
}

// exerciseVerbs creates obj through pb, then reads, lists, updates (with
// change) and deletes it, comparing each result with what js (a JSON
// client) reads, and checks that a protobuf watch and a JSON watch see
// the same events. Every answer pb got must have been protobuf.
func exerciseVerbs[T, L kruntime.Object](t *testing.T, rec *recorder, pb, js typedClient[T, L], obj T, change func(T)) {
	ctx := t.Context()
	rec.take()
	list, err := pb.List(ctx, kmetav1.ListOptions{})
	require.NoError(t, err, "protobuf LIST")
	listMeta, err := meta.ListAccessor(list)
	require.NoError(t, err)
	pbWatch, err := pb.Watch(ctx, kmetav1.ListOptions{ResourceVersion: listMeta.GetResourceVersion()})
	require.NoError(t, err, "protobuf WATCH")
	defer pbWatch.Stop()
	jsWatch, err := js.Watch(ctx, kmetav1.ListOptions{ResourceVersion: listMeta.GetResourceVersion()})
	require.NoError(t, err, "JSON WATCH")
	defer jsWatch.Stop()

	created, err := pb.Create(ctx, obj, kmetav1.CreateOptions{})
	require.NoError(t, err, "protobuf CREATE")
	name := mustAccessor(t, created).GetName()
	assert.NotEmpty(t, mustAccessor(t, created).GetUID(), "uid of the created object")

	got, err := pb.Get(ctx, name, kmetav1.GetOptions{})
	require.NoError(t, err, "protobuf GET")
	want, err := js.Get(ctx, name, kmetav1.GetOptions{})
	require.NoError(t, err, "JSON GET")
	assertSemanticEqual(t, want, got, "GET")
	assertSemanticEqual(t, created, got, "CREATE's answer and GET")

	pbList, err := pb.List(ctx, kmetav1.ListOptions{})
	require.NoError(t, err, "protobuf LIST")
	jsList, err := js.List(ctx, kmetav1.ListOptions{})
	require.NoError(t, err, "JSON LIST")
	assertSemanticEqual(t, jsList, pbList, "LIST")
	assert.Equal(t, 1, meta.LenList(pbList), "items of the protobuf LIST")

	change(got)
	updated, err := pb.Update(ctx, got, kmetav1.UpdateOptions{})
	require.NoError(t, err, "protobuf UPDATE")
	want, err = js.Get(ctx, name, kmetav1.GetOptions{})
	require.NoError(t, err, "JSON GET after UPDATE")
	assertSemanticEqual(t, want, updated, "UPDATE")

	require.NoError(t, pb.Delete(ctx, name, kmetav1.DeleteOptions{}), "protobuf DELETE")
	_, err = pb.Get(ctx, name, kmetav1.GetOptions{})
	assert.True(t, apierrors.IsNotFound(err), "protobuf GET after DELETE = %v, want NotFound", err)

	pbEvents := eventsUntilDeleted(t, pbWatch)
	jsEvents := eventsUntilDeleted(t, jsWatch)
	require.Len(t, pbEvents, len(jsEvents), "protobuf and JSON watches see as many events")
	assert.Equal(t, watch.Added, pbEvents[0].Type, "first event")
	for i := range pbEvents {
		assert.Equal(t, jsEvents[i].Type, pbEvents[i].Type, "type of event %d", i)
		assertSemanticEqual(t, jsEvents[i].Object, pbEvents[i].Object, "object of watch event")
	}
	rec.assertAnswered(t, "typed clientset", contentTypeProtobuf, watchProtobuf)
}

// eventsUntilDeleted collects w's events up to the first DELETED.
func eventsUntilDeleted(t *testing.T, w watch.Interface) []watch.Event {
	t.Helper()
	timer := time.NewTimer(eventTimeout)
	defer timer.Stop()
	var events []watch.Event
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "watch closed after %d events", len(events))
			require.NotEqual(t, watch.Error, ev.Type, "watch error: %v", ev.Object)
			events = append(events, ev)
			if ev.Type == watch.Deleted {
				return events
			}
		case <-timer.C:
			t.Fatalf("no DELETED event within %s; got %d events", eventTimeout, len(events))
		}
	}
}

func mustAccessor(t *testing.T, obj kruntime.Object) kmetav1.Object {
	t.Helper()
	m, err := meta.Accessor(obj)
	require.NoError(t, err, "metadata of %T", obj)
	return m
}

// TestClientGoProtobufErrors: a protobuf client reads minicp's errors as
// the Status errors client-go's predicates classify, with their details.
func TestClientGoProtobufErrors(t *testing.T) {
	c := startCluster(t, cluster.Options{})
	rec := &recorder{}
	pb := kubernetes.NewForConfigOrDie(restConfig(c, contentTypeProtobuf, rec))
	ctx := t.Context()

	_, err := pb.CoreV1().Pods("default").Get(ctx, "missing", kmetav1.GetOptions{})
	require.True(t, apierrors.IsNotFound(err), "GET of a missing pod = %v, want NotFound", err)
	var status apierrors.APIStatus
	require.ErrorAs(t, err, &status)
	assert.Equal(t, "missing", status.Status().Details.Name, "details of the NotFound")

	_, err = pb.CoreV1().Pods("default").Create(ctx, &kcorev1.Pod{
		ObjectMeta: kmetav1.ObjectMeta{Name: "bad"},
		Spec:       kcorev1.PodSpec{Containers: []kcorev1.Container{{Name: "c"}}},
	}, kmetav1.CreateOptions{})
	require.True(t, apierrors.IsInvalid(err), "CREATE of a pod without an image = %v, want Invalid", err)
	require.ErrorAs(t, err, &status)
	require.NotEmpty(t, status.Status().Details.Causes, "causes of the Invalid")
	assert.Equal(t, "spec.containers[0].image", status.Status().Details.Causes[0].Field)
	rec.assertAnswered(t, "errors", contentTypeProtobuf)
}
