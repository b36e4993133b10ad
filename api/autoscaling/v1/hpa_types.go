package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

// HorizontalPodAutoscaler is the autoscaling/v1 form of an autoscaler: a
// target CPU utilization only. It is the same stored object as the
// autoscaling/v2 one; what v1 cannot express travels in the annotations
// named by the *Annotation constants (see ConvertToV2).
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

// CrossVersionObjectReference names an object of a kind at an API
// version: the target of an autoscaler.
type CrossVersionObjectReference struct {
	Kind       string `json:"kind" protobuf:"bytes,1,opt,name=kind"`
	Name       string `json:"name" protobuf:"bytes,2,opt,name=name"`
	APIVersion string `json:"apiVersion,omitempty" protobuf:"bytes,3,opt,name=apiVersion"`
}

// HorizontalPodAutoscalerSpec is what to scale, within which bounds.
type HorizontalPodAutoscalerSpec struct {
	ScaleTargetRef CrossVersionObjectReference `json:"scaleTargetRef" protobuf:"bytes,1,opt,name=scaleTargetRef"`
	// MinReplicas defaults to 1.
	MinReplicas *int32 `json:"minReplicas,omitempty" protobuf:"varint,2,opt,name=minReplicas"`
	MaxReplicas int32  `json:"maxReplicas" protobuf:"varint,3,opt,name=maxReplicas"`
	// TargetCPUUtilizationPercentage is the average CPU utilization to
	// keep the pods at; unset means 80.
	TargetCPUUtilizationPercentage *int32 `json:"targetCPUUtilizationPercentage,omitempty" protobuf:"varint,4,opt,name=targetCPUUtilizationPercentage"`
}

// HorizontalPodAutoscalerStatus is what the autoscaler last observed and
// did.
type HorizontalPodAutoscalerStatus struct {
	ObservedGeneration              *int64       `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	LastScaleTime                   *metav1.Time `json:"lastScaleTime,omitempty" protobuf:"bytes,2,opt,name=lastScaleTime"`
	CurrentReplicas                 int32        `json:"currentReplicas" protobuf:"varint,3,opt,name=currentReplicas"`
	DesiredReplicas                 int32        `json:"desiredReplicas" protobuf:"varint,4,opt,name=desiredReplicas"`
	CurrentCPUUtilizationPercentage *int32       `json:"currentCPUUtilizationPercentage,omitempty" protobuf:"varint,5,opt,name=currentCPUUtilizationPercentage"`
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

// MetricSpec is a metric in the form the MetricSpecsAnnotation holds it
// (autoscaling/v2beta1's).
type MetricSpec struct {
	Type              MetricSourceType               `json:"type" protobuf:"bytes,1,name=type"`
	Object            *ObjectMetricSource            `json:"object,omitempty" protobuf:"bytes,2,opt,name=object"`
	Pods              *PodsMetricSource              `json:"pods,omitempty" protobuf:"bytes,3,opt,name=pods"`
	Resource          *ResourceMetricSource          `json:"resource,omitempty" protobuf:"bytes,4,opt,name=resource"`
	ContainerResource *ContainerResourceMetricSource `json:"containerResource,omitempty" protobuf:"bytes,7,opt,name=containerResource"`
	External          *ExternalMetricSource          `json:"external,omitempty" protobuf:"bytes,5,opt,name=external"`
}

// ObjectMetricSource is a metric of another object in the namespace.
type ObjectMetricSource struct {
	Target       CrossVersionObjectReference `json:"target" protobuf:"bytes,1,name=target"`
	MetricName   string                      `json:"metricName" protobuf:"bytes,2,name=metricName"`
	TargetValue  resource.Quantity           `json:"targetValue" protobuf:"bytes,3,name=targetValue"`
	Selector     *metav1.LabelSelector       `json:"selector,omitempty" protobuf:"bytes,4,name=selector"`
	AverageValue *resource.Quantity          `json:"averageValue,omitempty" protobuf:"bytes,5,name=averageValue"`
}

// PodsMetricSource is a metric of each pod of the target, averaged.
type PodsMetricSource struct {
	MetricName         string                `json:"metricName" protobuf:"bytes,1,name=metricName"`
	TargetAverageValue resource.Quantity     `json:"targetAverageValue" protobuf:"bytes,2,name=targetAverageValue"`
	Selector           *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,3,name=selector"`
}

// ResourceMetricSource is a resource (cpu, memory) of the target's pods.
type ResourceMetricSource struct {
	Name                     corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	TargetAverageUtilization *int32              `json:"targetAverageUtilization,omitempty" protobuf:"varint,2,opt,name=targetAverageUtilization"`
	TargetAverageValue       *resource.Quantity  `json:"targetAverageValue,omitempty" protobuf:"bytes,3,opt,name=targetAverageValue"`
}

// ContainerResourceMetricSource is a resource of one container of the
// target's pods.
type ContainerResourceMetricSource struct {
	Name                     corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	TargetAverageUtilization *int32              `json:"targetAverageUtilization,omitempty" protobuf:"varint,2,opt,name=targetAverageUtilization"`
	TargetAverageValue       *resource.Quantity  `json:"targetAverageValue,omitempty" protobuf:"bytes,3,opt,name=targetAverageValue"`
	Container                string              `json:"container" protobuf:"bytes,5,opt,name=container"`
}

// ExternalMetricSource is a metric from outside the cluster.
type ExternalMetricSource struct {
	MetricName         string                `json:"metricName" protobuf:"bytes,1,name=metricName"`
	MetricSelector     *metav1.LabelSelector `json:"metricSelector,omitempty" protobuf:"bytes,2,opt,name=metricSelector"`
	TargetValue        *resource.Quantity    `json:"targetValue,omitempty" protobuf:"bytes,3,opt,name=targetValue"`
	TargetAverageValue *resource.Quantity    `json:"targetAverageValue,omitempty" protobuf:"bytes,4,opt,name=targetAverageValue"`
}

// MetricStatus is a metric's last value in the form the
// MetricStatusesAnnotation holds it.
type MetricStatus struct {
	Type              MetricSourceType               `json:"type" protobuf:"bytes,1,name=type"`
	Object            *ObjectMetricStatus            `json:"object,omitempty" protobuf:"bytes,2,opt,name=object"`
	Pods              *PodsMetricStatus              `json:"pods,omitempty" protobuf:"bytes,3,opt,name=pods"`
	Resource          *ResourceMetricStatus          `json:"resource,omitempty" protobuf:"bytes,4,opt,name=resource"`
	ContainerResource *ContainerResourceMetricStatus `json:"containerResource,omitempty" protobuf:"bytes,7,opt,name=containerResource"`
	External          *ExternalMetricStatus          `json:"external,omitempty" protobuf:"bytes,5,opt,name=external"`
}

// HorizontalPodAutoscalerConditionType names a condition of an
// autoscaler.
type HorizontalPodAutoscalerConditionType string

// HorizontalPodAutoscalerCondition is a condition in the form the
// ConditionsAnnotation holds it.
type HorizontalPodAutoscalerCondition struct {
	Type               HorizontalPodAutoscalerConditionType `json:"type" protobuf:"bytes,1,name=type"`
	Status             corev1.ConditionStatus               `json:"status" protobuf:"bytes,2,name=status"`
	LastTransitionTime metav1.Time                          `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	Reason             string                               `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message            string                               `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
	ObservedGeneration *int64                               `json:"observedGeneration,omitempty" protobuf:"varint,6,opt,name=observedGeneration"`
}

// ObjectMetricStatus is the value of an ObjectMetricSource.
type ObjectMetricStatus struct {
	Target       CrossVersionObjectReference `json:"target" protobuf:"bytes,1,name=target"`
	MetricName   string                      `json:"metricName" protobuf:"bytes,2,name=metricName"`
	CurrentValue resource.Quantity           `json:"currentValue" protobuf:"bytes,3,name=currentValue"`
	Selector     *metav1.LabelSelector       `json:"selector,omitempty" protobuf:"bytes,4,name=selector"`
	AverageValue *resource.Quantity          `json:"averageValue,omitempty" protobuf:"bytes,5,name=averageValue"`
}

// PodsMetricStatus is the value of a PodsMetricSource.
type PodsMetricStatus struct {
	MetricName          string                `json:"metricName" protobuf:"bytes,1,name=metricName"`
	CurrentAverageValue resource.Quantity     `json:"currentAverageValue" protobuf:"bytes,2,name=currentAverageValue"`
	Selector            *metav1.LabelSelector `json:"selector,omitempty" protobuf:"bytes,3,name=selector"`
}

// ResourceMetricStatus is the value of a ResourceMetricSource.
type ResourceMetricStatus struct {
	Name                      corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	CurrentAverageUtilization *int32              `json:"currentAverageUtilization,omitempty" protobuf:"bytes,2,opt,name=currentAverageUtilization"`
	CurrentAverageValue       resource.Quantity   `json:"currentAverageValue" protobuf:"bytes,3,name=currentAverageValue"`
}

// ContainerResourceMetricStatus is the value of a
// ContainerResourceMetricSource.
type ContainerResourceMetricStatus struct {
	Name                      corev1.ResourceName `json:"name" protobuf:"bytes,1,name=name"`
	CurrentAverageUtilization *int32              `json:"currentAverageUtilization,omitempty" protobuf:"bytes,2,opt,name=currentAverageUtilization"`
	CurrentAverageValue       resource.Quantity   `json:"currentAverageValue" protobuf:"bytes,3,name=currentAverageValue"`
	Container                 string              `json:"container" protobuf:"bytes,4,opt,name=container"`
}

// ExternalMetricStatus is the value of an ExternalMetricSource.
type ExternalMetricStatus struct {
	MetricName          string                `json:"metricName" protobuf:"bytes,1,name=metricName"`
	MetricSelector      *metav1.LabelSelector `json:"metricSelector,omitempty" protobuf:"bytes,2,opt,name=metricSelector"`
	CurrentValue        resource.Quantity     `json:"currentValue" protobuf:"bytes,3,name=currentValue"`
	CurrentAverageValue *resource.Quantity    `json:"currentAverageValue,omitempty" protobuf:"bytes,4,opt,name=currentAverageValue"`
}

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
