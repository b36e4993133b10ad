package v1

import metav1 "github.com/minicp/minicp/api/meta/v1"

// ConfigMap holds configuration for pods to read as environment variables
// or as files in a volume: UTF-8 strings in Data, anything else in
// BinaryData, keys unique across both.
type ConfigMap struct {
	metav1.TypeMeta   `json:""`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	// Immutable, once true, forbids changing Data and BinaryData (and
	// setting it back to false).
	Immutable  *bool             `json:"immutable,omitempty" protobuf:"varint,4,opt,name=immutable"`
	Data       map[string]string `json:"data,omitempty" protobuf:"bytes,2,rep,name=data"`
	BinaryData map[string][]byte `json:"binaryData,omitempty" protobuf:"bytes,3,rep,name=binaryData"`
}

// ConfigMapList is a list of ConfigMaps.
type ConfigMapList struct {
	metav1.TypeMeta `json:""`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ConfigMap `json:"items" protobuf:"bytes,2,rep,name=items"`
}
