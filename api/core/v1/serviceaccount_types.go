package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// ServiceAccount is an identity for processes in pods: a pod runs as the
// service account in spec.serviceAccountName ("default" unless it says).
type ServiceAccount struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Secrets are secrets pods of this account may use (token secrets in
	// older clusters).
	Secrets []ObjectReference `json:"secrets,omitempty" patchStrategy:"merge" patchMergeKey:"name" protobuf:"bytes,2,rep,name=secrets"`
	// ImagePullSecrets are added to the pods of this account.
	ImagePullSecrets []LocalObjectReference `json:"imagePullSecrets,omitempty" protobuf:"bytes,3,rep,name=imagePullSecrets"`
	// AutomountServiceAccountToken says whether pods get the token mounted
	// unless they say otherwise.
	AutomountServiceAccountToken *bool `json:"automountServiceAccountToken,omitempty" protobuf:"varint,4,opt,name=automountServiceAccountToken"`
}

// ServiceAccountList is a list of ServiceAccounts.
type ServiceAccountList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ServiceAccount `json:"items" protobuf:"bytes,2,rep,name=items"`
}
