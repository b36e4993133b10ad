package wire

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	batchv1 "github.com/minicp/minicp/api/batch/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/cluster/clustertest"
)

// ns is the namespace the flows run in.
const ns = "wire"

// startTimeout bounds the cluster's start: an embedded etcd, the API
// server, every controller, the scheduler and two kubelets are up in well
// under a second; a minute is for a loaded machine under -race.
const startTimeout = time.Minute

// startCluster starts a cluster of two nodes (kubelets, so the scheduler
// too) and every controller (Options.Controllers nil), waits until it is
// Ready, and stops it when the test ends. It returns the cluster and an
// admin clientset.
func startCluster(t *testing.T) (*cluster.Cluster, *client.Clientset) {
	t.Helper()
	c, err := cluster.New(cluster.Options{Nodes: 2})
	require.NoError(t, err, "cluster.New")
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- c.Start(ctx) }()
	t.Cleanup(func() {
		stop()
		if err := <-done; err != nil && !errors.Is(err, context.Canceled) {
			t.Errorf("cluster stopped with %v", err)
		}
	})
	wait, cancel := context.WithTimeout(t.Context(), startTimeout)
	defer cancel()
	select {
	case <-c.Ready():
	case err := <-done:
		done <- err // for the cleanup
		t.Fatalf("cluster did not start: %v", err)
	case <-wait.Done():
		t.Fatalf("cluster not Ready within %v", startTimeout)
	}
	cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token()})
	require.NoError(t, err, "client.New")
	t.Cleanup(cl.CloseIdleConnections)
	cs, err := client.NewClientset(cl)
	require.NoError(t, err, "client.NewClientset")
	return c, cs
}

// runFlows makes the cluster produce one object of each built-in kind the
// way its users make them, and waits for the controllers, the scheduler
// and the kubelets to finish with them:
//
//  1. a Namespace, whose default ServiceAccount the serviceaccount
//     controller creates;
//  2. a ConfigMap and a Secret, which the Deployment's pods use;
//  3. a Deployment of two nginx pods, available, then rolled out to
//     another image: two ReplicaSets (the old one scaled to 0), pods that
//     kubelets run and a readiness probe passes, Events;
//  4. a Service selecting them, with its Endpoints, and a headless one;
//  5. a Job that completes and one that fails, with terminated pods;
//  6. a bare pod, running and ready.
//
// Nodes, their Leases and the system namespaces exist from the start.
func runFlows(t *testing.T, cs *client.Clientset) {
	ctx := t.Context()
	create := func(what string, err error) {
		t.Helper()
		require.NoError(t, err, "create %s", what)
	}

	_, err := cs.Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name: ns, Labels: map[string]string{"team": "wire"},
	}}, client.WriteOptions{})
	create("namespace", err)
	clustertest.WaitFor(t, cs.ServiceAccounts(ns), "default", "created by the serviceaccount controller",
		func(_ *corev1.ServiceAccount, found bool) bool { return found })

	_, err = cs.ConfigMaps(ns).Create(ctx, &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: "settings"},
		// <, > and & are escaped alike on both sides.
		Data:       map[string]string{"greeting": "hello <world> & all", "index.html": "<h1>hi</h1>\n"},
		BinaryData: map[string][]byte{"blob": {0, 1, 2, 0xff}},
	}, client.WriteOptions{})
	create("configmap", err)
	_, err = cs.Secrets(ns).Create(ctx, &corev1.Secret{
		ObjectMeta: metav1.ObjectMeta{Name: "credentials", Annotations: map[string]string{"owner": "wire"}},
		Type:       corev1.SecretTypeOpaque,
		Data:       map[string][]byte{"token": []byte("abc")},
		StringData: map[string]string{"password": "s3cret"},
	}, client.WriteOptions{})
	create("secret", err)

	replicas := int32(2)
	_, err = cs.Deployments(ns).Create(ctx, &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Labels: map[string]string{"app": "web"}},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}, Annotations: map[string]string{"team": "wire"}},
				Spec:       webPodSpec(),
			},
		},
	}, client.WriteOptions{})
	create("deployment", err)

	_, err = cs.Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web"},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromString("http")}},
		},
	}, client.WriteOptions{})
	create("service", err)
	_, err = cs.Services(ns).Create(ctx, &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web-headless"},
		Spec: corev1.ServiceSpec{
			ClusterIP: corev1.ClusterIPNone,
			Selector:  map[string]string{"app": "web"},
			Ports:     []corev1.ServicePort{{Name: "http", Port: 80}},
		},
	}, client.WriteOptions{})
	create("headless service", err)

	_, err = cs.Jobs(ns).Create(ctx, newJob("once", "echo done", 2), client.WriteOptions{})
	create("job once", err)
	_, err = cs.Jobs(ns).Create(ctx, newJob("fails", "echo oops; exit 3", 0), client.WriteOptions{})
	create("job fails", err)

	_, err = cs.Pods(ns).Create(ctx, &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "solo", Labels: map[string]string{"app": "solo"}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "main", Image: "busybox:1.36", Command: []string{"sh", "-c", "echo started; sleep 3600"},
		}}},
	}, client.WriteOptions{})
	create("pod", err)

	rolledOut := func(d *appsv1.Deployment, found bool) bool {
		return found && d.Status.ObservedGeneration == d.Generation &&
			d.Status.Replicas == 2 && d.Status.UpdatedReplicas == 2 && d.Status.AvailableReplicas == 2
	}
	d := clustertest.WaitFor(t, cs.Deployments(ns), "web", "available with 2 up-to-date replicas", rolledOut)
	// A rollout leaves the first ReplicaSet scaled to 0, its status all
	// zeros.
	d.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
	_, err = cs.Deployments(ns).Update(ctx, d, client.WriteOptions{})
	require.NoError(t, err, "update deployment")
	clustertest.WaitFor(t, cs.Deployments(ns), "web", "rolled out to nginx:1.28", rolledOut)
	clustertest.WaitFor(t, cs.Endpoints(ns), "web", "2 ready addresses",
		func(ep *corev1.Endpoints, found bool) bool {
			return found && len(ep.Subsets) == 1 && len(ep.Subsets[0].Addresses) == 2
		})
	clustertest.WaitFor(t, cs.Jobs(ns), "once", "Complete", jobCondition(batchv1.JobComplete))
	clustertest.WaitFor(t, cs.Jobs(ns), "fails", "Failed", jobCondition(batchv1.JobFailed))
	clustertest.WaitFor(t, cs.Pods(ns), "solo", "running and ready", func(p *corev1.Pod, found bool) bool {
		if !found || p.Status.Phase != corev1.PodRunning {
			return false
		}
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodReady {
				return c.Status == corev1.ConditionTrue
			}
		}
		return false
	})
	waitForEvent(t, cs, "solo", "Started")
}

// webPodSpec is the Deployment's pod: nginx behind a readiness probe,
// with resources, environment from the ConfigMap, the Secret and the
// downward API, and the ConfigMap mounted. The references to the
// ConfigMap and the Secret are optional: the simulated kubelet resolves
// none yet, and skips optional ones.
func webPodSpec() corev1.PodSpec {
	optional := true
	return corev1.PodSpec{
		Containers: []corev1.Container{{
			Name:  "nginx",
			Image: "nginx:1.27",
			Ports: []corev1.ContainerPort{{Name: "http", ContainerPort: 80}},
			Env: []corev1.EnvVar{
				{Name: "GREETING", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{
					LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}, Key: "greeting", Optional: &optional}}},
				{Name: "POD_NAME", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
				{Name: "MODE", Value: "wire"},
			},
			EnvFrom: []corev1.EnvFromSource{{SecretRef: &corev1.SecretEnvSource{
				LocalObjectReference: corev1.LocalObjectReference{Name: "credentials"}, Optional: &optional}}},
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), corev1.ResourceMemory: resource.MustParse("64Mi")},
				Limits:   corev1.ResourceList{corev1.ResourceMemory: resource.MustParse("128Mi")},
			},
			ReadinessProbe: &corev1.Probe{ProbeHandler: corev1.ProbeHandler{
				HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromString("http")},
			}},
			VolumeMounts: []corev1.VolumeMount{{Name: "config", MountPath: "/etc/web", ReadOnly: true}},
		}},
		Volumes: []corev1.Volume{{Name: "config", VolumeSource: corev1.VolumeSource{
			ConfigMap: &corev1.ConfigMapVolumeSource{LocalObjectReference: corev1.LocalObjectReference{Name: "settings"}},
		}}},
	}
}

// newJob is a one-completion Job running a busybox shell script.
func newJob(name, script string, backoffLimit int32) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: batchv1.JobSpec{
			BackoffLimit: &backoffLimit,
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyNever,
				Containers:    []corev1.Container{{Name: "main", Image: "busybox:1.36", Command: []string{"sh", "-c", script}}},
			}},
		},
	}
}

// jobCondition is a WaitFor condition: the Job has condition typ True.
func jobCondition(typ batchv1.JobConditionType) func(*batchv1.Job, bool) bool {
	return func(j *batchv1.Job, found bool) bool {
		if !found {
			return false
		}
		for _, c := range j.Status.Conditions {
			if c.Type == typ && c.Status == corev1.ConditionTrue {
				return true
			}
		}
		return false
	}
}

// waitForEvent watches the namespace's Events until one about the object
// named involved has the reason. The watch starts with the Events that
// exist already, so one recorded before it is seen too.
func waitForEvent(t *testing.T, cs *client.Clientset, involved, reason string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), clustertest.WaitTimeout)
	defer cancel()
	w, err := cs.Events(ns).Watch(ctx, client.ListOptions{})
	require.NoError(t, err, "watch events")
	defer w.Stop()
	for ev := range w.ResultChan() {
		e, ok := ev.Object.(*corev1.Event)
		if ok && ev.Type != watch.Deleted && e.InvolvedObject.Name == involved && e.Reason == reason {
			return
		}
	}
	t.Fatalf("no %s event about %s within %v", reason, involved, clustertest.WaitTimeout)
}
