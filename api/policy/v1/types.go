package v1

import (
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// DisruptionBudgetCause is the cause type of an eviction refused by a
// disruption budget.
const DisruptionBudgetCause metav1.CauseType = "DisruptionBudget"

// PodDisruptionBudget bounds the voluntary disruption of the pods its
// selector picks: at least minAvailable of them, or all but
// maxUnavailable, must stay healthy. The eviction subresource refuses
// (429) an eviction that would break the budget; the disruption
// controller keeps the status, which says how many more it allows.
type PodDisruptionBudget struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec is the desired budget.
	Spec PodDisruptionBudgetSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is the budget as last observed, written by the disruption
	// controller and by evictions.
	Status PodDisruptionBudgetStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PodDisruptionBudgetList is a list of PodDisruptionBudgets.
type PodDisruptionBudgetList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []PodDisruptionBudget `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PodDisruptionBudgetSpec is what a budget protects and how much. At most
// one of minAvailable and maxUnavailable is set.
type PodDisruptionBudgetSpec struct {
	// MinAvailable is how many of the selected pods must stay available
	// after an eviction: a number, or a percentage of the pods their
	// controllers ask for. "100%" forbids every eviction.
	MinAvailable *intstr.IntOrString `json:"minAvailable,omitempty" protobuf:"bytes,1,opt,name=minAvailable"`
	// Selector picks the pods the budget protects. A nil selector selects
	// none, an empty one every pod of the namespace.
	Selector *metav1.LabelSelector `json:"selector,omitempty" patchStrategy:"replace" protobuf:"bytes,2,opt,name=selector"`
	// MaxUnavailable is how many of the selected pods may be unavailable
	// after an eviction: a number, or a percentage of the pods their
	// controllers ask for. 0 forbids every eviction.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,3,opt,name=maxUnavailable"`
	// UnhealthyPodEvictionPolicy says when a running pod that is not
	// ready may be evicted: IfHealthyBudget (the default) only while the
	// healthy pods meet the budget, AlwaysAllow always.
	UnhealthyPodEvictionPolicy *UnhealthyPodEvictionPolicyType `json:"unhealthyPodEvictionPolicy,omitempty" protobuf:"bytes,4,opt,name=unhealthyPodEvictionPolicy"`
}

// UnhealthyPodEvictionPolicyType is when unhealthy pods may be evicted.
type UnhealthyPodEvictionPolicyType string

// The unhealthy pod eviction policies.
const (
	// IfHealthyBudget: a running pod that is not ready may be evicted
	// only while the application is not disrupted (currentHealthy is at
	// least desiredHealthy).
	IfHealthyBudget UnhealthyPodEvictionPolicyType = "IfHealthyBudget"
	// AlwaysAllow: a running pod that is not ready may always be evicted.
	AlwaysAllow UnhealthyPodEvictionPolicyType = "AlwaysAllow"
)

// PodDisruptionBudgetStatus is the budget as last observed.
type PodDisruptionBudgetStatus struct {
	// ObservedGeneration is the generation the status was computed from;
	// evictions wait (429) until it reaches the budget's generation.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// DisruptedPods are the pods an eviction has let go but that are not
	// yet seen as being deleted, with the time of the eviction. The
	// disruption controller does not count them as healthy, and forgets
	// an entry that is still there two minutes after its time.
	DisruptedPods map[string]metav1.Time `json:"disruptedPods,omitempty" protobuf:"bytes,2,rep,name=disruptedPods"`
	// DisruptionsAllowed is how many more pods may be evicted now.
	DisruptionsAllowed int32 `json:"disruptionsAllowed" protobuf:"varint,3,opt,name=disruptionsAllowed"`
	// CurrentHealthy is how many selected pods are healthy (ready).
	CurrentHealthy int32 `json:"currentHealthy" protobuf:"varint,4,opt,name=currentHealthy"`
	// DesiredHealthy is how many healthy pods the budget asks for.
	DesiredHealthy int32 `json:"desiredHealthy" protobuf:"varint,5,opt,name=desiredHealthy"`
	// ExpectedPods is how many pods the budget counts: the selected pods
	// for an integer minAvailable, else their controllers' replicas.
	ExpectedPods int32 `json:"expectedPods" protobuf:"varint,6,opt,name=expectedPods"`
	// Conditions are the budget's conditions: DisruptionAllowed.
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,7,rep,name=conditions"`
}

// The DisruptionAllowed condition and its reasons.
const (
	// DisruptionAllowedCondition is True while the budget allows at least
	// one disruption.
	DisruptionAllowedCondition = "DisruptionAllowed"
	// SyncFailedReason: the controller could not compute the status, so
	// it allows no disruption.
	SyncFailedReason = "SyncFailed"
	// SufficientPodsReason: enough pods are healthy for a disruption.
	SufficientPodsReason = "SufficientPods"
	// InsufficientPodsReason: too few pods are healthy for a disruption.
	InsufficientPodsReason = "InsufficientPods"
)

// Eviction asks for the pod it names to be deleted, if the pod's
// disruption budget allows it. POST it to pods/{name}/eviction.
type Eviction struct {
	metav1.TypeMeta `json:""`
	// ObjectMeta names the pod to evict.
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// DeleteOptions are the options of the pod's deletion (grace period,
	// preconditions, dry run).
	DeleteOptions *metav1.DeleteOptions `json:"deleteOptions,omitempty" protobuf:"bytes,2,opt,name=deleteOptions"`
}

// Every kind copies itself with runtime.DeepCopy, so a field added to a
// type is copied without touching these methods.

// DeepCopy returns a copy of x that shares nothing with it.
func (x *PodDisruptionBudget) DeepCopy() *PodDisruptionBudget {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *PodDisruptionBudget) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *PodDisruptionBudgetList) DeepCopyObject() runtime.Object {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *Eviction) DeepCopyObject() runtime.Object {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}
