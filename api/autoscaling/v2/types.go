package v2

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

// HorizontalPodAutoscaler keeps the replicas of a scalable object
// (anything with a scale subresource) between MinReplicas and MaxReplicas,
// following the metrics it names.
type HorizontalPodAutoscaler struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              HorizontalPodAutoscalerSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            HorizontalPodAutoscalerStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// HorizontalPodAutoscalerList is a list of HorizontalPodAutoscalers.
type HorizontalPodAutoscalerList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []HorizontalPodAutoscaler `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// HorizontalPodAutoscalerSpec is what to scale, within which bounds, on
// which metrics.
type HorizontalPodAutoscalerSpec struct {
	// ScaleTargetRef names the scaled object, in the autoscaler's
	// namespace.
	ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef" protobuf:"bytes,1,opt,name=scaleTargetRef"`
	// MinReplicas defaults to 1.
	MinReplicas *int32 `json:"minReplicas,omitempty" protobuf:"varint,2,opt,name=minReplicas"`
	MaxReplicas int32  `json:"maxReplicas" protobuf:"varint,3,opt,name=maxReplicas"`
	// Metrics default to 80% average CPU utilization.
	Metrics []MetricSpec `json:"metrics,omitempty" protobuf:"bytes,4,rep,name=metrics"`
	// Behavior tunes how fast the autoscaler scales up and down.
	Behavior *HorizontalPodAutoscalerBehavior `json:"behavior,omitempty" protobuf:"bytes,5,opt,name=behavior"`
}

// CrossVersionObjectReference names an object of a kind at an API
// version.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	Name       string `json:"name" protobuf:"bytes,2,opt,name=name"`
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,3,opt,name=apiVersion"`
}

// MetricSourceType names where a metric comes from.
type MetricSourceType string

// The metric sources.
const (
	ObjectMetricSourceType            MetricSourceType = "Object"
	PodsMetricSourceType              MetricSourceType = "Pods"
	ResourceMetricSourceType          MetricSourceType = "Resource"
	ContainerResourceMetricSourceType MetricSourceType = "ContainerResource"
	ExternalMetricSourceType          MetricSourceType = "External"
)

// MetricSpec is one metric to scale on: Type says which of the other
// fields is set.
type MetricSpec struct {
	Type              MetricSourceType               `json:"type" protobuf:"bytes,1,name=type"`
	Object            *ObjectMetricSource            `json:"object,omitempty" protobuf:"bytes,2,opt,name=object"`
	Pods              *PodsMetricSource              `json:"pods,omitempty" protobuf:"bytes,3,opt,name=pods"`
	Resource          *ResourceMetricSource          `json:"resource,omitempty" protobuf:"bytes,4,opt,name=resource"`
	ContainerResource *ContainerResourceMetricSource `json:"containerResource,omitempty" protobuf:"bytes,7,opt,name=containerResource"`
	External          *ExternalMetricSource          `json:"external,omitempty" protobuf:"bytes,5,opt,name=external"`
}

// HorizontalPodAutoscalerBehavior tunes scaling up and down separately.
type HorizontalPodAutoscalerBehavior struct {
	ScaleUp   *HPAScalingRules `json:"scaleUp,omitempty" protobuf:"bytes,1,opt,name=scaleUp"`
	ScaleDown *HPAScalingRules `json:"scaleDown,omitempty" protobuf:"bytes,2,opt,name=scaleDown"`
}

// ScalingPolicySelect says which policy's change is applied when several
// apply.
type ScalingPolicySelect string

// The policy selections.
const (
	MaxChangePolicySelect ScalingPolicySelect = "Max"
	MinChangePolicySelect ScalingPolicySelect = "Min"
	DisabledPolicySelect  ScalingPolicySelect = "Disabled"
)

// HPAScalingRules bound one direction of scaling.
type HPAScalingRules struct {
	StabilizationWindowSeconds *int32               `json:"stabilizationWindowSeconds,omitempty" protobuf:"varint,3,opt,name=stabilizationWindowSeconds"`
	SelectPolicy               *ScalingPolicySelect `json:"selectPolicy,omitempty" protobuf:"bytes,1,opt,name=selectPolicy"`
	Policies                   []HPAScalingPolicy   `json:"policies,omitempty" listType:"atomic" protobuf:"bytes,2,rep,name=policies"`
	Tolerance                  *resource.Quantity   `json:"tolerance,omitempty" protobuf:"bytes,4,opt,name=tolerance"`
}

// HPAScalingPolicyType says whether a policy counts pods or a percentage.
type HPAScalingPolicyType string

// The scaling policy types.
const (
	PodsScalingPolicy    HPAScalingPolicyType = "Pods"
	PercentScalingPolicy HPAScalingPolicyType = "Percent"
)

// HPAScalingPolicy allows a change of Value pods (or percent) per
// PeriodSeconds.
type HPAScalingPolicy struct {
	Type          HPAScalingPolicyType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=HPAScalingPolicyType"`
	Value         int32                `json:"value" protobuf:"varint,2,opt,name=value"`
	PeriodSeconds int32                `json:"periodSeconds" protobuf:"varint,3,opt,name=periodSeconds"`
}

// ObjectMetricSource is a metric of another object in the namespace.
type ObjectMetricSource struct {
	DescribedObject CrossVersionObjectReference `json:"describedObject" protobuf:"bytes,1,name=describedObject"`
	Target          MetricTarget                `json:"target" protobuf:"bytes,2,name=target"`
	Metric          MetricIdentifier            `json:"metric" protobuf:"bytes,3,name=metric"`
}

// PodsMetricSource is a metric of each pod of the target, averaged.
type PodsMetricSource struct {
	Metric MetricIdentifier `json:"metric" protobuf:"bytes,1,name=metric"`
	Target MetricTarget     `json:"target" protobuf:"bytes,2,name=target"`
}

// ResourceMetricSource is a resource (cpu, memory) of the target's pods.
type ResourceMetricSource struct {
	Name   corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	Target MetricTarget        `json:"target" protobuf:"bytes,2,name=target"`
}

// ContainerResourceMetricSource is a resource of one container of the
// target's pods.
type ContainerResourceMetricSource struct {
	Name      corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	Target    MetricTarget        `json:"target" protobuf:"bytes,2,name=target"`
	Container string              `json:"container" protobuf:"bytes,3,opt,name=container"`
}

// ExternalMetricSource is a metric from outside the cluster.
type ExternalMetricSource struct {
	Metric MetricIdentifier `json:"metric" protobuf:"bytes,1,name=metric"`
	Target MetricTarget     `json:"target" protobuf:"bytes,2,name=target"`
}

// MetricIdentifier names a metric, with a selector among its series.
type MetricIdentifier struct {
	Name     string                `json:"name" protobuf:"bytes,1,name=name"`
	Selector *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,2,name=selector"`
}

// MetricTarget is the value to keep a metric at: Type says which field.
type MetricTarget struct {
	Type               MetricTargetType   `json:"type" protobuf:"bytes,1,name=type"`
	Value              *resource.Quantity `json:"value,omitempty" protobuf:"bytes,2,opt,name=value"`
	AverageValue       *resource.Quantity `json:"averageValue,omitempty" protobuf:"bytes,3,opt,name=averageValue"`
	AverageUtilization *int32             `json:"averageUtilization,omitempty" protobuf:"bytes,4,opt,name=averageUtilization"`
}

// MetricTargetType names the kind of a MetricTarget.
type MetricTargetType string

// The metric target types.
const (
	UtilizationMetricType  MetricTargetType = "Utilization"
	ValueMetricType        MetricTargetType = "Value"
	AverageValueMetricType MetricTargetType = "AverageValue"
)

// HorizontalPodAutoscalerStatus is what the autoscaler last observed and
// did.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration *int64                             `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	LastScaleTime      *metav1.Time                       `json:"lastScaleTime,omitempty" protobuf:"bytes,2,opt,name=lastScaleTime"`
	CurrentReplicas    int32                              `json:"currentReplicas,omitempty" protobuf:"varint,3,opt,name=currentReplicas"`
	DesiredReplicas    int32                              `json:"desiredReplicas" protobuf:"varint,4,opt,name=desiredReplicas"`
	CurrentMetrics     []MetricStatus                     `json:"currentMetrics" protobuf:"bytes,5,rep,name=currentMetrics"`
	Conditions         []HorizontalPodAutoscalerCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" listType:"map" protobuf:"bytes,6,rep,name=conditions"`
}

// HorizontalPodAutoscalerConditionType names a condition of an
// autoscaler.
type HorizontalPodAutoscalerConditionType string

// The autoscaler conditions.
const (
	ScalingActive  HorizontalPodAutoscalerConditionType = "ScalingActive"
	AbleToScale    HorizontalPodAutoscalerConditionType = "AbleToScale"
	ScalingLimited HorizontalPodAutoscalerConditionType = "ScalingLimited"
	ScaledToZero   HorizontalPodAutoscalerConditionType = "ScaledToZero"
)

// HorizontalPodAutoscalerCondition is one condition of an autoscaler.
type HorizontalPodAutoscalerCondition struct {
	Type               HorizontalPodAutoscalerConditionType `json:"type" protobuf:"bytes,1,name=type"`
	Status             corev1.ConditionStatus               `json:"status" protobuf:"bytes,2,name=status"`
	LastTransitionTime metav1.Time                          `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	Reason             string                               `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message            string                               `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
	ObservedGeneration *int64                               `json:"observedGeneration,omitempty" protobuf:"varint,6,opt,name=observedGeneration"`
}

// MetricStatus is the last value read of one metric: Type says which of
// the other fields is set.
type MetricStatus struct {
	Type              MetricSourceType               `json:"type" protobuf:"bytes,1,name=type"`
	Object            *ObjectMetricStatus            `json:"object,omitempty" protobuf:"bytes,2,opt,name=object"`
	Pods              *PodsMetricStatus              `json:"pods,omitempty" protobuf:"bytes,3,opt,name=pods"`
	Resource          *ResourceMetricStatus          `json:"resource,omitempty" protobuf:"bytes,4,opt,name=resource"`
	ContainerResource *ContainerResourceMetricStatus `json:"containerResource,omitempty" protobuf:"bytes,7,opt,name=containerResource"`
	External          *ExternalMetricStatus          `json:"external,omitempty" protobuf:"bytes,5,opt,name=external"`
}

// ObjectMetricStatus is the value of an ObjectMetricSource.
type ObjectMetricStatus struct {
	Metric          MetricIdentifier            `json:"metric" protobuf:"bytes,1,name=metric"`
	Current         MetricValueStatus           `json:"current" protobuf:"bytes,2,name=current"`
	DescribedObject CrossVersionObjectReference `json:"describedObject" protobuf:"bytes,3,name=describedObject"`
}

// PodsMetricStatus is the value of a PodsMetricSource.
type PodsMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric" protobuf:"bytes,1,name=metric"`
	Current MetricValueStatus `json:"current" protobuf:"bytes,2,name=current"`
}

// ResourceMetricStatus is the value of a ResourceMetricSource.
type ResourceMetricStatus struct {
	Name    corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	Current MetricValueStatus   `json:"current" protobuf:"bytes,2,name=current"`
}

// ContainerResourceMetricStatus is the value of a
// ContainerResourceMetricSource.
type ContainerResourceMetricStatus struct {
	Name      corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	Current   MetricValueStatus   `json:"current" protobuf:"bytes,2,name=current"`
	Container string              `json:"container" protobuf:"bytes,3,opt,name=container"`
}

// ExternalMetricStatus is the value of an ExternalMetricSource.
type ExternalMetricStatus struct {
	Metric  MetricIdentifier  `json:"metric" protobuf:"bytes,1,name=metric"`
	Current MetricValueStatus `json:"current" protobuf:"bytes,2,name=current"`
}

// MetricValueStatus is a metric's value, in the form of its target.
type MetricValueStatus struct {
	Value              *resource.Quantity `json:"value,omitempty" protobuf:"bytes,1,opt,name=value"`
	AverageValue       *resource.Quantity `json:"averageValue,omitempty" protobuf:"bytes,2,opt,name=averageValue"`
	AverageUtilization *int32             `json:"averageUtilization,omitempty" protobuf:"bytes,3,opt,name=averageUtilization"`
}

// Every kind copies itself with runtime.DeepCopy, so a field added to a
// type is copied without touching these methods.

// DeepCopy returns a copy of x that shares nothing with it.
func (x *HorizontalPodAutoscaler) DeepCopy() *HorizontalPodAutoscaler {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *HorizontalPodAutoscaler) DeepCopyObject() runtime.Object {
	if c := x.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyObject implements runtime.Object; a nil x gives a nil Object.
func (x *HorizontalPodAutoscalerList) DeepCopyObject() runtime.Object {
	if x == nil {
		return nil
	}
	return runtime.DeepCopy(x)
}
