// Command deployment-flow plays the Deployment → ReplicaSet → Pod chain
// on a fresh minicp cluster and prints what each component did, in
// causal order, from the cluster's traces:
//
//  1. create a Deployment of 3 nginx pods: the deployment controller's
//     reconcile creates a ReplicaSet (revision 1), whose controller
//     creates the pods, which the scheduler binds and the kubelets run;
//  2. scale it to 5: the deployment controller scales its ReplicaSet;
//  3. roll out a new image: a second ReplicaSet (revision 2) grows while
//     the first shrinks, never past maxSurge or below maxUnavailable;
//  4. delete it with propagationPolicy Foreground (kubectl delete
//     --cascade=foreground): the garbage collector deletes what the
//     Deployment owns before the Deployment itself: the old ReplicaSet,
//     already empty, may go first; the pods go before the ReplicaSet
//     that owns them; the Deployment goes last.
//
// Each line is a write (or a hop) of the trace of the act's request: the
// span says who wrote and because of what, the object at the revision
// the write made says what changed. Run it with:
//
//	go run ./examples/deployment-flow
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/examples/internal/flowtrace"
	"github.com/minicp/minicp/tracing"
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
	tr := tracing.New(tracing.Options{})
	defer tr.Shutdown(context.WithoutCancel(ctx))
	// The flow never reaches a Service or a pod's address, so the cluster
	// leaves the host's Service network alone: the example runs beside a
	// `minicp up`, which holds it.
	opts := cluster.Options{Nodes: 3, Tracing: tr, DisableServiceNetwork: true}
	return cluster.Run(ctx, opts, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		if err := c.WaitIdle(ctx); err != nil {
			return err
		}
		writes, err := flowtrace.Watch(ctx,
			func(ctx context.Context) (watch.Interface, error) {
				return cs.Deployments("default").Watch(ctx, client.ListOptions{})
			},
			func(ctx context.Context) (watch.Interface, error) {
				return cs.ReplicaSets("default").Watch(ctx, client.ListOptions{})
			},
			func(ctx context.Context) (watch.Interface, error) {
				return cs.Pods("default").Watch(ctx, client.ListOptions{})
			},
		)
		if err != nil {
			return err
		}
		defer writes.Stop()
		p := &player{c: c, cs: cs, rec: tr.Recorder(), writes: writes, out: out}
		return p.play(ctx)
	})
}

// player walks the Deployment through the four acts and prints each.
type player struct {
	c      *cluster.Cluster
	cs     *client.Clientset
	rec    *tracing.Recorder
	writes *flowtrace.Writes
	out    io.Writer
}

func (p *player) play(ctx context.Context) error {
	deployments := p.cs.Deployments("default")

	act, err := p.playAct(ctx, "1. create deployment "+name+": 3 replicas of nginx:1.26", "create", 3, func() error {
		_, err := deployments.Create(ctx, newDeployment(), client.WriteOptions{})
		return err
	})
	if err != nil {
		return err
	}

	if _, err = p.playAct(ctx, "2. scale to 5", "patch", 5, func() error {
		_, err := deployments.Patch(ctx, name, client.MergePatchType, []byte(`{"spec":{"replicas":5}}`), client.WriteOptions{})
		return err
	}); err != nil {
		return err
	}

	patch := `{"spec":{"template":{"spec":{"containers":[{"name":"nginx","image":"nginx:1.27"}]}}}}`
	if act, err = p.playAct(ctx, "3. roll out nginx:1.27 (maxSurge 1, maxUnavailable 1)", "patch", 5, func() error {
		_, err := deployments.Patch(ctx, name, client.StrategicMergePatchType, []byte(patch), client.WriteOptions{})
		return err
	}); err != nil {
		return err
	}
	peak, low := extremes(p.writes, act)
	fmt.Fprintf(p.out, "  at any written state: at most %d pods (5 + maxSurge 1), at least %d ready (5 - maxUnavailable 1)\n", peak, low)

	foreground := metav1.DeletePropagationForeground
	if act, err = p.playAct(ctx, "4. delete with propagationPolicy Foreground", "delete", 0, func() error {
		return deployments.Delete(ctx, name, metav1.DeleteOptions{PropagationPolicy: &foreground})
	}); err != nil {
		return err
	}
	return p.printDeletions(ctx, act)
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
