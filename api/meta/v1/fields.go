package v1

import (
	"bytes"
	"encoding/json"
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// The operations a ManagedFieldsEntry records: an Apply is a server-side
// apply (the manager's whole intent), an Update any other write (create,
// update, non-apply patch).
const (
	ManagedFieldsOperationApply  = "Apply"
	ManagedFieldsOperationUpdate = "Update"
)

// FieldsV1 is the set of fields a manager owns, as the JSON trie
// structured-merge-diff writes: {"f:metadata":{"f:labels":{".":{},...}}}.
// It is kept as the raw bytes the field manager produced, not decoded,
// because the order of its keys is the set's order (a numeric key sorts
// by value, 80 before 443), which a decoded map would lose on the way
// back out.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (FieldsV1).
type FieldsV1 struct {
	// Raw is the JSON trie. The JSON and protobuf forms carry it verbatim.
	Raw []byte `json:"-" protobuf:"bytes,1,opt,name=Raw"`
}

// MarshalJSON writes Raw as it is, or null when there is none.
func (f FieldsV1) MarshalJSON() ([]byte, error) {
	if f.Raw == nil {
		return []byte("null"), nil
	}
	return f.Raw, nil
}

// UnmarshalJSON keeps b, compacted, as Raw; null leaves Raw unset. The
// compact form is the one every writer (the field manager, protobuf
// clients) produces, so an indented request body stores the same bytes.
func (f *FieldsV1) UnmarshalJSON(b []byte) error {
	if f == nil {
		return errors.New("metav1.FieldsV1: UnmarshalJSON on nil pointer")
	}
	if bytes.Equal(b, []byte("null")) {
		return nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return err
	}
	f.Raw = buf.Bytes()
	return nil
}

// AppendProtobuf implements runtime.ProtobufMarshaler: Raw as field 1,
// as upstream's generated Marshal writes it.
func (f FieldsV1) AppendProtobuf(b []byte) []byte {
	if f.Raw == nil {
		return b
	}
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendBytes(b, f.Raw)
}

// UnmarshalProtobuf implements runtime.ProtobufUnmarshaler.
func (f *FieldsV1) UnmarshalProtobuf(data []byte) error {
	f.Raw = nil
	for len(data) > 0 {
		num, typ, n := protowire.ConsumeTag(data)
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
		if num == 1 && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(data)
			if n < 0 {
				return protowire.ParseError(n)
			}
			f.Raw = append([]byte{}, v...)
			data = data[n:]
			continue
		}
		n = protowire.ConsumeFieldValue(num, typ, data)
		if n < 0 {
			return protowire.ParseError(n)
		}
		data = data[n:]
	}
	return nil
}
