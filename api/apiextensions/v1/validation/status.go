package validation

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
)

// validateStoredVersions checks that status.storedVersions is not empty,
// holds the storage version, and that every version in it is still in
// spec.versions (objects may still be stored in it).
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (ValidateCustomResourceDefinitionStoredVersions).
func validateStoredVersions(stored []string, versions []apiextensionsv1.CustomResourceDefinitionVersion, fldPath path) apierrors.FieldErrors {
	if len(stored) == 0 {
		return apierrors.FieldErrors{invalid(fldPath, stored, "must have at least one stored version")}
	}
	var all apierrors.FieldErrors
	index := map[string]int{}
	for i, v := range stored {
		index[v] = i
	}
	for _, v := range versions {
		_, ok := index[v.Name]
		if v.Storage && !ok {
			all = append(all, invalid(fldPath, stored, "must have the storage version "+v.Name))
		}
		delete(index, v.Name)
	}
	for _, v := range sortedKeys(index) {
		all = append(all, invalid(fldPath.index(index[v]), v, fmt.Sprintf("missing from spec.versions; %[1]s was previously a storage version, and must remain in spec.versions until a storage migration ensures no data remains persisted in %[1]s and removes %[1]s from status.storedVersions", v)))
	}
	return all
}

// The states of the API approval annotation.
type approvalState int

const (
	approvalInvalid approvalState = iota
	approved
	approvalBypassed
	approvalMissing
)

// approvalStateOf reads the api-approved.kubernetes.io annotation.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apihelpers (GetAPIApprovalState).
func approvalStateOf(annotations map[string]string) (approvalState, string) {
	annotation := annotations[apiextensionsv1.KubeAPIApprovedAnnotation]
	u, err := url.ParseRequestURI(annotation)
	switch {
	case annotation == "":
		return approvalMissing, fmt.Sprintf("protected groups must have approval annotation %q, see https://github.com/kubernetes/enhancements/pull/1111", apiextensionsv1.KubeAPIApprovedAnnotation)
	case strings.HasPrefix(annotation, "unapproved"):
		return approvalBypassed, fmt.Sprintf("not approved: %q", annotation)
	case err == nil && u != nil && u.Host != "" && u.Scheme != "":
		return approved, fmt.Sprintf("approved in %v", annotation)
	}
	return approvalInvalid, fmt.Sprintf("protected groups must have approval annotation %q with either a URL or a reason starting with \"unapproved\", see https://github.com/kubernetes/enhancements/pull/1111", apiextensionsv1.KubeAPIApprovedAnnotation)
}

// isProtectedCommunityGroup reports the groups Kubernetes reserves.
func isProtectedCommunityGroup(group string) bool {
	return group == "k8s.io" || strings.HasSuffix(group, ".k8s.io") ||
		group == "kubernetes.io" || strings.HasSuffix(group, ".kubernetes.io")
}

// validateAPIApproval requires a valid approval annotation on CRDs in
// Kubernetes' own groups, unless it has not changed on update.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/validation (validateAPIApproval).
func validateAPIApproval(crd, old *apiextensionsv1.CustomResourceDefinition) apierrors.FieldErrors {
	if !isProtectedCommunityGroup(crd.Spec.Group) {
		return nil
	}
	state, reason := approvalStateOf(crd.Annotations)
	if old != nil {
		if oldState, _ := approvalStateOf(old.Annotations); oldState == state {
			return nil
		}
	}
	p := newPath("metadata", "annotations").key(apiextensionsv1.KubeAPIApprovedAnnotation)
	switch state {
	case approvalMissing:
		return apierrors.FieldErrors{required(p, reason)}
	case approved, approvalBypassed:
		return nil
	}
	return apierrors.FieldErrors{invalid(p, crd.Annotations[apiextensionsv1.KubeAPIApprovedAnnotation], reason)}
}

// validatePreserveUnknownFields rejects spec.preserveUnknownFields=true,
// unless the stored CRD has it already.
func validatePreserveUnknownFields(crd, old *apiextensionsv1.CustomResourceDefinition) apierrors.FieldErrors {
	if old != nil && old.Spec.PreserveUnknownFields {
		return nil
	}
	if crd.Spec.PreserveUnknownFields {
		return apierrors.FieldErrors{invalid(newPath("spec", "preserveUnknownFields"), true, "cannot set to true, set x-kubernetes-preserve-unknown-fields to true in spec.versions[*].schema instead")}
	}
	return nil
}
