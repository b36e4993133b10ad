package disruption

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/client"
)

// expectedPodCount returns how many pods pdb counts and how many of them
// must be healthy, and the names of selected pods that no controller
// manages. An integer minAvailable counts the pods selected; a percentage,
// or maxUnavailable, counts the replicas their controllers ask for.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption
// (DisruptionController.getExpectedPodCount).
func (r *Reconciler) expectedPodCount(ctx context.Context, pdb *policyv1.PodDisruptionBudget, pods []*corev1.Pod) (expected, desiredHealthy int32, unmanaged []string, err error) {
	switch {
	case pdb.Spec.MaxUnavailable != nil:
		expected, unmanaged, err = r.expectedScale(ctx, pods)
		if err != nil {
			return 0, 0, nil, err
		}
		maxUnavailable, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MaxUnavailable, int(expected), true)
		if err != nil {
			return 0, 0, nil, err
		}
		return expected, max(expected-int32(maxUnavailable), 0), unmanaged, nil
	case pdb.Spec.MinAvailable != nil && pdb.Spec.MinAvailable.Type == intstr.Int:
		return int32(len(pods)), pdb.Spec.MinAvailable.IntVal, nil, nil
	case pdb.Spec.MinAvailable != nil:
		expected, unmanaged, err = r.expectedScale(ctx, pods)
		if err != nil {
			return 0, 0, nil, err
		}
		minAvailable, err := intstr.GetScaledValueFromIntOrPercent(pdb.Spec.MinAvailable, int(expected), true)
		if err != nil {
			return 0, 0, nil, err
		}
		return expected, int32(minAvailable), unmanaged, nil
	}
	return 0, 0, nil, nil
}

// expectedScale sums the replicas of the controllers of pods, each
// controller once. Pods without a controller are returned by name; a pod
// whose controller cannot be found is an error.
//
// Upstream: k8s.io/kubernetes/pkg/controller/disruption
// (DisruptionController.getExpectedScale).
func (r *Reconciler) expectedScale(ctx context.Context, pods []*corev1.Pod) (int32, []string, error) {
	scales := map[string]int32{} // by controller UID
	var unmanaged []string
	for _, pod := range pods {
		ref := pod.ControllerRef()
		if ref == nil {
			unmanaged = append(unmanaged, pod.Name)
			continue
		}
		if _, ok := scales[ref.UID]; ok {
			continue
		}
		found := false
		for _, find := range []finder{r.deploymentOf, r.replicaSetOf, r.statefulSetOf, r.scaleOf} {
			uid, scale, ok, err := find(ctx, ref, pod.Namespace)
			if err != nil {
				return 0, nil, err
			}
			if ok {
				scales[uid] = scale
				found = true
				break
			}
		}
		if !found {
			return 0, nil, fmt.Errorf("found no controllers for pod %q", pod.Name)
		}
	}
	var sum int32
	for _, n := range scales {
		sum += n
	}
	return sum, unmanaged, nil
}

// finder returns the UID and replicas of the controller ref names, when
// it is of the finder's kind and exists with that UID.
type finder func(ctx context.Context, ref *metav1.OwnerReference, ns string) (uid string, scale int32, ok bool, err error)

// isKind reports whether ref is of kind in one of groups.
func isKind(ref *metav1.OwnerReference, kind string, groups ...string) bool {
	group, _, _ := strings.Cut(ref.APIVersion, "/")
	if !strings.Contains(ref.APIVersion, "/") {
		group = ""
	}
	return ref.Kind == kind && slices.Contains(groups, group)
}

// replicaSetOf finds a ReplicaSet that no Deployment controls: a
// Deployment's ReplicaSets count through the Deployment.
func (r *Reconciler) replicaSetOf(_ context.Context, ref *metav1.OwnerReference, ns string) (string, int32, bool, error) {
	if !isKind(ref, "ReplicaSet", "apps", "extensions") {
		return "", 0, false, nil
	}
	rs, err := r.replicaSets.Get(ns, ref.Name)
	if err != nil || rs.UID != ref.UID {
		return "", 0, false, nil
	}
	if owner := rs.ControllerRef(); owner != nil && owner.Kind == "Deployment" {
		return "", 0, false, nil
	}
	return rs.UID, replicas(rs.Spec.Replicas), true, nil
}

// deploymentOf finds the Deployment that controls the ReplicaSet ref
// names.
func (r *Reconciler) deploymentOf(_ context.Context, ref *metav1.OwnerReference, ns string) (string, int32, bool, error) {
	if !isKind(ref, "ReplicaSet", "apps", "extensions") {
		return "", 0, false, nil
	}
	rs, err := r.replicaSets.Get(ns, ref.Name)
	if err != nil || rs.UID != ref.UID {
		return "", 0, false, nil
	}
	owner := rs.ControllerRef()
	if owner == nil || !isKind(owner, "Deployment", "apps", "extensions") {
		return "", 0, false, nil
	}
	d, err := r.deployments.Get(ns, owner.Name)
	if err != nil || d.UID != owner.UID {
		return "", 0, false, nil
	}
	return d.UID, replicas(d.Spec.Replicas), true, nil
}

// statefulSetOf finds the StatefulSet ref names.
func (r *Reconciler) statefulSetOf(_ context.Context, ref *metav1.OwnerReference, ns string) (string, int32, bool, error) {
	if !isKind(ref, "StatefulSet", "apps") {
		return "", 0, false, nil
	}
	ss, err := r.statefulSet.Get(ns, ref.Name)
	if err != nil || ss.UID != ref.UID {
		return "", 0, false, nil
	}
	return ss.UID, replicas(ss.Spec.Replicas), true, nil
}

// scaleOf reads the scale subresource of any other controller: a custom
// resource's, say. A kind without one (a Job) is an error, as upstream.
func (r *Reconciler) scaleOf(ctx context.Context, ref *metav1.OwnerReference, ns string) (string, int32, bool, error) {
	gv := runtime.ParseGroupVersion(ref.APIVersion)
	infos, err := client.NewDiscoveryClient(r.client).ServerResourcesForGroupVersion(ctx, gv)
	if err != nil {
		return "", 0, false, err
	}
	i := slices.IndexFunc(infos, func(info runtime.ResourceInfo) bool { return info.Kind == ref.Kind })
	if i < 0 {
		return "", 0, false, fmt.Errorf("no matches for kind %q in version %q", ref.Kind, ref.APIVersion)
	}
	info := infos[i]
	if !slices.Contains(info.Subresources, "scale") {
		return "", 0, false, fmt.Errorf("%s does not implement the scale subresource", info.GVR.GroupResource())
	}
	res, err := client.NewDynamicResource(ctx, r.client, info.GVR)
	if err != nil {
		return "", 0, false, err
	}
	body, err := res.Namespace(ns).Stream(ctx, ref.Name, "scale", nil)
	if apierrors.IsNotFound(err) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, err
	}
	defer body.Close()
	var scale autoscalingv1.Scale
	if err := json.NewDecoder(body).Decode(&scale); err != nil {
		return "", 0, false, fmt.Errorf("decode the scale of %s %s: %w", info.GVR.GroupResource(), ref.Name, err)
	}
	if scale.UID != ref.UID {
		return "", 0, false, nil
	}
	return scale.UID, scale.Spec.Replicas, true, nil
}

// replicas is a workload's spec.replicas, which defaulting sets to 1.
func replicas(n *int32) int32 {
	if n == nil {
		return 1
	}
	return *n
}
