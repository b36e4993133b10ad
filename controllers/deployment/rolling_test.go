package deployment_test

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	appsv1 "github.com/minicp/minicp/api/apps/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/controllers/deployment"
)

// sizes returns spec.replicas of the replica sets of old and new.
func (e *env) sizes(name, oldImage, newImage string) (oldSize, newSize int32) {
	e.t.Helper()
	if rs := e.replicaSetFor(name, oldImage); rs != nil {
		oldSize = *rs.Spec.Replicas
	}
	if rs := e.replicaSetFor(name, newImage); rs != nil {
		newSize = *rs.Spec.Replicas
	}
	return oldSize, newSize
}

// TestRollingUpdateSteps follows a rolling update of 10 replicas with
// maxSurge 3 and maxUnavailable 2 step by step, the test playing the
// replicaset controller: the new ReplicaSet grows only while all pods fit
// in 13, and the old one shrinks only while 8 stay available.
func TestRollingUpdateSteps(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(rolling(newDeployment("web", 10), intstr.FromInt32(3), intstr.FromInt32(2)))
	e.completeRollout("web")
	e.setImage("web", "nginx:1.26")
	e.settle()

	const oldImg, newImg = "nginx:1.25", "nginx:1.26"
	step := func(what string, wantOld, wantNew int32) {
		t.Helper()
		e.settle()
		oldSize, newSize := e.sizes("web", oldImg, newImg)
		assert.Equal(t, [2]int32{wantOld, wantNew}, [2]int32{oldSize, newSize}, "%s: old and new sizes", what)
	}
	step("surge 3 up, 2 of the 10 available down", 8, 3)
	oldRS, newRS := e.replicaSetFor("web", oldImg).Name, e.replicaSetFor("web", newImg).Name
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 0 to 3", newRS))
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled down replica set %s from 10 to 8", oldRS))

	e.setRSStatus(oldRS, 8, 8)
	step("old pods gone: room for 2 more new ones", 8, 3+2)
	e.setRSStatus(newRS, 3, 0)
	step("new pods not available: nothing may go", 8, 5)
	e.setRSStatus(newRS, 5, 5)
	step("5 new available: 13 available, 5 old may go", 3, 5)
	e.setRSStatus(oldRS, 3, 3)
	step("room for the last 5 new", 3, 10)
	e.setRSStatus(newRS, 10, 7)
	step("7 new + 3 old available: 2 above 8", 1, 10)
	e.setRSStatus(oldRS, 1, 1)
	e.setRSStatus(newRS, 10, 10)
	step("all new available", 0, 10)
	e.completeRollout("web")

	d := e.get("web")
	requireCondition(t, d, appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.NewRSAvailableReason)
	requireCondition(t, d, appsv1.DeploymentAvailable, corev1.ConditionTrue, deployment.MinimumReplicasAvailable)
	assert.Equal(t, int32(10), d.Status.UpdatedReplicas)
	assert.Equal(t, int32(10), d.Status.AvailableReplicas)
}

// TestRollingUpdateNeverExceedsBounds checks every state the ReplicaSets
// go through while the test, playing the replicaset controller, makes
// one pod of each ReplicaSet available at a time: the pods (the larger
// of spec and status, as pods are created and deleted) never exceed
// replicas + maxSurge, and the pods that stay available never drop below
// replicas - maxUnavailable.
func TestRollingUpdateNeverExceedsBounds(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name              string
		replicas          int32
		surge, unavailble intstr.IntOrString
		maxPods, minAvail int32
	}{
		{"defaults 25%", 8, intstr.FromString("25%"), intstr.FromString("25%"), 10, 6},
		{"surge only", 5, intstr.FromInt32(1), intstr.FromInt32(0), 6, 5},
		{"unavailable only", 5, intstr.FromInt32(0), intstr.FromInt32(2), 5, 3},
		{"percent rounding", 7, intstr.FromString("30%"), intstr.FromString("30%"), 10, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t)
			e.create(rolling(newDeployment("web", tc.replicas), tc.surge, tc.unavailble))
			e.completeRollout("web")

			stop := e.watchReplicaSets(func(rss map[string]*appsv1.ReplicaSet) []string {
				var pods, available int32
				for _, rs := range rss {
					pods += max(*rs.Spec.Replicas, rs.Status.Replicas)
					// Pods beyond spec are about to be deleted.
					available += min(rs.Status.AvailableReplicas, *rs.Spec.Replicas)
				}
				var errs []string
				if pods > tc.maxPods {
					errs = append(errs, fmt.Sprintf("%d pods > %d", pods, tc.maxPods))
				}
				if available < tc.minAvail {
					errs = append(errs, fmt.Sprintf("%d available < %d", available, tc.minAvail))
				}
				return errs
			})
			e.setImage("web", "nginx:1.26")
			for i := 0; ; i++ {
				require.Less(t, i, 200, "the rollout does not finish")
				e.settle()
				moved := false
				for _, rs := range e.replicaSetsOf("web") {
					spec, st := *rs.Spec.Replicas, rs.Status
					if st.Replicas == spec && st.AvailableReplicas == spec {
						continue
					}
					// Pods appear (or go) at once; one more becomes
					// available per step.
					avail := min(st.AvailableReplicas+1, spec)
					e.setRSStatus(rs.Name, spec, avail)
					moved = true
				}
				if !moved {
					break
				}
			}
			states, errs := stop().result()
			assert.Empty(t, errs, "states breaking the bounds:\n%s", joinErrs(errs))
			assert.Greater(t, states, 2*int(tc.replicas), "every step was observed")
			oldSize, newSize := e.sizes("web", "nginx:1.25", "nginx:1.26")
			assert.Equal(t, [2]int32{0, tc.replicas}, [2]int32{oldSize, newSize})
			requireCondition(t, e.get("web"), appsv1.DeploymentProgressing, corev1.ConditionTrue, deployment.NewRSAvailableReason)
		})
	}
}

// TestScalingMidRolloutIsProportional: scaling a Deployment in the middle
// of a rollout shares the new replicas among its ReplicaSets in
// proportion to their sizes, and the rollout goes on from there.
func TestScalingMidRolloutIsProportional(t *testing.T) {
	t.Parallel()
	e := newEnv(t)
	e.create(rolling(newDeployment("web", 10), intstr.FromInt32(3), intstr.FromInt32(2)))
	e.completeRollout("web")
	e.setImage("web", "nginx:1.26")
	e.settle()
	oldRS, newRS := e.replicaSetFor("web", "nginx:1.25").Name, e.replicaSetFor("web", "nginx:1.26").Name
	e.setRSStatus(oldRS, 8, 8)
	e.setRSStatus(newRS, 3, 0)
	e.settle()
	oldSize, newSize := e.sizes("web", "nginx:1.25", "nginx:1.26")
	require.Equal(t, [2]int32{8, 5}, [2]int32{oldSize, newSize}, "mid-rollout")

	// 20 replicas may run 23 pods: 10 more, shared 8:5, rounded.
	e.update("web", func(d *appsv1.Deployment) { n := int32(20); d.Spec.Replicas = &n })
	e.settle()
	oldSize, newSize = e.sizes("web", "nginx:1.25", "nginx:1.26")
	assert.Equal(t, [2]int32{14, 9}, [2]int32{oldSize, newSize}, "8*23/13 and 5*23/13")
	for _, name := range []string{oldRS, newRS} {
		rs := e.replicaSetFor("web", map[string]string{oldRS: "nginx:1.25", newRS: "nginx:1.26"}[name])
		assert.Equal(t, "20", rs.Annotations[deployment.DesiredReplicasAnnotation], name)
		assert.Equal(t, "23", rs.Annotations[deployment.MaxReplicasAnnotation], name)
	}
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 8 to 14", oldRS))
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled up replica set %s from 5 to 9", newRS))

	// Scaling down mid-rollout takes from both too: 5 replicas may run 8
	// pods, 14*8/23 and 9*8/23 rounded. The rollout then goes on: with 5
	// old pods available and 3 allowed, 2 more old ones may go.
	e.update("web", func(d *appsv1.Deployment) { n := int32(5); d.Spec.Replicas = &n })
	e.settle()
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled down replica set %s from 14 to 5", oldRS))
	e.waitForEvent("web", "ScalingReplicaSet", fmt.Sprintf("Scaled down replica set %s from 9 to 3", newRS))
	oldSize, newSize = e.sizes("web", "nginx:1.25", "nginx:1.26")
	assert.Equal(t, [2]int32{3, 3}, [2]int32{oldSize, newSize})

	e.completeRollout("web")
	oldSize, newSize = e.sizes("web", "nginx:1.25", "nginx:1.26")
	assert.Equal(t, [2]int32{0, 5}, [2]int32{oldSize, newSize}, "the rollout finishes at the new size")
}
