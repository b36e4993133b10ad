package validation

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/runtime"
)

// podUpdateForbiddenMsg is upstream's message for a pod update that changes
// more than it may.
const podUpdateForbiddenMsg = "pod updates may not change fields other than `spec.containers[*].image`," +
	"`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations)," +
	"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"

// ValidatePodUpdate checks an update of a pod (not of its status): the
// metadata update rules, the new spec as on create, and that the spec changes
// only where a running pod can follow: container and init container
// images, activeDeadlineSeconds (set, or lowered), and tolerations (only
// added, or their tolerationSeconds changed). Anything else, nodeName
// included (pods are bound through the binding subresource), is forbidden
// at "spec" with upstream's "pod updates may not change fields other
// than ..." message, followed by the spec fields that changed.
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidatePodUpdate).
func ValidatePodUpdate(newPod, oldPod *corev1.Pod) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, "metadata")
	errs = append(errs, ValidatePodSpec(&newPod.Spec, "spec")...)
	specPath := path("spec")

	for _, c := range []struct {
		name     string
		new, old []corev1.Container
	}{
		{"containers", newPod.Spec.Containers, oldPod.Spec.Containers},
		{"initContainers", newPod.Spec.InitContainers, oldPod.Spec.InitContainers},
	} {
		if len(c.new) != len(c.old) {
			// Without the same containers nothing else can be compared.
			return append(errs, apierrors.Forbidden(specPath.child(c.name).String(), "pod updates may not add or remove containers"))
		}
		for i, ctr := range c.new {
			if strings.TrimSpace(ctr.Image) != ctr.Image {
				errs = append(errs, apierrors.Invalid(specPath.child(c.name).index(i).child("image").String(), ctr.Image, "must not have leading or trailing whitespace"))
			}
		}
	}

	// activeDeadlineSeconds may be set, or lowered, never raised or unset:
	// it only ever brings the deadline closer.
	adsPath := specPath.child("activeDeadlineSeconds").String()
	if newADS := newPod.Spec.ActiveDeadlineSeconds; newADS != nil {
		if *newADS < 0 || *newADS > math.MaxInt32 {
			return append(errs, apierrors.Invalid(adsPath, *newADS, InclusiveRangeError(0, math.MaxInt32)))
		}
		if oldADS := oldPod.Spec.ActiveDeadlineSeconds; oldADS != nil && *oldADS < *newADS {
			return append(errs, apierrors.Invalid(adsPath, *newADS, "must be less than or equal to previous value"))
		}
	} else if oldPod.Spec.ActiveDeadlineSeconds != nil {
		errs = append(errs, apierrors.Invalid(adsPath, newPod.Spec.ActiveDeadlineSeconds, "must not update from a positive integer to nil value"))
	}

	errs = append(errs, validateOnlyAddedTolerations(newPod.Spec.Tolerations, oldPod.Spec.Tolerations, specPath.child("tolerations"))...)

	// Put the old values back into the fields that may change; whatever
	// still differs may not.
	munged := runtime.DeepCopy(newPod.Spec)
	for i := range munged.Containers {
		munged.Containers[i].Image = oldPod.Spec.Containers[i].Image
	}
	for i := range munged.InitContainers {
		munged.InitContainers[i].Image = oldPod.Spec.InitContainers[i].Image
	}
	munged.ActiveDeadlineSeconds = oldPod.Spec.ActiveDeadlineSeconds
	munged.Tolerations = oldPod.Spec.Tolerations
	if old := oldPod.Spec.TerminationGracePeriodSeconds; old != nil && *old < 0 &&
		munged.TerminationGracePeriodSeconds != nil && *munged.TerminationGracePeriodSeconds == 1 {
		munged.TerminationGracePeriodSeconds = old
	}
	if changed := changedFields(munged, oldPod.Spec); len(changed) != 0 {
		errs = append(errs, apierrors.Forbidden(specPath.String(),
			podUpdateForbiddenMsg+"\nchanged: spec."+strings.Join(changed, ", spec.")))
	}
	return errs
}

// validateOnlyAddedTolerations checks that every old toleration is still
// there, with at most its tolerationSeconds changed.
func validateOnlyAddedTolerations(newTols, oldTols []corev1.Toleration, fldPath path) apierrors.FieldErrors {
	for _, old := range oldTols {
		found := slices.ContainsFunc(newTols, func(t corev1.Toleration) bool {
			t.TolerationSeconds = old.TolerationSeconds
			return reflect.DeepEqual(t, old)
		})
		if !found {
			return apierrors.FieldErrors{apierrors.Forbidden(fldPath.String(), "existing toleration can not be modified except its tolerationSeconds")}
		}
	}
	return ValidateTolerations(newTols, fldPath.String())
}

// changedFields returns the JSON names of the top-level fields of two
// structs whose JSON differs, sorted. Comparing JSON makes nil and empty
// equal and compares quantities and times by value, as upstream's
// semantic equality does.
func changedFields(a, b any) []string {
	am, bm := jsonFields(a), jsonFields(b)
	var changed []string
	for k, v := range am {
		if !bytes.Equal(v, bm[k]) {
			changed = append(changed, k)
		}
	}
	for k := range bm {
		if _, ok := am[k]; !ok {
			changed = append(changed, k)
		}
	}
	slices.Sort(changed)
	return changed
}

func jsonFields(v any) map[string]json.RawMessage {
	data, err := json.Marshal(v)
	if err != nil {
		// Our own types always marshal; report the failure as a difference.
		return map[string]json.RawMessage{"<unmarshalable>": json.RawMessage(err.Error())}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil {
		return map[string]json.RawMessage{"<not an object>": data}
	}
	return m
}

// ValidatePodStatusUpdate checks an update of a pod's status subresource:
// the metadata update rules; status.nominatedNodeName a valid node name;
// pod conditions well formed; pod and host IPs valid, at most one per IP
// family; and a terminated container that will not be restarted (restart
// policy Never, or OnFailure after exit 0) staying terminated. spec.nodeName
// may not change ("status.nodeName" in upstream's wording).
//
// Upstream: k8s.io/kubernetes/pkg/apis/core/validation (ValidatePodStatusUpdate).
func ValidatePodStatusUpdate(newPod, oldPod *corev1.Pod) apierrors.FieldErrors {
	errs := ValidateObjectMetaUpdate(&newPod.ObjectMeta, &oldPod.ObjectMeta, "metadata")
	statusPath := path("status")
	for i, c := range newPod.Status.Conditions {
		cPath := statusPath.child("conditions").index(i)
		if c.Type == "" {
			errs = append(errs, apierrors.Required(cPath.child("type").String(), ""))
		} else if !isPodSystemCondition(c.Type) {
			errs = append(errs, validateQualifiedNameField(string(c.Type), cPath.child("type"))...)
		}
	}
	if newPod.Spec.NodeName != oldPod.Spec.NodeName {
		errs = append(errs, apierrors.Forbidden(statusPath.child("nodeName").String(), "may not be changed directly"))
	}
	if n := newPod.Status.NominatedNodeName; n != oldPod.Status.NominatedNodeName && n != "" {
		errs = append(errs, validateSubdomainField(n, statusPath.child("nominatedNodeName"))...)
	}
	errs = append(errs, validateContainerStateTransition(newPod.Status.ContainerStatuses, oldPod.Status.ContainerStatuses,
		statusPath.child("containerStatuses"), oldPod.Spec.RestartPolicy)...)
	errs = append(errs, validateContainerStateTransition(newPod.Status.InitContainerStatuses, oldPod.Status.InitContainerStatuses,
		statusPath.child("initContainerStatuses"), oldPod.Spec.RestartPolicy)...)
	podIPs := make([]string, len(newPod.Status.PodIPs))
	for i, ip := range newPod.Status.PodIPs {
		podIPs[i] = ip.IP
	}
	errs = append(errs, validateIPFamilies(podIPs, statusPath.child("podIPs"), "may specify no more than one IP for each IP family")...)
	hostIPs := make([]string, len(newPod.Status.HostIPs))
	for i, ip := range newPod.Status.HostIPs {
		hostIPs[i] = ip.IP
	}
	errs = append(errs, validateIPFamilies(hostIPs, statusPath.child("hostIPs"), "may specify no more than one IP for each IP family")...)
	return errs
}

func isPodSystemCondition(t corev1.PodConditionType) bool {
	switch t {
	case corev1.PodScheduled, corev1.PodReadyToStartContainers, corev1.PodInitialized,
		corev1.ContainersReady, corev1.PodReady, corev1.DisruptionTarget:
		return true
	}
	return false
}

// validateContainerStateTransition forbids restarting a container the
// restart policy says stays terminated.
func validateContainerStateTransition(newStatuses, oldStatuses []corev1.ContainerStatus, fldPath path, policy corev1.RestartPolicy) apierrors.FieldErrors {
	if policy == corev1.RestartPolicyAlways {
		return nil
	}
	var errs apierrors.FieldErrors
	for i, old := range oldStatuses {
		term := old.State.Terminated
		if term == nil || (term.ExitCode != 0 && policy == corev1.RestartPolicyOnFailure) {
			continue
		}
		for _, s := range newStatuses {
			if s.Name == old.Name && s.State.Terminated == nil {
				errs = append(errs, apierrors.Forbidden(fldPath.index(i).child("state").String(), "may not be transitioned to non-terminated state"))
			}
		}
	}
	return errs
}

// validateIPFamilies checks a list of IPs: each valid, and at most one
// IPv4 and one IPv6 (a dual-stack pair).
func validateIPFamilies(ips []string, fldPath path, familyMsg string) apierrors.FieldErrors {
	var errs apierrors.FieldErrors
	v4, v6 := 0, 0
	for i, ip := range ips {
		if msgs := IsValidIP(ip); len(msgs) != 0 {
			errs = append(errs, validateIPField(ip, fldPath.index(i))...)
			continue
		}
		if strings.Contains(ip, ":") {
			v6++
		} else {
			v4++
		}
	}
	if len(errs) == 0 && (v4 > 1 || v6 > 1) {
		errs = append(errs, apierrors.Invalid(fldPath.String(), ips, familyMsg))
	}
	return errs
}
