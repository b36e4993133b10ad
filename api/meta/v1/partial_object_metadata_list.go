package v1

import "github.com/minicp/minicp/api/runtime"

// PartialObjectMetadataList is a list of objects with only their
// metadata: what a LIST answers when the client asks for
// Accept: ...;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1, as
// client-go's metadata client and controller-runtime's metadata-only
// cache do, to watch many objects without paying for their specs. Each
// item has kind PartialObjectMetadata and apiVersion meta.k8s.io/v1.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (PartialObjectMetadataList).
type PartialObjectMetadataList struct {
	TypeMeta `json:",inline"`
	ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items    []PartialObjectMetadata `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// DeepCopyObject implements runtime.Object.
func (l *PartialObjectMetadataList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }
