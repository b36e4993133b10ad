package replicaset_test

import (
	"context"
	"fmt"
	"time"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
	"github.com/minicp/minicp/controllers/manager"
	"github.com/minicp/minicp/controllers/replicaset"
)

// A cluster with a node and no controller-manager, and a Manager that
// runs only the ReplicaSet controller: a ReplicaSet of two becomes two
// running pods, each controlled by it.
func ExampleAdd() {
	err := cluster.Run(context.Background(), cluster.Options{Nodes: 1, Controllers: []string{}}, func(ctx context.Context, _ *cluster.Cluster, cs *client.Clientset) error {
		mgr, err := manager.New(manager.Options{Client: cs.Client()})
		if err != nil {
			return err
		}
		if err := replicaset.Add(mgr); err != nil {
			return err
		}
		mgrCtx, stopManager := context.WithCancel(ctx)
		managerDone := make(chan error, 1)
		go func() { managerDone <- mgr.Start(mgrCtx) }()
		defer func() {
			stopManager()
			fmt.Println("manager stopped:", <-managerDone)
		}()

		two := int32(2)
		web := map[string]string{"app": "web"}
		_, err = cs.ReplicaSets("default").Create(ctx, &appsv1.ReplicaSet{
			ObjectMeta: metav1.ObjectMeta{Name: "web"},
			Spec: appsv1.ReplicaSetSpec{
				Replicas: &two,
				Selector: &metav1.LabelSelector{MatchLabels: web},
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: web},
					Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "nginx", Image: "nginx"}}},
				},
			},
		}, client.WriteOptions{})
		if err != nil {
			return err
		}

		watchCtx, stopWatch := context.WithTimeout(ctx, time.Minute)
		defer stopWatch()
		w, err := cs.Pods("default").Watch(watchCtx, client.ListOptions{})
		if err != nil {
			return err
		}
		defer w.Stop()
		running := map[string]string{}
		for ev := range w.ResultChan() {
			if p, ok := ev.Object.(*corev1.Pod); ok && p.Status.Phase == corev1.PodRunning {
				running[p.Name] = p.ControllerRef().Kind + "/" + p.ControllerRef().Name
			}
			if len(running) == 2 {
				break
			}
		}
		for _, owner := range running {
			fmt.Println("running pod controlled by", owner)
		}
		return nil
	})
	fmt.Println("cluster stopped:", err)
	// Output:
	// running pod controlled by ReplicaSet/web
	// running pod controlled by ReplicaSet/web
	// manager stopped: <nil>
	// cluster stopped: <nil>
}
