package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// ResourceQuota bounds what a namespace may hold in all: the pods,
// objects of a kind, the CPU and memory its pods request or are limited
// to. The ResourceQuota admission plugin refuses (403) a write that would
// go past spec.hard; the resource quota controller keeps status.used.
type ResourceQuota struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec is the bounds.
	Spec ResourceQuotaSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is the bounds in force and what the namespace uses.
	Status ResourceQuotaStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// ResourceQuotaList is a list of ResourceQuotas.
type ResourceQuotaList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ResourceQuota `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceQuotaSpec is a quota's bounds and the objects it applies to.
type ResourceQuotaSpec struct {
	// Hard is the bound of each resource: "pods", "requests.cpu",
	// "limits.memory", "count/configmaps", "count/deployments.apps"...
	Hard ResourceList `json:"hard,omitempty" protobuf:"bytes,1,rep,name=hard,casttype=ResourceList,castkey=ResourceName"`
	// Scopes narrow the quota to the pods matching every scope.
	Scopes []ResourceQuotaScope `json:"scopes,omitempty" protobuf:"bytes,2,rep,name=scopes,casttype=ResourceQuotaScope"`
	// ScopeSelector narrows the quota as Scopes does, by expressions.
	ScopeSelector *ScopeSelector `json:"scopeSelector,omitempty" protobuf:"bytes,3,opt,name=scopeSelector"`
}

// ResourceQuotaScope names a set of pods a quota may be narrowed to.
type ResourceQuotaScope string

// The quota scopes.
const (
	// ResourceQuotaScopeTerminating: pods with activeDeadlineSeconds.
	ResourceQuotaScopeTerminating ResourceQuotaScope = "Terminating"
	// ResourceQuotaScopeNotTerminating: pods without.
	ResourceQuotaScopeNotTerminating ResourceQuotaScope = "NotTerminating"
	// ResourceQuotaScopeBestEffort: pods that request and limit nothing.
	ResourceQuotaScopeBestEffort ResourceQuotaScope = "BestEffort"
	// ResourceQuotaScopeNotBestEffort: pods that request or limit something.
	ResourceQuotaScopeNotBestEffort ResourceQuotaScope = "NotBestEffort"
	// ResourceQuotaScopePriorityClass: pods of the priority classes the
	// selector names.
	ResourceQuotaScopePriorityClass ResourceQuotaScope = "PriorityClass"
	// ResourceQuotaScopeCrossNamespacePodAffinity: pods with affinity terms
	// across namespaces.
	ResourceQuotaScopeCrossNamespacePodAffinity ResourceQuotaScope = "CrossNamespacePodAffinity"
	// ResourceQuotaScopeVolumeAttributesClass: claims of the volume
	// attributes classes the selector names.
	ResourceQuotaScopeVolumeAttributesClass ResourceQuotaScope = "VolumeAttributesClass"
)

// ScopeSelector selects scopes by expressions, all of which must match.
type ScopeSelector struct {
	MatchExpressions []ScopedResourceSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,1,rep,name=matchExpressions"`
}

// ScopedResourceSelectorRequirement is one expression of a ScopeSelector.
type ScopedResourceSelectorRequirement struct {
	ScopeName ResourceQuotaScope    `json:"scopeName" protobuf:"bytes,1,opt,name=scopeName"`
	Operator  ScopeSelectorOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=ScopedResourceSelectorOperator"`
	// Values are the values In and NotIn compare with.
	Values []string `json:"values,omitempty" protobuf:"bytes,3,rep,name=values"`
}

// ScopeSelectorOperator is how a scope expression compares.
type ScopeSelectorOperator string

// The scope selector operators.
const (
	ScopeSelectorOpIn           ScopeSelectorOperator = "In"
	ScopeSelectorOpNotIn        ScopeSelectorOperator = "NotIn"
	ScopeSelectorOpExists       ScopeSelectorOperator = "Exists"
	ScopeSelectorOpDoesNotExist ScopeSelectorOperator = "DoesNotExist"
)

// ResourceQuotaStatus is the bounds in force and the usage against them.
type ResourceQuotaStatus struct {
	// Hard is spec.hard as the quota controller last saw it.
	Hard ResourceList `json:"hard,omitempty" protobuf:"bytes,1,rep,name=hard,casttype=ResourceList,castkey=ResourceName"`
	// Used is what the namespace uses of each resource of Hard.
	Used ResourceList `json:"used,omitempty" protobuf:"bytes,2,rep,name=used,casttype=ResourceList,castkey=ResourceName"`
}

// The resource names a quota bounds beyond the plain ones (cpu and
// memory, which mean requests).
const (
	ResourceRequestsCPU    ResourceName = "requests.cpu"
	ResourceRequestsMemory ResourceName = "requests.memory"
	ResourceLimitsCPU      ResourceName = "limits.cpu"
	ResourceLimitsMemory   ResourceName = "limits.memory"
	ResourceServices       ResourceName = "services"
	ResourceConfigMaps     ResourceName = "configmaps"
	ResourceSecrets        ResourceName = "secrets"
	// ResourceQuotas counts the quotas themselves.
	ResourceQuotas ResourceName = "resourcequotas"
)

// DeepCopy returns a copy of x that shares nothing with it.
func (x *ResourceQuota) DeepCopy() *ResourceQuota {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ResourceQuota) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *ResourceQuotaList) DeepCopyObject() runtime.Object {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}
