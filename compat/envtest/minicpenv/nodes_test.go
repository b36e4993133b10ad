package minicpenv_test

import (
	"context"
	"testing"

	"github.com/stretchr/testify/require"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/minicp/minicp/compat/envtest/minicpenv"
)

// TestControllersAndNodes runs minicp's controllers, scheduler and a node,
// which envtest cannot: a Deployment's pod is created, scheduled and runs.
func TestControllersAndNodes(t *testing.T) {
	env := &minicpenv.Environment{Controllers: []string{"*"}, Nodes: 1}
	cfg := start(t, env)
	require.NotNil(t, env.Cluster(), "Cluster")
	ctx, cancel := context.WithTimeout(context.Background(), testTimeout)
	defer cancel()
	c, err := client.NewWithWatch(cfg, client.Options{})
	require.NoError(t, err, "client.NewWithWatch")

	labels := map[string]string{"app": "web"}
	// Watch from before the create, so no pod event is missed.
	w, err := c.Watch(ctx, &corev1.PodList{}, client.InNamespace("default"), client.MatchingLabels(labels))
	require.NoError(t, err, "watch pods")
	defer w.Stop()
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: ptr.To[int32](1),
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
			},
		},
	}
	require.NoError(t, c.Create(ctx, d), "create Deployment")
	for {
		select {
		case ev, ok := <-w.ResultChan():
			require.True(t, ok, "the pod watch ended")
			pod, isPod := ev.Object.(*corev1.Pod)
			if ev.Type != watch.Error && isPod && pod.Status.Phase == corev1.PodRunning {
				require.NotEmpty(t, pod.Spec.NodeName, "the running pod's node")
				return
			}
		case <-ctx.Done():
			t.Fatalf("no pod of the Deployment is Running: %v", ctx.Err())
		}
	}
}
