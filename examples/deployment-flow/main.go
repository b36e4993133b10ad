// Command deployment-flow plays the Deployment → ReplicaSet → Pod chain
// on a fresh minicp cluster and prints what each controller did, in etcd
// order:
//
//  1. create a Deployment of 3 nginx pods: the deployment controller
//     creates a ReplicaSet (revision 1), whose controller creates the
//     pods, which the scheduler binds and the kubelets run;
//  2. scale it to 5: the deployment controller scales its ReplicaSet;
//  3. roll out a new image: a second ReplicaSet (revision 2) grows while
//     the first shrinks, never past maxSurge or below maxUnavailable;
//  4. delete it with propagationPolicy Foreground (kubectl delete
//     --cascade=foreground): the garbage collector deletes what the
//     Deployment owns before the Deployment itself: the old ReplicaSet,
//     already empty, may go first; the pods go before the ReplicaSet
//     that owns them; the Deployment goes last.
//
// Run it with:
//
//	go run ./examples/deployment-flow
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
)

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "deployment-flow:", err)
		os.Exit(1)
	}
}

// name is the Deployment the example follows.
const name = "web"

func run(ctx context.Context, out io.Writer) error {
	return cluster.Run(ctx, cluster.Options{Nodes: 3}, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		if err := c.WaitIdle(ctx); err != nil {
			return err
		}
		return play(ctx, cs, out)
	})
}

// play walks the Deployment through the four acts and prints each.
func play(ctx context.Context, cs *client.Clientset, out io.Writer) error {
	obs, err := observe(ctx, cs, out)
	if err != nil {
		return err
	}
	defer obs.stop()
	deployments := cs.Deployments("default")

	obs.section("1. create deployment " + name + ": 3 replicas of nginx:1.26")
	d, err := deployments.Create(ctx, newDeployment(), client.WriteOptions{})
	if err != nil {
		return fmt.Errorf("create: %w", err)
	}
	if err := obs.waitRolledOut(ctx, d.Generation, 3); err != nil {
		return err
	}

	obs.section("2. scale to 5")
	if d, err = deployments.Patch(ctx, name, client.MergePatchType, []byte(`{"spec":{"replicas":5}}`), client.WriteOptions{}); err != nil {
		return fmt.Errorf("scale: %w", err)
	}
	if err := obs.waitRolledOut(ctx, d.Generation, 5); err != nil {
		return err
	}

	obs.section("3. roll out nginx:1.27 (maxSurge 1, maxUnavailable 1)")
	patch := `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}`
	if d, err = deployments.Patch(ctx, name, client.StrategicMergePatchType, []byte(patch), client.WriteOptions{}); err != nil {
		return fmt.Errorf("set image: %w", err)
	}
	if err := obs.waitRolledOut(ctx, d.Generation, 5); err != nil {
		return err
	}
	obs.flush()
	peak, low := obs.extremes()
	fmt.Fprintf(out, "  at any observed state: at most %d pods (5 + maxSurge 1), at least %d ready (5 - maxUnavailable 1)\n", peak, low)

	obs.section("4. delete with propagationPolicy Foreground")
	foreground := metav1.DeletePropagationForeground
	if err := deployments.Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &foreground}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	if err := obs.waitDeploymentGone(ctx); err != nil {
		return err
	}
	obs.flush()
	fmt.Fprintf(out, "  deleted in this order: %s\n", strings.Join(obs.deletionOrder(), ", "))
	return nil
}

// newDeployment is 3 nginx pods rolled out one extra and one missing at a
// time.
func newDeployment() *appsv1.Deployment {
	replicas := int32(3)
	one := intstr.FromInt32(1)
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Strategy: appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &one, MaxUnavailable: &one},
			},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "nginx", Image: "nginx:1.26",
					Ports: []corev1.ContainerPort{{ContainerPort: 80}},
				}}},
			},
		},
	}
}
