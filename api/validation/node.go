package validation

import (
	"fmt"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
)

// podCIDRChangeMsg is upstream's message for a change of a node's
// podCIDRs once assigned.
const podCIDRChangeMsg = "node updates may not change podCIDR except from \"\" to valid"

// ValidateNode checks a node being registered: a cluster-scoped object
// named by a DNS subdomain, valid taints (unique by key and effect), valid
// podCIDRs (at most one per IP family), and non-negative capacity and
// allocatable amounts.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidateNode).
func ValidateNode(node *corev1.Node) apierrors.FieldErrors {
	errs := ValidateObjectMeta(&node.ObjectMeta, false, NameIsDNSSubdomain, "metadata")
	return append(errs, validateNodeSpecAndResources(node)...)
}

// ValidateNodeUpdate checks an update of a node or its status: the
// metadata update rules and the rules of ValidateNode; addresses unique;
// podCIDRs and providerID fixed once set. Unschedulable and taints may
// change freely.
func ValidateNodeUpdate(node, oldNode *corev1.Node) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&node.ObjectMeta, &oldNode.ObjectMeta, "metadata")
	errs = append(errs, validateNodeSpecAndResources(node)...)
	seen := map[corev1.NodeAddress]bool{}
	for i, a := range node.Status.Addresses {
		if seen[a] {
			errs = append(errs, apierrors.Duplicate(path("status").child("addresses").index(i).String(), a))
		}
		seen[a] = true
	}
	if len(oldNode.Spec.PodCIDRs) > 0 {
		if len(oldNode.Spec.PodCIDRs) != len(node.Spec.PodCIDRs) {
			errs = append(errs, apierrors.Forbidden("spec.podCIDRs", podCIDRChangeMsg))
		} else {
			for i, cidr := range oldNode.Spec.PodCIDRs {
				if cidr != node.Spec.PodCIDRs[i] {
					errs = append(errs, apierrors.Forbidden("spec.podCIDRs", podCIDRChangeMsg))
					break
				}
			}
		}
	}
	if oldNode.Spec.ProviderID != "" && oldNode.Spec.ProviderID != node.Spec.ProviderID {
		errs = append(errs, apierrors.Forbidden("spec.providerID", "node updates may not change providerID except from \"\" to valid"))
	}
	return errs
}

func validateNodeSpecAndResources(node *corev1.Node) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	errs = append(errs, validateNodeTaints(node.Spec.Taints, path("spec").child("taints"))...)
	cidrsPath := path("spec").child("podCIDRs")
	v4, v6 := 0, 0
	for i, cidr := range node.Spec.PodCIDRs {
		msgs := IsValidCIDR(cidr)
		for _, msg := range msgs {
			errs = append(errs, apierrors.Invalid(cidrsPath.index(i).String(), cidr, msg))
		}
		if len(msgs) != 0 {
			continue
		}
		if isIPv6CIDR(cidr) {
			v6++
		} else {
			v4++
		}
	}
	if v4 > 1 || v6 > 1 {
		errs = append(errs, apierrors.Invalid(cidrsPath.String(), node.Spec.PodCIDRs, "may specify no more than one CIDR for each IP family"))
	}
	if node.Spec.PodCIDR != "" {
		for _, msg := range IsValidCIDR(node.Spec.PodCIDR) {
			errs = append(errs, apierrors.Invalid(path("spec").child("podCIDR").String(), node.Spec.PodCIDR, msg))
		}
	}
	for _, list := range []struct {
		name string
		rl   corev1.ResourceList
	}{{"capacity", node.Status.Capacity}, {"allocatable", node.Status.Allocatable}} {
		for _, name := range sortedKeys(list.rl) {
			errs = append(errs, validateResourceQuantityValue(name, list.rl[name], path("status").child(list.name, string(name)))...)
		}
	}
	return errs
}

func isIPv6CIDR(cidr string) bool {
	for _, c := range cidr {
		if c == ':' {
			return true
		}
	}
	return false
}

// validateNodeTaints checks each taint's key, value and effect, and that
// no two taints share a key and an effect.
func validateNodeTaints(taints []corev1.Taint, fldPath path) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	type keyEffect struct {
		key    string
		effect corev1.TaintEffect
	}
	seen := map[keyEffect]bool{}
	for i, t := range taints {
		idxPath := fldPath.index(i)
		errs = append(errs, validateLabelName(t.Key, idxPath.child("key"))...)
		for _, msg := range IsValidLabelValue(t.Value) {
			errs = append(errs, apierrors.Invalid(idxPath.child("value").String(), t.Value, msg))
		}
		errs = append(errs, validateTaintEffect(t.Effect, idxPath.child("effect"))...)
		k := keyEffect{t.Key, t.Effect}
		if seen[k] {
			dup := apierrors.Duplicate(idxPath.String(), fmt.Sprintf("%s:%s", t.Key, t.Effect))
			dup.Detail = "taints must be unique by key and effect pair"
			errs = append(errs, dup)
		}
		seen[k] = true
	}
	return errs
}
