package protobuf

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	kmetav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kruntime "k8s.io/apimachinery/pkg/runtime"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// TestPartialObjectMetadataListMatchesKubernetes: the list the metadata
// client reads has upstream's tags, and minicp writes the bytes
// Kubernetes does for it, each side reading the other's.
func TestPartialObjectMetadataListMatchesKubernetes(t *testing.T) {
	w := tagWalker{t: t, seen: map[reflect.Type]bool{}}
	w.walk(reflect.TypeFor[metav1.PartialObjectMetadataList](), reflect.TypeFor[kmetav1.PartialObjectMetadataList](), "PartialObjectMetadataList")

	s := newSerializer()
	for _, list := range []*metav1.PartialObjectMetadataList{
		withTypeMeta(&metav1.PartialObjectMetadataList{Items: []metav1.PartialObjectMetadata{}}, "meta.k8s.io/v1", "PartialObjectMetadataList"),
		withTypeMeta(fill(&metav1.PartialObjectMetadataList{}), "meta.k8s.io/v1", "PartialObjectMetadataList"),
	} {
		jsonBytes, err := json.Marshal(list)
		require.NoError(t, err)
		k8sList := &kmetav1.PartialObjectMetadataList{}
		require.NoError(t, json.Unmarshal(jsonBytes, k8sList), "json.Unmarshal(k8s list)")

		var want bytes.Buffer
		require.NoError(t, s.EncodeWithAllocator(k8sList, &want, &kruntime.SimpleAllocator{}), "k8s Encode")
		got, err := runtime.EncodeProtobuf(list)
		require.NoError(t, err, "EncodeProtobuf")
		if !bytes.Equal(want.Bytes(), got) {
			t.Errorf("EncodeProtobuf differs from Kubernetes' bytes:\n%s", diffDumps(want.Bytes()[4:], got[4:]))
		}

		decoded := &metav1.PartialObjectMetadataList{}
		require.NoError(t, runtime.DecodeProtobuf(want.Bytes(), decoded), "DecodeProtobuf(k8s bytes)")
		assert.Equal(t, list.TypeMeta, decoded.TypeMeta, "DecodeProtobuf(k8s bytes) kind")
		assert.Equal(t, list.ListMeta, decoded.ListMeta, "DecodeProtobuf(k8s bytes) list metadata")
		require.Len(t, decoded.Items, len(list.Items), "DecodeProtobuf(k8s bytes) items")
		for i := range list.Items {
			// Protobuf has no place for the items' kind; JSON does.
			assert.Equal(t, list.Items[i].ObjectMeta, decoded.Items[i].ObjectMeta, "DecodeProtobuf(k8s bytes) item %d", i)
		}

		k8sDecoded := &kmetav1.PartialObjectMetadataList{}
		_, _, err = s.Decode(got, nil, k8sDecoded)
		require.NoError(t, err, "k8s Decode(minicp bytes)")
		k8sList.Items = clearKinds(k8sList.Items)
		assert.True(t, apiequality.Semantic.DeepEqual(k8sList, k8sDecoded), "k8s Decode(minicp bytes): got %+v, want %+v", k8sDecoded, k8sList)
	}
}

// clearKinds empties the items' kinds, which protobuf does not carry.
func clearKinds(items []kmetav1.PartialObjectMetadata) []kmetav1.PartialObjectMetadata {
	for i := range items {
		items[i].TypeMeta = kmetav1.TypeMeta{}
	}
	return items
}
