package kubelet

import (
	"context"
	"sync"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/kubelet/cri"
)

// terminatePod ends a pod that is being deleted gracefully (the API
// server set its deletionTimestamp and grace period):
//
//  1. every running container gets SIGTERM (event Killing), and SIGKILL
//     if it is still running when the grace period ends; all at once, so
//     the pod takes one grace period, not one per container;
//  2. the sandbox stops, which releases the pod IP (CNI Del);
//  3. the final status goes out: containers terminated, phase Succeeded
//     if they all exited 0, else Failed;
//  4. the pod is deleted for good: DELETE with gracePeriodSeconds=0 and
//     a UID precondition, so a pod made again under the same name is safe.
//
// The worker then waits for the API's delete, and cleanupPod removes the
// containers.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (SyncTerminatingPod), and the
// status manager's final delete (canBeDeleted, then Delete with
// GracePeriodSeconds 0 and a UID precondition).
func (k *Kubelet) terminatePod(ctx context.Context, w *podWorker, pod *corev1.Pod) syncResult {
	st := &w.state
	if st.deleteSent {
		return syncResult{}
	}
	rt, err := k.readPodRuntime(ctx, pod.UID)
	if err != nil {
		return k.retry(ctx, pod, "reading the runtime failed", err)
	}
	clear(st.waiting)
	k.killContainers(ctx, w, pod, rt, podGracePeriod(pod))
	k.stopSandboxes(ctx, rt)
	if ctx.Err() != nil {
		return syncResult{}
	}
	clear(st.probes)
	if rt, err = k.readPodRuntime(ctx, pod.UID); err != nil {
		return k.retry(ctx, pod, "reading the runtime failed", err)
	}
	_, err = k.writeStatus(ctx, w, pod, func(base *corev1.Pod) corev1.PodStatus {
		startTime := k.clock.Now()
		if base.Status.StartTime != nil {
			startTime = base.Status.StartTime.Time
		}
		return k.generatePodStatus(pod, base, rt, st, startTime, true)
	})
	if err != nil && !apierrors.IsNotFound(err) {
		return k.retry(ctx, pod, "writing the final pod status failed", err)
	}
	zero := int64(0)
	uid := pod.UID
	err = k.cs.Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{
		GracePeriodSeconds: &zero, Preconditions: &metav1.Preconditions{UID: &uid},
	})
	// NotFound: deleted already. Conflict: the UID differs, so this pod is
	// gone and another one has its name.
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return k.retry(ctx, pod, "deleting the pod failed", err)
	}
	st.deleteSent = true
	k.log.Debug("pod terminated", "hop", "kubelet.terminated", "namespace", pod.Namespace, "pod", pod.Name)
	return syncResult{}
}

// cleanupPod forgets a pod the API no longer has: it kills what still
// runs (a pod force-deleted, or deleted while the kubelet was down) and
// removes the sandboxes with their containers and logs.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet (HandlePodRemoves, then
// SyncTerminatedPod and the container garbage collector).
func (k *Kubelet) cleanupPod(ctx context.Context, w *podWorker, pod *corev1.Pod) syncResult {
	rt, err := k.readPodRuntime(ctx, pod.UID)
	if err != nil {
		return k.retry(ctx, pod, "reading the runtime failed", err)
	}
	k.killContainers(ctx, w, pod, rt, podGracePeriod(pod))
	for _, sb := range rt.sandboxes {
		if err := k.runtime.RemovePodSandbox(ctx, sb.ID); err != nil {
			return k.retry(ctx, pod, "removing a sandbox failed", err)
		}
	}
	if ctx.Err() != nil {
		return syncResult{}
	}
	return syncResult{forget: true}
}

// killContainers stops the pod's running containers at once, each with
// SIGTERM and then SIGKILL after grace, and returns when all have exited.
// Each gets a Killing event. Once every stop has either returned or is
// only waiting for the clock (cri.WithStopWaiting), w is parked if any is
// still waiting: a container that ignores SIGTERM exits only when the
// clock reaches its SIGKILL, and a test on a fake clock steps it only
// once the kubelet is idle.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/kuberuntime (killContainersWithSyncResult).
func (k *Kubelet) killContainers(ctx context.Context, w *podWorker, pod *corev1.Pod, rt *podRuntime, grace time.Duration) {
	running := rt.running(pod)
	var stopped, settled sync.WaitGroup
	waiting := make(chan struct{}, len(running))
	for _, cs := range running {
		name := cs.Metadata.Name
		k.event(pod, corev1.EventTypeNormal, "Killing", "Stopping container %s", name)
		settled.Add(1)
		settle := sync.OnceFunc(settled.Done)
		stopCtx := cri.WithStopWaiting(ctx, func() {
			waiting <- struct{}{}
			settle()
		})
		stopped.Go(func() {
			defer settle()
			if err := k.runtime.StopContainer(stopCtx, cs.ID, grace); err != nil && ctx.Err() == nil {
				k.log.Warn("stopping a container failed", "namespace", pod.Namespace, "pod", pod.Name, "container", name, "err", err)
			}
		})
	}
	settled.Wait()
	if len(waiting) > 0 {
		k.workers.park(w, stopped.Wait)
		return
	}
	stopped.Wait()
}
