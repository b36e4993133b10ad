package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Deployment declares a set of identical pods and how to roll out a new
// version of them: the deployment controller creates one ReplicaSet per
// pod template and moves replicas from the old ones to the new one.
type Deployment struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              DeploymentSpec   `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	Status            DeploymentStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// DeploymentList is a list of Deployments.
type DeploymentList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Deployment `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DeploymentSpec is the desired state of a Deployment.
type DeploymentSpec struct {
	// Replicas is the number of pods wanted. Defaults to 1.
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,1,opt,name=replicas"`
	// Selector picks the pods (and ReplicaSets) the Deployment owns. It
	// must match Template's labels and may not change after creation.
	Selector *metav1.LabelSelector `json:"selector" protobuf:"bytes,2,opt,name=selector"`
	// Template is the pod every replica is created from. Changing it
	// starts a rollout.
	Template corev1.PodTemplateSpec `json:"template" protobuf:"bytes,3,opt,name=template"`
	// Strategy says how old pods are replaced by new ones. Defaults to a
	// RollingUpdate with 25% surge and 25% unavailable.
	Strategy DeploymentStrategy `json:"strategy,omitempty" patchStrategy:"retainKeys" protobuf:"bytes,4,opt,name=strategy"`
	// MinReadySeconds is how long a new pod must be ready, without any of
	// its containers crashing, to count as available.
	MinReadySeconds int32 `json:"minReadySeconds,omitempty" protobuf:"varint,5,opt,name=minReadySeconds"`
	// RevisionHistoryLimit is how many old ReplicaSets to keep for
	// rollbacks. Defaults to 10.
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,6,opt,name=revisionHistoryLimit"`
	// Paused stops the controller from acting on template changes.
	Paused bool `json:"paused,omitempty" protobuf:"varint,7,opt,name=paused"`
	// ProgressDeadlineSeconds is how long a rollout may make no progress
	// before the Progressing condition turns False with reason
	// ProgressDeadlineExceeded. Defaults to 600.
	ProgressDeadlineSeconds *int32 `json:"progressDeadlineSeconds,omitempty" protobuf:"varint,9,opt,name=progressDeadlineSeconds"`
}

// DefaultDeploymentUniqueLabelKey is the label the deployment controller
// adds to a ReplicaSet's selector, template and pods, set to a hash of the
// pod template, so ReplicaSets of one Deployment never select each
// other's pods.
const DefaultDeploymentUniqueLabelKey = "pod-template-hash"

// DeploymentStrategy says how a Deployment replaces its pods.
type DeploymentStrategy struct {
	// Type is Recreate or RollingUpdate. Defaults to RollingUpdate.
	Type DeploymentStrategyType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type,casttype=DeploymentStrategyType"`
	// RollingUpdate tunes a RollingUpdate; it must be unset for Recreate.
	RollingUpdate *RollingUpdateDeployment `json:"rollingUpdate,omitempty" protobuf:"bytes,2,opt,name=rollingUpdate"`
}

// DeploymentStrategyType names a rollout strategy.
type DeploymentStrategyType string

// The rollout strategies.
const (
	// RecreateDeploymentStrategyType kills every old pod before creating
	// new ones.
	RecreateDeploymentStrategyType DeploymentStrategyType = "Recreate"
	// RollingUpdateDeploymentStrategyType replaces pods gradually, within
	// maxSurge and maxUnavailable.
	RollingUpdateDeploymentStrategyType DeploymentStrategyType = "RollingUpdate"
)

// RollingUpdateDeployment bounds a rolling update. Each is a count or a
// percentage of spec.replicas; they may not both be 0.
type RollingUpdateDeployment struct {
	// MaxUnavailable is how many pods may be unavailable during the
	// update, rounded down from a percentage. Defaults to 25%.
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty" protobuf:"bytes,1,opt,name=maxUnavailable"`
	// MaxSurge is how many pods may exist above spec.replicas, rounded up
	// from a percentage. Defaults to 25%.
	MaxSurge *intstr.IntOrString `json:"maxSurge,omitempty" protobuf:"bytes,2,opt,name=maxSurge"`
}

// DeploymentStatus is the observed state of a Deployment, written by the
// deployment controller through the status subresource.
type DeploymentStatus struct {
	// ObservedGeneration is the metadata.generation the controller last
	// acted on.
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`
	// Replicas counts the non-terminating pods of every ReplicaSet.
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,2,opt,name=replicas"`
	// UpdatedReplicas counts the pods of the newest template.
	UpdatedReplicas int32 `json:"updatedReplicas,omitempty" protobuf:"varint,3,opt,name=updatedReplicas"`
	// ReadyReplicas counts the pods with a Ready condition.
	ReadyReplicas int32 `json:"readyReplicas,omitempty" protobuf:"varint,7,opt,name=readyReplicas"`
	// AvailableReplicas counts the pods ready for at least minReadySeconds.
	AvailableReplicas int32 `json:"availableReplicas,omitempty" protobuf:"varint,4,opt,name=availableReplicas"`
	// UnavailableReplicas is how many more pods are needed for all
	// replicas to be available.
	UnavailableReplicas int32 `json:"unavailableReplicas,omitempty" protobuf:"varint,5,opt,name=unavailableReplicas"`
	// TerminatingReplicas counts pods being deleted, when the controller
	// tracks them.
	TerminatingReplicas *int32                `json:"terminatingReplicas,omitempty" protobuf:"varint,9,opt,name=terminatingReplicas"`
	Conditions          []DeploymentCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,6,rep,name=conditions"`
	// CollisionCount counts pod-template-hash collisions; the controller
	// mixes it into the hash to get a fresh name.
	CollisionCount *int32 `json:"collisionCount,omitempty" protobuf:"varint,8,opt,name=collisionCount"`
}

// DeploymentConditionType names a deployment condition.
type DeploymentConditionType string

// The deployment conditions.
const (
	// DeploymentAvailable is True when at least spec.replicas minus
	// maxUnavailable pods are available.
	DeploymentAvailable DeploymentConditionType = "Available"
	// DeploymentProgressing is True while a rollout advances or has
	// completed, False once progressDeadlineSeconds pass without progress.
	DeploymentProgressing DeploymentConditionType = "Progressing"
	// DeploymentReplicaFailure is True when a pod could not be created or
	// deleted.
	DeploymentReplicaFailure DeploymentConditionType = "ReplicaFailure"
)

// DeploymentCondition is one observation about a Deployment.
type DeploymentCondition struct {
	Type   DeploymentConditionType `json:"type" protobuf:"bytes,1,opt,name=type,casttype=DeploymentConditionType"`
	Status corev1.ConditionStatus  `json:"status" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/api/core/v1.ConditionStatus"`
	// LastUpdateTime is when the condition was last written; it changes
	// while a rollout progresses even if Status does not.
	LastUpdateTime     metav1.Time `json:"lastUpdateTime,omitempty" protobuf:"bytes,6,opt,name=lastUpdateTime"`
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,7,opt,name=lastTransitionTime"`
	Reason             string      `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	Message            string      `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}
