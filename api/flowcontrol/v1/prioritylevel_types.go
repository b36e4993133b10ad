package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// PriorityLevelConfiguration represents the configuration of a priority
// level: its share of the server's concurrency and what happens to the
// requests that find no free seat.
type PriorityLevelConfiguration struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Spec is the specification of the desired behavior of a
	// "request-priority".
	Spec PriorityLevelConfigurationSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
	// Status is the current status of a "request-priority".
	Status PriorityLevelConfigurationStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// PriorityLevelConfigurationList is a list of PriorityLevelConfiguration
// objects.
type PriorityLevelConfigurationList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Items is a list of request-priorities.
	Items []PriorityLevelConfiguration `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PriorityLevelConfigurationSpec specifies the configuration of a
// priority level.
type PriorityLevelConfigurationSpec struct {
	// Type indicates whether this priority level is subject to limitation
	// on request execution: Exempt or Limited.
	Type PriorityLevelEnablement `json:"type" protobuf:"bytes,1,opt,name=type"`
	// Limited specifies how requests are handled for a Limited priority
	// level; it must be set if and only if Type is Limited.
	Limited *LimitedPriorityLevelConfiguration `json:"limited,omitempty" protobuf:"bytes,2,opt,name=limited"`
	// Exempt specifies how requests are handled for an exempt priority
	// level; it may be set only if Type is Exempt.
	Exempt *ExemptPriorityLevelConfiguration `json:"exempt,omitempty" protobuf:"bytes,3,opt,name=exempt"`
}

// PriorityLevelEnablement indicates whether limits on execution are
// enabled for the priority level.
type PriorityLevelEnablement string

// The kinds of priority level.
const (
	// PriorityLevelEnablementExempt means that requests are not subject
	// to limits.
	PriorityLevelEnablementExempt PriorityLevelEnablement = "Exempt"
	// PriorityLevelEnablementLimited means that requests are subject to
	// limits.
	PriorityLevelEnablementLimited PriorityLevelEnablement = "Limited"
)

// LimitedPriorityLevelConfiguration specifies how to handle requests
// that are subject to limits.
type LimitedPriorityLevelConfiguration struct {
	// NominalConcurrencyShares contributes to the computation of the
	// NominalConcurrencyLimit: the level's seats are
	// ceil(serverConcurrencyLimit * shares / sum of every level's shares).
	// Defaults to 30.
	NominalConcurrencyShares *int32 `json:"nominalConcurrencyShares" protobuf:"varint,1,opt,name=nominalConcurrencyShares"`
	// LimitResponse indicates what to do with requests that can not be
	// executed right now.
	LimitResponse LimitResponse `json:"limitResponse,omitempty" protobuf:"bytes,2,opt,name=limitResponse"`
	// LendablePercent prescribes the fraction of the level's NominalCL
	// that can be borrowed by other priority levels.
	LendablePercent *int32 `json:"lendablePercent,omitempty" protobuf:"varint,3,opt,name=lendablePercent"`
	// BorrowingLimitPercent, if present, configures a limit on how many
	// seats this priority level can borrow from other priority levels.
	BorrowingLimitPercent *int32 `json:"borrowingLimitPercent,omitempty" protobuf:"varint,4,opt,name=borrowingLimitPercent"`
}

// ExemptPriorityLevelConfiguration describes the configurable aspects of
// the handling of exempt requests.
type ExemptPriorityLevelConfiguration struct {
	// NominalConcurrencyShares contributes to the computation of the
	// NominalConcurrencyLimit of this level. Defaults to 0.
	NominalConcurrencyShares *int32 `json:"nominalConcurrencyShares,omitempty" protobuf:"varint,1,opt,name=nominalConcurrencyShares"`
	// LendablePercent prescribes the fraction of the level's NominalCL
	// that can be borrowed by other priority levels.
	LendablePercent *int32 `json:"lendablePercent,omitempty" protobuf:"varint,2,opt,name=lendablePercent"`
}

// LimitResponse defines how to handle requests that can not be executed
// right now.
type LimitResponse struct {
	// Type is "Queue" or "Reject".
	Type LimitResponseType `json:"type" protobuf:"bytes,1,opt,name=type"`
	// Queuing holds the configuration parameters for queuing; it may be
	// set only if Type is Queue.
	Queuing *QueuingConfiguration `json:"queuing,omitempty" protobuf:"bytes,2,opt,name=queuing"`
}

// LimitResponseType identifies how a Limited priority level handles a
// request that can not be executed right now.
type LimitResponseType string

// The limit responses.
const (
	// LimitResponseTypeQueue means that requests that can not be executed
	// right now are queued until they can be executed or a queuing limit
	// is hit.
	LimitResponseTypeQueue LimitResponseType = "Queue"
	// LimitResponseTypeReject means that requests that can not be
	// executed right now are rejected.
	LimitResponseTypeReject LimitResponseType = "Reject"
)

// QueuingConfiguration holds the configuration parameters for queuing.
type QueuingConfiguration struct {
	// Queues is the number of queues for this priority level. Defaults to
	// 64.
	Queues int32 `json:"queues" protobuf:"varint,1,opt,name=queues"`
	// HandSize is the number of queues each flow may use (shuffle
	// sharding). Defaults to 8.
	HandSize int32 `json:"handSize" protobuf:"varint,2,opt,name=handSize"`
	// QueueLengthLimit is the maximum number of requests allowed to be
	// waiting in a given queue of this priority level at a time. Defaults
	// to 50.
	QueueLengthLimit int32 `json:"queueLengthLimit" protobuf:"varint,3,opt,name=queueLengthLimit"`
}

// PriorityLevelConfigurationConditionType is a valid value for
// PriorityLevelConfigurationStatusCondition.Type.
type PriorityLevelConfigurationConditionType string

// PriorityLevelConfigurationStatus represents the current state of a
// "request-priority".
type PriorityLevelConfigurationStatus struct {
	// Conditions is the current state of "request-priority".
	Conditions []PriorityLevelConfigurationCondition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type" protobuf:"bytes,1,rep,name=conditions"`
}

// PriorityLevelConfigurationCondition defines the condition of priority
// level.
type PriorityLevelConfigurationCondition struct {
	// Type is the type of the condition.
	Type PriorityLevelConfigurationConditionType `json:"type,omitempty" protobuf:"bytes,1,opt,name=type"`
	// Status is the status of the condition: True, False or Unknown.
	Status ConditionStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`
	// LastTransitionTime is the last time the condition transitioned from
	// one status to another.
	LastTransitionTime metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,3,opt,name=lastTransitionTime"`
	// Reason is a unique, one-word, CamelCase reason for the condition's
	// last transition.
	Reason string `json:"reason,omitempty" protobuf:"bytes,4,opt,name=reason"`
	// Message is a human-readable message indicating details about last
	// transition.
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
}

// DeepCopyObject implements runtime.Object.
func (p *PriorityLevelConfiguration) DeepCopyObject() runtime.Object { return runtime.DeepCopy(p) }

// DeepCopy returns a deep copy.
func (p *PriorityLevelConfiguration) DeepCopy() *PriorityLevelConfiguration {
	return runtime.DeepCopy(p)
}

// DeepCopyObject implements runtime.Object.
func (l *PriorityLevelConfigurationList) DeepCopyObject() runtime.Object {
	return runtime.DeepCopy(l)
}
