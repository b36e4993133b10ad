package kubelet

import (
	"bytes"
	"context"
	"encoding/json"
	"strconv"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/wait"
)

// maxStatusConflicts bounds the re-reads after conflicting status writes.
// A conflict means someone else just wrote the pod (the API server marking
// it deleted, a controller's label); the re-read almost always wins, so a
// few tries are plenty, and the next sync retries anyway.
const maxStatusConflicts = 5

// statusConflictRetry re-reads and writes again at once: the write that
// won the race has already landed, so the re-read sees it and waiting
// would only delay the status.
var statusConflictRetry = wait.Backoff{Steps: maxStatusConflicts}

// writeStatus writes the status generate computes from the newest copy of
// the pod to its status subresource, unless that copy already has it. On
// a conflict it re-reads the pod and generates again. It returns the
// status the pod has now.
//
// Upstream: k8s.io/kubernetes/pkg/kubelet/status (manager.syncPod), which
// patches; minicp puts the whole status with the resourceVersion it read.
func (k *Kubelet) writeStatus(ctx context.Context, w *podWorker, pod *corev1.Pod, generate func(base *corev1.Pod) corev1.PodStatus) (corev1.PodStatus, error) {
	base := k.workers.newest(w)
	var status corev1.PodStatus
	reread := false
	err := client.RetryOnConflict(ctx, statusConflictRetry, func() error {
		if reread {
			fresh, err := k.cs.Pods(pod.Namespace).Get(ctx, pod.Name, client.GetOptions{})
			if err != nil {
				return err
			}
			if fresh.UID != pod.UID {
				// The pod was deleted and made again under its name:
				// this worker's pod is gone, and the informer will say
				// so.
				return nil
			}
			k.workers.setStatusPod(w, fresh)
			base = fresh
		}
		reread = true
		status = generate(base)
		k.workers.setStatus(w, status)
		if statusEqual(base.Status, status) {
			return nil
		}
		update := base.DeepCopy()
		update.Status = status
		out, err := k.cs.Pods(pod.Namespace).UpdateStatus(ctx, update, client.WriteOptions{})
		if err != nil {
			return err
		}
		k.workers.setStatusPod(w, out)
		k.log.Debug("pod status written", "hop", "kubelet.status", "namespace", pod.Namespace, "pod", pod.Name,
			"phase", string(status.Phase), "rv", out.ResourceVersion)
		return nil
	})
	return status, err
}

// statusEqual compares two statuses as the API stores them: JSON, where
// times have second precision and nil and empty lists are the same.
func statusEqual(a, b corev1.PodStatus) bool {
	ja, errA := json.Marshal(a)
	jb, errB := json.Marshal(b)
	return errA == nil && errB == nil && bytes.Equal(ja, jb)
}

// newerPod returns whichever of two copies of one pod is newer; nil
// counts as oldest. minicp's resourceVersions are etcd revisions, so the
// larger is the newer; the kubelet compares only copies of its own pods.
func newerPod(a, b *corev1.Pod) *corev1.Pod {
	switch {
	case a == nil:
		return b
	case b == nil || b.UID != a.UID:
		return a
	}
	ra, _ := strconv.ParseUint(a.ResourceVersion, 10, 64)
	rb, _ := strconv.ParseUint(b.ResourceVersion, 10, 64)
	if rb > ra {
		return b
	}
	return a
}
