package admission

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	authenticationv1 "github.com/minicp/minicp/api/authentication/v1"
	coordinationv1 "github.com/minicp/minicp/api/coordination/v1"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	policyv1 "github.com/minicp/minicp/api/policy/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/request"
)

// PodGetter reads pods.
type PodGetter interface {
	// GetPod returns the pod namespace/name, or a NotFound error. It may
	// answer from a cache; the result is shared: callers must not modify
	// it.
	GetPod(ctx context.Context, namespace, name string) (*corev1.Pod, error)
}

// MirrorPodAnnotationKey marks a mirror pod: the API's copy of a static
// pod a kubelet runs from a file, the only pods a node may create.
const MirrorPodAnnotationKey = "kubernetes.io/config.mirror"

// NodeRestriction limits what a node (request.NodeIdentity) may write to
// its own objects, what the Node authorizer, which does not see the
// object, cannot check: a node modifies only its own Node, and not its
// taints nor labels outside those a kubelet may set; creates only mirror
// pods bound to itself that reference nothing else; updates the status
// of, deletes and evicts only pods bound to itself; requests tokens only
// bound to such pods; and writes only its own Lease. Other users pass.
// Refusals are 403, worded as upstream's.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/noderestriction.
type NodeRestriction struct {
	// Pods reads the pods a node evicts or requests tokens for.
	Pods PodGetter
}

var _ ValidationInterface = (*NodeRestriction)(nil)

// Name implements Plugin.
func (*NodeRestriction) Name() string { return "NodeRestriction" }

// Handles implements Plugin.
func (*NodeRestriction) Handles(op Operation) bool {
	return op == Create || op == Update || op == Delete
}

// Validate implements ValidationInterface. It runs in the validating
// phase, where minicp's deletes are admitted; upstream's runs in the
// mutating phase, and changes nothing either.
func (p *NodeRestriction) Validate(ctx context.Context, a *Attributes) error {
	nodeName, isNode := request.NodeIdentity(a.User)
	if !isNode {
		return nil
	}
	forbidden := func(format string, args ...any) error {
		return apierrors.NewForbidden(a.Resource.GroupResource(), a.Name, fmt.Errorf(format, args...))
	}
	if nodeName == "" {
		return forbidden("could not determine node from user %q", a.User.Name)
	}
	switch a.Resource.GroupResource() {
	case runtime.GroupResource{Resource: "pods"}:
		switch a.Subresource {
		case "":
			return p.admitPod(nodeName, a, forbidden)
		case "status":
			return admitPodStatus(nodeName, a, forbidden)
		case "eviction":
			return p.admitPodEviction(ctx, nodeName, a, forbidden)
		default:
			return forbidden("unexpected pod subresource %q, only 'status' and 'eviction' are allowed", a.Subresource)
		}
	case runtime.GroupResource{Resource: "nodes"}:
		return admitNode(nodeName, a, forbidden)
	case runtime.GroupResource{Resource: "serviceaccounts"}:
		return p.admitServiceAccount(ctx, nodeName, a, forbidden)
	case runtime.GroupResource{Group: coordinationv1.GroupName, Resource: "leases"}:
		return admitLease(nodeName, a, forbidden)
	}
	return nil
}

// forbiddenFunc builds the 403 of one request.
type forbiddenFunc func(format string, args ...any) error

// admitPod lets a node create mirror pods bound to itself and delete
// pods bound to itself.
func (p *NodeRestriction) admitPod(nodeName string, a *Attributes, forbidden forbiddenFunc) error {
	switch a.Operation {
	case Create:
		pod, ok := a.Object.(*corev1.Pod)
		if !ok {
			return forbidden("unexpected type %T", a.Object)
		}
		return admitMirrorPod(nodeName, pod, forbidden)
	case Delete:
		existing, ok := existingObject(a).(*corev1.Pod)
		if !ok {
			return forbidden("unexpected type %T", existingObject(a))
		}
		if existing.Spec.NodeName != nodeName {
			return forbidden("node %q can only delete pods with spec.nodeName set to itself", nodeName)
		}
		return nil
	}
	return forbidden("unexpected operation %q, node %q can only create and delete mirror pods", a.Operation, nodeName)
}

// admitMirrorPod lets a node create a mirror pod of its own that leads
// it to no object the Node authorizer would then let it read.
func admitMirrorPod(nodeName string, pod *corev1.Pod, forbidden forbiddenFunc) error {
	if _, ok := pod.Annotations[MirrorPodAnnotationKey]; !ok {
		return forbidden("pod does not have %q annotation, node %q can only create mirror pods", MirrorPodAnnotationKey, nodeName)
	}
	if pod.Spec.NodeName != nodeName {
		return forbidden("node %q can only create pods with spec.nodeName set to itself", nodeName)
	}
	switch refs := pod.OwnerReferences; {
	case len(refs) > 1:
		return forbidden("node %q can only create pods with a single owner reference set to itself", nodeName)
	case len(refs) == 0 || refs[0].APIVersion != "v1" || refs[0].Kind != "Node" || refs[0].Name != nodeName:
		return forbidden("node %q can only create pods with an owner reference set to itself", nodeName)
	case refs[0].Controller == nil || !*refs[0].Controller:
		return forbidden("node %q can only create pods with a controller owner reference set to itself", nodeName)
	case refs[0].BlockOwnerDeletion != nil && *refs[0].BlockOwnerDeletion:
		return forbidden("node %q must not set blockOwnerDeletion on an owner reference", nodeName)
	}
	if pod.Spec.ServiceAccountName != "" {
		return forbidden("node %q can not create pods that reference a service account", nodeName)
	}
	// A bound pod leads its node to every object it references: a
	// mirror pod referencing a Secret would let the node read it.
	for _, kind := range []struct{ resource, word string }{
		{"secrets", "secrets"}, {"configmaps", "configmaps"}, {"persistentvolumeclaims", "persistentvolumeclaims"},
	} {
		if referencesResource(pod, kind.resource) {
			return forbidden("node %q can not create pods that reference %s", nodeName, kind.word)
		}
	}
	return nil
}

// referencesResource reports whether pod names an object of resource in
// its volumes, environment or image pull secrets.
func referencesResource(pod *corev1.Pod, resource string) bool {
	if resource == "secrets" && len(pod.Spec.ImagePullSecrets) > 0 {
		return true
	}
	for _, v := range pod.Spec.Volumes {
		switch {
		case resource == "secrets" && v.Secret != nil,
			resource == "configmaps" && v.ConfigMap != nil,
			resource == "persistentvolumeclaims" && v.PersistentVolumeClaim != nil:
			return true
		case v.Projected != nil:
			for _, src := range v.Projected.Sources {
				if resource == "secrets" && src.Secret != nil || resource == "configmaps" && src.ConfigMap != nil {
					return true
				}
			}
		}
	}
	for _, c := range slices.Concat(pod.Spec.InitContainers, pod.Spec.Containers) {
		for _, from := range c.EnvFrom {
			if resource == "secrets" && from.SecretRef != nil || resource == "configmaps" && from.ConfigMapRef != nil {
				return true
			}
		}
		for _, env := range c.Env {
			if env.ValueFrom != nil && (resource == "secrets" && env.ValueFrom.SecretKeyRef != nil ||
				resource == "configmaps" && env.ValueFrom.ConfigMapKeyRef != nil) {
				return true
			}
		}
	}
	return false
}

// admitPodStatus lets a node update the status of pods bound to itself,
// and nothing else through it.
func admitPodStatus(nodeName string, a *Attributes, forbidden forbiddenFunc) error {
	if a.Operation != Update {
		return forbidden("unexpected operation %q", a.Operation)
	}
	oldPod, ok := a.OldObject.(*corev1.Pod)
	if !ok {
		return forbidden("unexpected type %T", a.OldObject)
	}
	if oldPod.Spec.NodeName != nodeName {
		return forbidden("node %q can only update pod status for pods with spec.nodeName set to itself", nodeName)
	}
	newPod, ok := a.Object.(*corev1.Pod)
	if !ok {
		return forbidden("unexpected type %T", a.Object)
	}
	if !maps.Equal(oldPod.Labels, newPod.Labels) {
		return forbidden("node %q cannot update labels through pod status", nodeName)
	}
	return nil
}

// admitPodEviction lets a node evict pods bound to itself.
func (p *NodeRestriction) admitPodEviction(ctx context.Context, nodeName string, a *Attributes, forbidden forbiddenFunc) error {
	if a.Operation != Create {
		return forbidden("unexpected operation %s", a.Operation)
	}
	eviction, ok := a.Object.(*policyv1.Eviction)
	if !ok {
		return forbidden("unexpected type %T", a.Object)
	}
	podName := a.Name
	if podName == "" {
		if podName = eviction.Name; podName == "" {
			return forbidden("could not determine pod from request data")
		}
	}
	pod, err := p.Pods.GetPod(ctx, a.Namespace, podName)
	if err != nil {
		return notFoundOrForbidden(err, forbidden)
	}
	if pod.Spec.NodeName != nodeName {
		return forbidden("node %s can only evict pods with spec.nodeName set to itself", nodeName)
	}
	return nil
}

// admitNode lets a node create and modify only its own Node, without
// changing its taints or the labels a kubelet may not set.
func admitNode(nodeName string, a *Attributes, forbidden forbiddenFunc) error {
	if a.Name != nodeName {
		return forbidden("node %q is not allowed to modify node %q", nodeName, a.Name)
	}
	node, ok := a.Object.(*corev1.Node)
	switch a.Operation {
	case Create:
		if !ok {
			return forbidden("unexpected type %T", a.Object)
		}
		if bad := forbiddenLabels(modifiedLabels(node.Labels, nil)); len(bad) > 0 {
			return forbidden("node %q is not allowed to set the following labels: %s", nodeName, strings.Join(bad, ", "))
		}
	case Update:
		oldNode, oldOK := a.OldObject.(*corev1.Node)
		if !ok || !oldOK {
			return forbidden("unexpected type %T", a.Object)
		}
		if !reflect.DeepEqual(node.Spec.Taints, oldNode.Spec.Taints) && (len(node.Spec.Taints) > 0 || len(oldNode.Spec.Taints) > 0) {
			return forbidden("node %q is not allowed to modify taints", nodeName)
		}
		if bad := forbiddenLabels(modifiedLabels(node.Labels, oldNode.Labels)); len(bad) > 0 {
			return forbidden("is not allowed to modify labels: %s", strings.Join(bad, ", "))
		}
	}
	return nil
}

// modifiedLabels returns the keys whose values differ between a and b.
func modifiedLabels(a, b map[string]string) []string {
	var out []string
	for k, v := range a {
		if w, ok := b[k]; !ok || v != w {
			out = append(out, k)
		}
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			out = append(out, k)
		}
	}
	return out
}

// kubeletLabels are the kubernetes.io labels a kubelet sets on its Node.
//
// Upstream: k8s.io/kubelet/pkg/apis (kubeletLabels).
var kubeletLabels = []string{
	"kubernetes.io/hostname", "topology.kubernetes.io/zone", "topology.kubernetes.io/region",
	"failure-domain.beta.kubernetes.io/zone", "failure-domain.beta.kubernetes.io/region",
	"beta.kubernetes.io/instance-type", "node.kubernetes.io/instance-type",
	"beta.kubernetes.io/os", "beta.kubernetes.io/arch", "kubernetes.io/os", "kubernetes.io/arch",
}

// kubeletLabelNamespaces are the label namespaces a kubelet may set any
// label of.
var kubeletLabelNamespaces = []string{"kubelet.kubernetes.io", "node.kubernetes.io"}

// forbiddenLabels returns, sorted, the keys a node may not add, change or
// remove: those of node-restriction.kubernetes.io, and the kubernetes.io
// and k8s.io ones that are not kubelet labels.
//
// Upstream: k8s.io/kubernetes/plugin/pkg/admission/noderestriction
// (Plugin.getForbiddenLabels).
func forbiddenLabels(keys []string) []string {
	var out []string
	for _, k := range keys {
		ns, _, ok := strings.Cut(k, "/")
		if !ok {
			continue
		}
		restricted := ns == "node-restriction.kubernetes.io" || strings.HasSuffix(ns, ".node-restriction.kubernetes.io")
		kubernetes := ns == "kubernetes.io" || strings.HasSuffix(ns, ".kubernetes.io") || ns == "k8s.io" || strings.HasSuffix(ns, ".k8s.io")
		kubelet := slices.Contains(kubeletLabels, k) || slices.ContainsFunc(kubeletLabelNamespaces, func(n string) bool {
			return ns == n || strings.HasSuffix(ns, "."+n)
		})
		if restricted || kubernetes && !kubelet {
			out = append(out, k)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// admitServiceAccount lets a node request only tokens bound to a pod
// bound to itself.
func (p *NodeRestriction) admitServiceAccount(ctx context.Context, nodeName string, a *Attributes, forbidden forbiddenFunc) error {
	if a.Operation != Create || a.Subresource != "token" {
		return nil
	}
	tr, ok := a.Object.(*authenticationv1.TokenRequest)
	if !ok {
		return forbidden("unexpected type %T", a.Object)
	}
	ref := tr.Spec.BoundObjectRef
	if ref == nil || ref.APIVersion != "v1" || ref.Kind != "Pod" || ref.Name == "" {
		return forbidden("node requested token not bound to a pod")
	}
	if ref.UID == "" {
		return forbidden("node requested token with a pod binding without a uid")
	}
	pod, err := p.Pods.GetPod(ctx, a.Namespace, ref.Name)
	if err != nil {
		return notFoundOrForbidden(err, forbidden)
	}
	if ref.UID != pod.UID {
		return forbidden("the UID in the bound object reference (%s) does not match the UID in record. The object might have been deleted and then recreated", ref.UID)
	}
	if pod.Spec.NodeName != nodeName {
		return forbidden("node requested token bound to a pod scheduled on a different node")
	}
	return nil
}

// admitLease lets a node write only its own Lease in kube-node-lease.
func admitLease(nodeName string, a *Attributes, forbidden forbiddenFunc) error {
	if a.Namespace != metav1.NamespaceNodeLease {
		return forbidden("can only access leases in the %q system namespace", metav1.NamespaceNodeLease)
	}
	name := a.Name
	if a.Operation == Create {
		lease, ok := a.Object.(*coordinationv1.Lease)
		if !ok {
			return forbidden("unexpected type %T", a.Object)
		}
		name = lease.Name
	}
	if name != nodeName {
		return forbidden("can only access node lease with the same name as the requesting node")
	}
	return nil
}

// existingObject is the stored object of a delete: minicp's delete
// admission carries it as Object.
func existingObject(a *Attributes) runtime.Object {
	if a.OldObject != nil {
		return a.OldObject
	}
	return a.Object
}

// notFoundOrForbidden passes a NotFound on, as upstream does, and makes
// any other lookup failure a 403.
func notFoundOrForbidden(err error, forbidden forbiddenFunc) error {
	if apierrors.IsNotFound(err) {
		return err
	}
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return forbidden("%s", se.ErrStatus.Message)
	}
	return forbidden("%v", err)
}
