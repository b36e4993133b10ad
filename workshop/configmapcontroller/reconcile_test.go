package configmapcontroller

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster/clustertest"
	"github.com/minicp/minicp/controllers/reconcile"
	"github.com/minicp/minicp/workshop/workshoptest"
)

func newConfigMap(name, image, replicas string) *corev1.ConfigMap {
	data := map[string]string{ImageKey: image}
	if replicas != "" {
		data[ReplicasKey] = replicas
	}
	return &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default", Labels: map[string]string{DeployLabel: "true"}},
		Data:       data,
	}
}

func request(name string) reconcile.Request {
	return reconcile.Request{NamespacedName: reconcile.NamespacedName{Namespace: "default", Name: name}}
}

// requireDeployment checks that d is what a ConfigMap of that image and
// replica count, with uid, asks for.
func requireDeployment(t *testing.T, d *appsv1.Deployment, ownerUID, image string, replicas int32) {
	t.Helper()
	require.NotNil(t, d.Spec.Replicas, "deployment %s: spec.replicas", d.Name)
	require.Equal(t, replicas, *d.Spec.Replicas, "deployment %s: spec.replicas", d.Name)
	require.Len(t, d.Spec.Template.Spec.Containers, 1, "deployment %s: one container", d.Name)
	require.Equal(t, image, d.Spec.Template.Spec.Containers[0].Image, "deployment %s: the container's image", d.Name)
	require.Equal(t, map[string]string{AppLabel: d.Name}, d.Spec.Template.Labels, "deployment %s: the pods' labels", d.Name)
	ref := d.ControllerRef()
	require.NotNil(t, ref, "deployment %s: no ownerReference with controller: true", d.Name)
	require.Equal(t, "ConfigMap", ref.Kind, "deployment %s: the controller's kind", d.Name)
	require.Equal(t, ownerUID, ref.UID, "deployment %s: the controller is not its ConfigMap (uid)", d.Name)
}

// TestReconcile calls Reconcile by hand, as the controller's workers
// would, and checks what each call leaves in the API server.
func TestReconcile(t *testing.T) {
	workshoptest.Require(t)
	c := clustertest.New(t, clustertest.WithNodes(0), clustertest.WithControllers())
	cs := c.Clientset()
	ctx := t.Context()
	r := NewReconciler(cs)
	deployments := cs.Deployments("default")

	cm, err := cs.ConfigMaps("default").Create(ctx, newConfigMap("web", "nginx:1.27", "2"), client.WriteOptions{})
	require.NoError(t, err, "create configmap web")
	_, err = r.Reconcile(ctx, request("web"))
	workshoptest.Check(t, err, "Reconcile(default/web), the first time")
	d, err := deployments.Get(ctx, "web", client.GetOptions{})
	require.NoError(t, err, "after Reconcile(default/web): get deployment web")
	requireDeployment(t, d, cm.UID, "nginx:1.27", 2)

	t.Run("idempotent", func(t *testing.T) {
		_, err := r.Reconcile(ctx, request("web"))
		workshoptest.Check(t, err, "Reconcile(default/web), nothing changed")
		again, err := deployments.Get(ctx, "web", client.GetOptions{})
		require.NoError(t, err, "get deployment web")
		require.Equal(t, d.ResourceVersion, again.ResourceVersion,
			"a Reconcile that finds the Deployment as wanted must not write it")
	})

	t.Run("the ConfigMap changes", func(t *testing.T) {
		cm, err := cs.ConfigMaps("default").Get(ctx, "web", client.GetOptions{})
		require.NoError(t, err, "get configmap web")
		cm.Data = map[string]string{ImageKey: "nginx:1.28", ReplicasKey: "3"}
		_, err = cs.ConfigMaps("default").Update(ctx, cm, client.WriteOptions{})
		require.NoError(t, err, "update configmap web")
		_, err = r.Reconcile(ctx, request("web"))
		workshoptest.Check(t, err, "Reconcile(default/web) after the ConfigMap changed")
		d, err := deployments.Get(ctx, "web", client.GetOptions{})
		require.NoError(t, err, "get deployment web")
		requireDeployment(t, d, cm.UID, "nginx:1.28", 3)
	})

	t.Run("replicas default to 1", func(t *testing.T) {
		cm, err := cs.ConfigMaps("default").Create(ctx, newConfigMap("api", "busybox", ""), client.WriteOptions{})
		require.NoError(t, err, "create configmap api")
		_, err = r.Reconcile(ctx, request("api"))
		workshoptest.Check(t, err, "Reconcile(default/api)")
		d, err := deployments.Get(ctx, "api", client.GetOptions{})
		require.NoError(t, err, "get deployment api")
		requireDeployment(t, d, cm.UID, "busybox", 1)
	})

	t.Run("unlabelled and missing ConfigMaps", func(t *testing.T) {
		plain := newConfigMap("plain", "nginx", "1")
		plain.Labels = nil
		_, err := cs.ConfigMaps("default").Create(ctx, plain, client.WriteOptions{})
		require.NoError(t, err, "create configmap plain")
		for _, name := range []string{"plain", "missing"} {
			_, err = r.Reconcile(ctx, request(name))
			workshoptest.Check(t, err, "Reconcile(default/"+name+")")
			_, err = deployments.Get(ctx, name, client.GetOptions{})
			require.True(t, apierrors.IsNotFound(err), "Reconcile(default/%s) must create no Deployment; get: %v", name, err)
		}
	})
}

// TestController runs the controller in a manager: now the informers'
// events call Reconcile, and the garbage collector follows the
// ownerReferences.
func TestController(t *testing.T) {
	workshoptest.Require(t)
	c := clustertest.New(t, clustertest.WithNodes(0), clustertest.WithControllers("garbage-collector-controller"))
	cs := c.Clientset()
	ctx := t.Context()
	// A first Reconcile by hand, so that a skeleton fails here, at once.
	cm, err := cs.ConfigMaps("default").Create(ctx, newConfigMap("shop", "nginx:1.27", "1"), client.WriteOptions{})
	require.NoError(t, err, "create configmap shop")
	_, err = NewReconciler(cs).Reconcile(ctx, request("shop"))
	workshoptest.Check(t, err, "Reconcile(default/shop)")
	clustertest.StartManager(t, cs.Client(), nil, Add)
	deployments := cs.Deployments("default")

	cm.Data[ReplicasKey] = "4"
	_, err = cs.ConfigMaps("default").Update(ctx, cm, client.WriteOptions{})
	require.NoError(t, err, "update configmap shop")
	clustertest.WaitFor(t, deployments, "shop", "spec.replicas follows the ConfigMap to 4",
		func(d *appsv1.Deployment, found bool) bool {
			return found && d.Spec.Replicas != nil && *d.Spec.Replicas == 4
		})

	old, err := deployments.Get(ctx, "shop", client.GetOptions{})
	require.NoError(t, err, "get deployment shop")
	require.NoError(t, deployments.Delete(ctx, "shop", metav1.DeleteOptions{}), "delete deployment shop")
	clustertest.WaitFor(t, deployments, "shop", "a Deployment deleted by hand comes back (does the controller watch what it Owns?)",
		func(d *appsv1.Deployment, found bool) bool { return found && d.UID != old.UID })

	require.NoError(t, cs.ConfigMaps("default").Delete(ctx, "shop", metav1.DeleteOptions{}), "delete configmap shop")
	clustertest.WaitFor(t, deployments, "shop", "the garbage collector deletes the Deployment of a deleted ConfigMap",
		func(_ *appsv1.Deployment, found bool) bool { return !found })
}
