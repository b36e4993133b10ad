package runtime

import (
	"encoding/json"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/encoding/protowire"
)

// These tests use kinds of their own with a field of every shape the codec
// handles; api/core/v1's tests cover the real kinds against bytes
// Kubernetes wrote.

// pbGadget is a kind with one field of each shape, numbered out of order so
// the tests see fields written by number rather than declaration order.
type pbGadget struct {
	TypeMeta `json:",inline"`
	Name     string              `protobuf:"bytes,1,opt,name=name"`
	Spec     pbGadgetSpec        `protobuf:"bytes,3,opt,name=spec"`
	Status   *pbGadgetStatus     `protobuf:"bytes,2,opt,name=status"`
	Untagged string              // not on the wire
	Skipped  string              `protobuf:"-"`
	Labels   map[string]string   `protobuf:"bytes,4,rep,name=labels"`
	Parts    map[string]pbAmount `protobuf:"bytes,5,rep,name=parts,castkey=PartName"`
}

func (g *pbGadget) DeepCopyObject() Object { return DeepCopy(g) }

type pbMode string

type pbGadgetSpec struct {
	Mode     pbMode          `protobuf:"bytes,1,opt,name=mode,casttype=pbMode"`
	Replicas int32           `protobuf:"varint,2,opt,name=replicas"`
	Offset   int64           `protobuf:"varint,3,opt,name=offset"`
	Size     uint64          `protobuf:"varint,4,opt,name=size"`
	Enabled  bool            `protobuf:"varint,5,opt,name=enabled"`
	Paused   *bool           `protobuf:"varint,6,opt,name=paused"`
	Limit    *int64          `protobuf:"varint,7,opt,name=limit"`
	Owner    *string         `protobuf:"bytes,8,opt,name=owner"`
	Tags     []string        `protobuf:"bytes,9,rep,name=tags"`
	Ports    []int32         `protobuf:"varint,10,rep,name=ports"`
	Items    []pbItem        `protobuf:"bytes,11,rep,name=items"`
	Verbs    []string        `protobuf:"bytes,12,opt,name=verbs" protobuf_wrapped:"true"`
	Blob     []byte          `protobuf:"bytes,13,opt,name=blob"`
	Raw      json.RawMessage `protobuf:"bytes,14,opt,name=raw"`
	Doc      map[string]any  `protobuf:"bytes,15,opt,name=doc"`
	Amount   pbAmount        `protobuf:"bytes,16,opt,name=amount"`
	MaxAmt   *pbAmount       `protobuf:"bytes,17,opt,name=maxAmount"`
	Amounts  []pbAmount      `protobuf:"bytes,18,rep,name=amounts"`
}

type pbItem struct {
	Key   string `protobuf:"bytes,1,opt,name=key"`
	Value string `protobuf:"bytes,2,opt,name=value"`
}

type pbGadgetStatus struct {
	Ready bool `protobuf:"varint,1,opt,name=ready"`
}

// pbAmount writes itself, like resource.Quantity: {1: decimal string}.
type pbAmount struct {
	n int64
}

func (a pbAmount) AppendProtobuf(b []byte) []byte {
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	return protowire.AppendString(b, fmt.Sprint(a.n))
}

func (a *pbAmount) UnmarshalProtobuf(data []byte) error {
	*a = pbAmount{}
	num, typ, n := protowire.ConsumeTag(data)
	if n < 0 || num != 1 || typ != protowire.BytesType {
		return fmt.Errorf("bad amount")
	}
	s, m := protowire.ConsumeString(data[n:])
	if m < 0 {
		return protowire.ParseError(m)
	}
	_, err := fmt.Sscan(s, &a.n)
	return err
}

func ptr[T any](v T) *T { return &v }

func fullGadget() *pbGadget {
	return &pbGadget{
		TypeMeta: TypeMeta{APIVersion: "example.com/v1", Kind: "pbGadget"},
		Name:     "g1",
		Status:   &pbGadgetStatus{Ready: true},
		Labels:   map[string]string{"b": "2", "a": "1", "": ""},
		Parts:    map[string]pbAmount{"wheel": {4}, "axle": {2}},
		Spec: pbGadgetSpec{
			Mode: "fast", Replicas: -3, Offset: math.MinInt64, Size: math.MaxUint64, Enabled: true,
			Paused: ptr(false), Limit: ptr(int64(0)), Owner: ptr(""),
			Tags: []string{"x", "", "z"}, Ports: []int32{80, -1, 443},
			Items:  []pbItem{{Key: "k", Value: "v"}, {}},
			Verbs:  []string{"get", "list"},
			Blob:   []byte{0, 1, 2},
			Raw:    json.RawMessage(`{"a":1}`),
			Doc:    map[string]any{"f:metadata": map[string]any{"f:name": map[string]any{}}},
			Amount: pbAmount{7}, MaxAmt: &pbAmount{-9}, Amounts: []pbAmount{{1}, {0}},
		},
	}
}

func TestProtobufRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		obj  *pbGadget
	}{
		{name: "zero", obj: &pbGadget{TypeMeta: TypeMeta{APIVersion: "example.com/v1", Kind: "pbGadget"}}},
		{name: "full", obj: fullGadget()},
		{name: "empty wrapped list is kept", obj: &pbGadget{Spec: pbGadgetSpec{Verbs: []string{}}}},
		{name: "empty raw is kept", obj: &pbGadget{Spec: pbGadgetSpec{Raw: json.RawMessage{}}}},
		{name: "empty json object", obj: &pbGadget{Spec: pbGadgetSpec{Doc: map[string]any{}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := EncodeProtobuf(tc.obj)
			require.NoError(t, err, "EncodeProtobuf(%s)", tc.name)
			var got pbGadget
			require.NoError(t, DecodeProtobuf(data, &got), "DecodeProtobuf(%s)", tc.name)
			want := DeepCopy(tc.obj)
			want.Untagged, want.Skipped = "", ""
			assert.Equal(t, want, &got, "round trip of %s", tc.name)
		})
	}
}

func TestProtobufSkipsUntaggedFields(t *testing.T) {
	withExtras := &pbGadget{Name: "g", Untagged: "u", Skipped: "s"}
	a, err := EncodeProtobuf(withExtras)
	require.NoError(t, err)
	b, err := EncodeProtobuf(&pbGadget{Name: "g"})
	require.NoError(t, err)
	assert.Equal(t, b, a, "untagged and protobuf:\"-\" fields must not be written")
}

// TestProtobufWireLayout pins the bytes of small messages to what
// Kubernetes' generated code writes: fields by number, scalars and nested
// messages always written, nil pointers, slices and maps left out,
// repeated scalars unpacked, negative ints as ten-byte varints, map entries
// in key order.
func TestProtobufWireLayout(t *testing.T) {
	// The spec of a zero gadget: 1: "", 2: 0, 3: 0, 4: 0, 5: false,
	// 14: {} (a RawExtension is always written), 16: {1: "0"}.
	zeroSpec := []byte{0x0a, 0x00, 0x10, 0x00, 0x18, 0x00, 0x20, 0x00, 0x28, 0x00, 0x72, 0x00, 0x82, 0x01, 0x03, 0x0a, 0x01, '0'}
	minusOne := []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}
	cat := func(parts ...[]byte) []byte {
		var b []byte
		for _, p := range parts {
			b = append(b, p...)
		}
		return b
	}
	tests := []struct {
		name string
		obj  *pbGadget
		want []byte // the object message, without the envelope
	}{
		{
			name: "zero",
			obj:  &pbGadget{},
			want: cat([]byte{0x0a, 0x00, 0x1a, byte(len(zeroSpec))}, zeroSpec),
		},
		{
			name: "map entries in key order",
			obj:  &pbGadget{Labels: map[string]string{"b": "2", "a": "1"}},
			want: cat([]byte{0x0a, 0x00, 0x1a, byte(len(zeroSpec))}, zeroSpec,
				[]byte{0x22, 0x06, 0x0a, 0x01, 'a', 0x12, 0x01, '1'},
				[]byte{0x22, 0x06, 0x0a, 0x01, 'b', 0x12, 0x01, '2'}),
		},
		{
			name: "repeated ints unpacked",
			obj:  &pbGadget{Spec: pbGadgetSpec{Ports: []int32{1, -1}}},
			want: cat([]byte{0x0a, 0x00, 0x1a, byte(len(zeroSpec) + 13)},
				zeroSpec[:10], []byte{0x50, 0x01, 0x50}, minusOne, zeroSpec[10:]),
		},
		{
			name: "pointers written when set, even to zero values",
			obj:  &pbGadget{Status: &pbGadgetStatus{}, Spec: pbGadgetSpec{Paused: ptr(false), Owner: ptr("")}},
			want: cat([]byte{0x0a, 0x00, 0x12, 0x02, 0x08, 0x00, 0x1a, byte(len(zeroSpec) + 4)},
				zeroSpec[:10], []byte{0x30, 0x00, 0x42, 0x00}, zeroSpec[10:]),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			data, err := EncodeProtobuf(tc.obj)
			require.NoError(t, err, "EncodeProtobuf(%s)", tc.name)
			assert.Equal(t, tc.want, objectMessage(t, data), "EncodeProtobuf(%s)", tc.name)
		})
	}
}

// TestProtobufDecodeLenient checks what protobuf readers must accept:
// unknown fields of every wire type, packed repeated scalars, fields out of
// order and repeated singular fields (last one wins).
func TestProtobufDecodeLenient(t *testing.T) {
	var spec []byte
	spec = protowire.AppendTag(spec, 2, protowire.VarintType)
	spec = protowire.AppendVarint(spec, 5)
	spec = protowire.AppendTag(spec, 99, protowire.Fixed32Type)
	spec = protowire.AppendFixed32(spec, 7)
	spec = protowire.AppendTag(spec, 98, protowire.StartGroupType)
	spec = protowire.AppendTag(spec, 1, protowire.VarintType)
	spec = protowire.AppendVarint(spec, 1)
	spec = protowire.AppendTag(spec, 98, protowire.EndGroupType)
	spec = protowire.AppendTag(spec, 10, protowire.BytesType) // packed ports
	spec = protowire.AppendBytes(spec, []byte{1, 2, 3})
	spec = protowire.AppendTag(spec, 10, protowire.VarintType) // then one more, unpacked
	spec = protowire.AppendVarint(spec, 4)
	spec = protowire.AppendTag(spec, 2, protowire.VarintType) // replicas again
	spec = protowire.AppendVarint(spec, 6)

	var msg []byte
	msg = protowire.AppendTag(msg, 3, protowire.BytesType)
	msg = protowire.AppendBytes(msg, spec)
	msg = protowire.AppendTag(msg, 1, protowire.BytesType)
	msg = protowire.AppendString(msg, "late")
	msg = protowire.AppendTag(msg, 77, protowire.Fixed64Type)
	msg = protowire.AppendFixed64(msg, 1)

	var got pbGadget
	require.NoError(t, DecodeProtobuf(envelopeFor("example.com/v1", "pbGadget", msg), &got))
	assert.Equal(t, "late", got.Name)
	assert.Equal(t, int32(6), got.Spec.Replicas, "the last occurrence of a singular field wins")
	assert.Equal(t, []int32{1, 2, 3, 4}, got.Spec.Ports)
	assert.Equal(t, TypeMeta{APIVersion: "example.com/v1", Kind: "pbGadget"}, got.TypeMeta)
}

func TestDecodeProtobufReplacesInto(t *testing.T) {
	data, err := EncodeProtobuf(&pbGadget{Name: "new", Spec: pbGadgetSpec{Tags: []string{"b"}}})
	require.NoError(t, err)
	got := fullGadget()
	require.NoError(t, DecodeProtobuf(data, got))
	assert.Equal(t, &pbGadget{Name: "new", Spec: pbGadgetSpec{Tags: []string{"b"}, Amount: pbAmount{}}}, got)
}

func TestDecodeProtobufErrors(t *testing.T) {
	valid, err := EncodeProtobuf(fullGadget())
	require.NoError(t, err)
	withSpec := func(spec []byte) []byte {
		msg := protowire.AppendTag(nil, 3, protowire.BytesType)
		return envelopeFor("", "", protowire.AppendBytes(msg, spec))
	}
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{name: "empty", data: nil, want: "prefix"},
		{name: "json", data: []byte(`{"kind":"pbGadget"}`), want: "prefix"},
		{name: "only the magic", data: []byte("k8s\x00"), want: "empty body"},
		{name: "truncated envelope", data: valid[:len(valid)/2], want: "envelope"},
		{name: "wrong kind", data: envelopeFor("v1", "Pod", nil), want: `body is a "Pod", not a "pbGadget"`},
		{name: "compressed", data: append(envelopeFor("", "", nil), 0x1a, 0x04, 'g', 'z', 'i', 'p'), want: "content encoding"},
		{name: "other content type", data: append(envelopeFor("", "", nil), 0x22, 0x10, 'a', 'p', 'p', 'l', 'i', 'c', 'a', 't', 'i', 'o', 'n', '/', 'j', 's', 'o', 'n'), want: "content type"},
		{name: "envelope field of wrong wire type", data: []byte("k8s\x00\x08\x01"), want: "wire type"},
		{name: "string field sent as varint", data: envelopeFor("", "", []byte{0x08, 0x01}), want: "field name: wire type 0, want 2"},
		{name: "nested field of wrong wire type", data: withSpec([]byte{0x0a, 0x01, 0x00, 0x10, 0x00, 0x4a, 0x00, 0x12, 0x00}), want: "field spec.replicas"},
		{name: "truncated nested message", data: withSpec([]byte{0x5a, 0x10, 0x0a}), want: "field spec.items"},
		{name: "custom unmarshaler error", data: withSpec([]byte{0x82, 0x01, 0x02, 0x08, 0x01}), want: "field spec.amount: bad amount"},
		{name: "bad JSON", data: withSpec([]byte{0x7a, 0x03, 0x0a, 0x01, '['}), want: "field spec.doc: raw JSON"},
		{name: "JSON of the wrong shape", data: withSpec([]byte{0x7a, 0x04, 0x0a, 0x02, '[', ']'}), want: "field spec.doc: raw JSON"},
		{name: "field number 0", data: envelopeFor("", "", []byte{0x00}), want: "invalid field number"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got pbGadget
			err := DecodeProtobuf(tc.data, &got)
			require.Error(t, err, "DecodeProtobuf(%s)", tc.name)
			assert.Contains(t, err.Error(), tc.want, "DecodeProtobuf(%s)", tc.name)
		})
	}
}

// TestDecodeProtobufTruncations decodes every prefix of a valid body: each
// must fail or succeed, never panic.
func TestDecodeProtobufTruncations(t *testing.T) {
	valid, err := EncodeProtobuf(fullGadget())
	require.NoError(t, err)
	for i := range valid {
		var got pbGadget
		_ = DecodeProtobuf(valid[:i], &got)
	}
}

func TestProtobufArgumentErrors(t *testing.T) {
	var nilGadget *pbGadget
	_, err := EncodeProtobuf(nilGadget)
	assert.ErrorContains(t, err, "not a non-nil pointer")
	assert.ErrorContains(t, DecodeProtobuf([]byte("k8s\x00\x0a\x00"), nilGadget), "not a non-nil pointer")
}

// Kinds whose tags or field types the codec cannot handle; each must be an
// error from Encode and Decode, never a panic.
type (
	pbBadTag struct {
		TypeMeta
		A string `protobuf:"bytes,zero,opt,name=a"`
	}
	pbBadWire struct {
		TypeMeta
		A float64 `protobuf:"fixed64,1,opt,name=a"`
	}
	pbBadType struct {
		TypeMeta
		A float64 `protobuf:"varint,1,opt,name=a"`
	}
	pbDuplicate struct {
		TypeMeta
		A string `protobuf:"bytes,1,opt,name=a"`
		B string `protobuf:"bytes,1,opt,name=b"`
	}
	pbIntKeys struct {
		TypeMeta
		A map[int]string `protobuf:"bytes,1,rep,name=a"`
	}
	pbHalfCustom struct {
		TypeMeta
		A pbOnlyMarshals `protobuf:"bytes,1,opt,name=a"`
	}
	pbNested struct {
		TypeMeta
		A [][]string `protobuf:"bytes,1,rep,name=a"`
	}
	pbUnexported struct {
		TypeMeta
		a string `protobuf:"bytes,1,opt,name=a"`
	}
	pbOnlyMarshals struct{}
)

func (pbOnlyMarshals) AppendProtobuf(b []byte) []byte { return b }

func (o *pbBadTag) DeepCopyObject() Object     { return o }
func (o *pbBadWire) DeepCopyObject() Object    { return o }
func (o *pbBadType) DeepCopyObject() Object    { return o }
func (o *pbDuplicate) DeepCopyObject() Object  { return o }
func (o *pbIntKeys) DeepCopyObject() Object    { return o }
func (o *pbHalfCustom) DeepCopyObject() Object { return o }
func (o *pbNested) DeepCopyObject() Object     { return o }
func (o *pbUnexported) DeepCopyObject() Object { return o }

func TestProtobufTableErrors(t *testing.T) {
	tests := []struct {
		obj  Object
		want string
	}{
		{&pbBadTag{}, "bad field number"},
		{&pbBadWire{}, "unsupported wire type"},
		{&pbBadType{}, "unsupported type float64"},
		{&pbDuplicate{}, "field number 1 is also used by a"},
		{&pbIntKeys{}, "only string keys"},
		{&pbHalfCustom{}, "must implement ProtobufMarshaler"},
		{&pbNested{}, "unsupported element type []string"},
		{&pbUnexported{}, "unexported field"},
	}
	for _, tc := range tests {
		name := reflect.TypeOf(tc.obj).Elem().Name()
		t.Run(name, func(t *testing.T) {
			_, err := EncodeProtobuf(tc.obj)
			assert.ErrorContains(t, err, tc.want, "EncodeProtobuf(%s)", name)
			err = DecodeProtobuf(envelopeFor("", "", nil), tc.obj)
			assert.ErrorContains(t, err, tc.want, "DecodeProtobuf(%s)", name)
		})
	}
}

// pbTree is recursive, so a hostile body could nest it without bound.
type pbTree struct {
	TypeMeta
	Child *pbTree `protobuf:"bytes,1,opt,name=child"`
}

func (o *pbTree) DeepCopyObject() Object { return o }

func TestProtobufRecursiveType(t *testing.T) {
	tree := &pbTree{Child: &pbTree{Child: &pbTree{}}}
	data, err := EncodeProtobuf(tree)
	require.NoError(t, err)
	var got pbTree
	require.NoError(t, DecodeProtobuf(data, &got))
	assert.Equal(t, tree, &got)

	// Nested deeper than the limit: an error, not a stack overflow.
	var msg []byte
	for range maxProtobufDepth + 2 {
		inner := msg
		msg = protowire.AppendTag(nil, 1, protowire.BytesType)
		msg = protowire.AppendBytes(msg, inner)
	}
	assert.ErrorContains(t, DecodeProtobuf(envelopeFor("", "", msg), &got), "nested too deeply")
}

func TestEnvelopeLayout(t *testing.T) {
	data, err := EncodeProtobuf(&pbTree{TypeMeta: TypeMeta{APIVersion: "v1", Kind: "pbTree"}})
	require.NoError(t, err)
	// magic, 1: {1: "v1", 2: "pbTree"}, 2: empty object, 3: "", 4: ""
	want := []byte("k8s\x00\x0a\x0c\x0a\x02v1\x12\x06pbTree\x12\x00\x1a\x00\x22\x00")
	assert.Equal(t, want, data)
	assert.True(t, IsProtobuf(data))
	assert.False(t, IsProtobuf([]byte(`{"kind":"Pod"}`)))
}

func TestAppendLengthPrefixedLongBodies(t *testing.T) {
	for _, n := range []int{0, 1, 127, 128, 300, 16383, 16384, 70000} {
		body := strings.Repeat("x", n)
		b, err := appendLengthPrefixed([]byte("ab"), func(b []byte) ([]byte, error) { return append(b, body...), nil })
		require.NoError(t, err)
		want := protowire.AppendString([]byte("ab"), body)
		assert.Equal(t, want, b, "length %d", n)
	}
}

// envelopeFor wraps an object message the way EncodeProtobuf does.
func envelopeFor(apiVersion, kind string, raw []byte) []byte {
	var tm []byte
	tm = protowire.AppendTag(tm, 1, protowire.BytesType)
	tm = protowire.AppendString(tm, apiVersion)
	tm = protowire.AppendTag(tm, 2, protowire.BytesType)
	tm = protowire.AppendString(tm, kind)
	b := []byte("k8s\x00")
	b = protowire.AppendTag(b, 1, protowire.BytesType)
	b = protowire.AppendBytes(b, tm)
	b = protowire.AppendTag(b, 2, protowire.BytesType)
	return protowire.AppendBytes(b, raw)
}

// objectMessage returns the object message inside a body EncodeProtobuf
// wrote.
func objectMessage(t *testing.T, data []byte) []byte {
	t.Helper()
	env, err := decodeEnvelope(data)
	require.NoError(t, err)
	return env.raw
}

// FuzzDecodeProtobuf decodes arbitrary bodies into pbGadget, which has a
// field of every shape the codec handles: decoding must never panic, and
// what it accepts must re-encode to stable bytes. api/core/v1 fuzzes the
// real kinds the same way.
func FuzzDecodeProtobuf(f *testing.F) {
	full, err := EncodeProtobuf(fullGadget())
	if err != nil {
		f.Fatal(err)
	}
	zero, err := EncodeProtobuf(&pbGadget{})
	if err != nil {
		f.Fatal(err)
	}
	f.Add(full)
	f.Add(zero)
	f.Add([]byte("k8s\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		var g pbGadget
		if err := DecodeProtobuf(data, &g); err != nil {
			return
		}
		first, err := EncodeProtobuf(&g)
		if err != nil {
			t.Fatalf("EncodeProtobuf of a decoded body: %v", err)
		}
		var again pbGadget
		if err := DecodeProtobuf(first, &again); err != nil {
			t.Fatalf("DecodeProtobuf of its own encoding: %v", err)
		}
		second, err := EncodeProtobuf(&again)
		if err != nil {
			t.Fatalf("EncodeProtobuf again: %v", err)
		}
		if string(first) != string(second) {
			t.Fatalf("encoding is not stable:\n%x\n%x", first, second)
		}
	})
}
