package v1

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// Lease is a lock with an expiry: whoever holds it renews it before
// LeaseDurationSeconds pass, or loses it.
type Lease struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Spec              LeaseSpec `json:"spec,omitempty" protobuf:"bytes,2,opt,name=spec"`
}

// LeaseSpec is the state of a Lease.
type LeaseSpec struct {
	// HolderIdentity is who holds the lease now.
	HolderIdentity *string `json:"holderIdentity,omitempty" protobuf:"bytes,1,opt,name=holderIdentity"`
	// LeaseDurationSeconds is how long a holder's claim lasts after its
	// last renewal.
	LeaseDurationSeconds *int32            `json:"leaseDurationSeconds,omitempty" protobuf:"varint,2,opt,name=leaseDurationSeconds"`
	AcquireTime          *metav1.MicroTime `json:"acquireTime,omitempty" protobuf:"bytes,3,opt,name=acquireTime"`
	RenewTime            *metav1.MicroTime `json:"renewTime,omitempty" protobuf:"bytes,4,opt,name=renewTime"`
	// LeaseTransitions counts changes of holder.
	LeaseTransitions *int32 `json:"leaseTransitions,omitempty" protobuf:"varint,5,opt,name=leaseTransitions"`
	// Strategy and PreferredHolder are for coordinated leader election.
	Strategy        *string `json:"strategy,omitempty" protobuf:"bytes,6,opt,name=strategy"`
	PreferredHolder *string `json:"preferredHolder,omitempty" protobuf:"bytes,7,opt,name=preferredHolder"`
}

// LeaseList is a list of Leases.
type LeaseList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Lease `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DeepCopyObject implements runtime.Object.
func (l *Lease) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// DeepCopy returns a deep copy.
func (l *Lease) DeepCopy() *Lease { return runtime.DeepCopy(l) }

// DeepCopyObject implements runtime.Object.
func (l *LeaseList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// GroupName is the API group of this package.
const GroupName = "coordination.k8s.io"

// SchemeGroupVersion is the group/version of every kind in this package.
var SchemeGroupVersion = runtime.GroupVersion{Group: GroupName, Version: "v1"}

// AddToScheme registers Lease and its resource as Kubernetes discovery
// reports it.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(SchemeGroupVersion, &Lease{}, &LeaseList{})
	return s.AddResource(runtime.ResourceInfo{
		GVR: SchemeGroupVersion.WithResource("leases"), Kind: "Lease", SingularName: "lease",
		Namespaced: true, Verbs: append([]string(nil), runtime.AllVerbs...),
	})
}
