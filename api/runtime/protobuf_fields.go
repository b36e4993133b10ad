package runtime

import (
	"cmp"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"

	"google.golang.org/protobuf/encoding/protowire"
)

// This file turns the `protobuf:"..."` struct tags of a type into a
// messageInfo, the field table EncodeProtobuf and DecodeProtobuf walk.
//
// A tag has the form k8s.io/api's types carry, copied from there unchanged:
//
//	protobuf:"<wiretype>,<number>,<opt|rep>,name=<name>[,casttype=T][,castkey=K]"
//
// Only the number and the name are read; everything else is taken from the
// Go type, as Kubernetes' generated.proto and generated code do, because
// upstream tags carry stale words: DeleteOptions.PropagationPolicy says
// varint for a string, PodSpec.HostUsers says bytes for a bool,
// AttachedVolume.Name says rep for a string, EventSeries.Count has no
// opt/rep at all, and dozens of plain repeated fields say opt. casttype and
// castkey only rename Go types, which reflection sees anyway. Fields
// without a tag, or tagged "-", are not on the wire.
//
// How each Go type maps to the wire, matching the generated Marshal code of
// k8s.io/api (proto2, gogoproto nullable=false, stable_marshaler):
//
//	string kinds               bytes, always written (even "")
//	bool, int and uint kinds   varint (ints sign-extended), always written
//	struct                     nested message, always written (even empty)
//	ProtobufMarshaler          nested message of its own making, always written
//	*T                         T, written only when non-nil
//	[]T                        one field per element; scalars never packed
//	map[K]V                    one entry message {1: key, 2: value} per key,
//	                           in ascending key order
//	[]byte                     bytes, written when non-nil
//	json.RawMessage            message {1: raw bytes}, as RawExtension
//	map[string]any, any        message {1: JSON}, written when non-nil, as
//	                           FieldsV1 (ManagedFieldsEntry.FieldsV1)
//
// A slice field that also has the tag `protobuf_wrapped:"true"` is instead
// a message repeating the elements as its field 1, written when non-nil:
// upstream declares such a list as a named slice type of its own
// (metav1.Verbs), which minicp spells as a plain slice plus this tag.
//
// Decoding also accepts packed repeated scalars, as protobuf requires.

// valueKind is how one value, as opposed to one field, goes on the wire.
type valueKind uint8

const (
	kindString valueKind = iota + 1
	kindBytes
	kindBool
	kindInt
	kindUint
	kindMessage
	kindCustom
	kindJSON
	kindRaw
)

// valueCodec encodes and decodes values of one Go type.
type valueCodec struct {
	kind valueKind
	typ  reflect.Type
	msg  *messageInfo // kindMessage only
}

func (c valueCodec) wireType() protowire.Type {
	switch c.kind {
	case kindBool, kindInt, kindUint:
		return protowire.VarintType
	}
	return protowire.BytesType
}

// packable reports whether repeated values of c may arrive packed.
func (c valueCodec) packable() bool { return c.wireType() == protowire.VarintType }

// cardinality is how a field's Go value maps to field occurrences.
type cardinality uint8

const (
	cardSingle   cardinality = iota + 1 // one occurrence, always (see the table above for exceptions)
	cardPointer                         // one occurrence when non-nil
	cardRepeated                        // one occurrence per element
	cardWrapped                         // a message repeating the elements as field 1 (protobuf_wrapped)
	cardMap                             // one entry message per key
)

// fieldInfo is one tagged struct field.
type fieldInfo struct {
	num   protowire.Number
	name  string // the tag's name=, for error messages
	index int    // in the struct
	card  cardinality
	key   valueCodec // cardMap only
	val   valueCodec // the element for pointers, slices and maps
}

// messageInfo is the field table of one struct type. It is immutable once
// built.
type messageInfo struct {
	typ    reflect.Type
	fields []*fieldInfo // ascending by number: the order fields are written in
	byNum  map[protowire.Number]*fieldInfo
}

var (
	protobufMarshalerType   = reflect.TypeFor[ProtobufMarshaler]()
	protobufUnmarshalerType = reflect.TypeFor[ProtobufUnmarshaler]()
)

// messageCache maps a struct type to its *messageInfo: types are fixed, and
// reading tags with reflection on every request would cost more than the
// encoding itself.
var messageCache sync.Map // reflect.Type -> *messageInfo

// messageFor returns the field table of struct type t, building and caching
// it (and those of every struct type reachable from it) on first use. An
// error means a tag or a field type the codec cannot handle: a programmer
// error, reported rather than panicking so a bad type cannot take down a
// server.
func messageFor(t reflect.Type) (*messageInfo, error) {
	if mi, ok := messageCache.Load(t); ok {
		return mi.(*messageInfo), nil
	}
	b := tableBuilder{building: map[reflect.Type]*messageInfo{}}
	mi, err := b.message(t)
	if err != nil {
		return nil, err
	}
	// Publish only complete tables: a recursive type's table refers to
	// itself while it is being built.
	for typ, built := range b.building {
		messageCache.LoadOrStore(typ, built)
	}
	return mi, nil
}

// tableBuilder builds the tables of one type graph. building holds the
// tables started so far, so recursive types terminate.
type tableBuilder struct {
	building map[reflect.Type]*messageInfo
}

func (b *tableBuilder) message(t reflect.Type) (*messageInfo, error) {
	if mi, ok := messageCache.Load(t); ok {
		return mi.(*messageInfo), nil
	}
	if mi, ok := b.building[t]; ok {
		return mi, nil
	}
	if t.Kind() != reflect.Struct {
		return nil, fmt.Errorf("%s is not a struct", t)
	}
	mi := &messageInfo{typ: t, byNum: map[protowire.Number]*fieldInfo{}}
	b.building[t] = mi
	for i := range t.NumField() {
		sf := t.Field(i)
		raw, ok := sf.Tag.Lookup("protobuf")
		if !ok || raw == "-" {
			continue
		}
		if !sf.IsExported() {
			return nil, fmt.Errorf("%s.%s: unexported field has a protobuf tag", t, sf.Name)
		}
		f, err := b.field(sf, i, raw)
		if err != nil {
			return nil, fmt.Errorf("%s.%s: %w", t, sf.Name, err)
		}
		if prev, dup := mi.byNum[f.num]; dup {
			return nil, fmt.Errorf("%s.%s: field number %d is also used by %s", t, sf.Name, f.num, prev.name)
		}
		mi.byNum[f.num] = f
		mi.fields = append(mi.fields, f)
	}
	slices.SortFunc(mi.fields, func(x, y *fieldInfo) int { return cmp.Compare(x.num, y.num) })
	return mi, nil
}

// protoTag is the part of a protobuf struct tag the codec reads.
type protoTag struct {
	num  protowire.Number
	name string
}

func parseProtoTag(raw string) (protoTag, error) {
	parts := strings.Split(raw, ",")
	if len(parts) < 2 {
		return protoTag{}, fmt.Errorf("protobuf tag %q: want <wiretype>,<number>,...", raw)
	}
	switch parts[0] {
	case "varint", "bytes":
	default:
		// zigzag and fixed encodings would need the tag's wire type to be
		// trusted; no Kubernetes type minicp carries uses them.
		return protoTag{}, fmt.Errorf("protobuf tag %q: unsupported wire type %q", raw, parts[0])
	}
	num, err := strconv.ParseInt(parts[1], 10, 32)
	if err != nil || !protowire.Number(num).IsValid() {
		return protoTag{}, fmt.Errorf("protobuf tag %q: bad field number %q", raw, parts[1])
	}
	tag := protoTag{num: protowire.Number(num)}
	for _, p := range parts[2:] {
		if name, ok := strings.CutPrefix(p, "name="); ok {
			tag.name = name
		}
	}
	return tag, nil
}

func (b *tableBuilder) field(sf reflect.StructField, index int, raw string) (*fieldInfo, error) {
	tag, err := parseProtoTag(raw)
	if err != nil {
		return nil, err
	}
	f := &fieldInfo{num: tag.num, name: cmp.Or(tag.name, sf.Name), index: index}
	t := sf.Type
	// A leaf first: json.RawMessage, []byte and map[string]any are slices
	// and maps that go on the wire as one value.
	if c, ok, err := b.leaf(t); err != nil || ok {
		f.card, f.val = cardSingle, c
		return f, err
	}
	var elem reflect.Type
	switch t.Kind() {
	case reflect.Pointer:
		f.card, elem = cardPointer, t.Elem()
	case reflect.Slice:
		f.card, elem = cardRepeated, t.Elem()
		if _, ok := sf.Tag.Lookup("protobuf_wrapped"); ok {
			f.card = cardWrapped
		}
	case reflect.Map:
		f.card, elem = cardMap, t.Elem()
		key, ok, err := b.leaf(t.Key())
		if err != nil {
			return nil, err
		}
		if !ok || key.kind != kindString {
			return nil, fmt.Errorf("map %s: only string keys are supported", t)
		}
		f.key = key
	default:
		return nil, fmt.Errorf("unsupported type %s", t)
	}
	c, ok, err := b.leaf(elem)
	if err != nil {
		return nil, err
	}
	if !ok || (f.card != cardPointer && c.kind == kindJSON) {
		return nil, fmt.Errorf("unsupported element type %s", elem)
	}
	f.val = c
	return f, nil
}

// leaf returns the codec of t when t goes on the wire as one value, and
// ok=false when it is a pointer, slice or map of values instead.
func (b *tableBuilder) leaf(t reflect.Type) (c valueCodec, ok bool, err error) {
	c.typ = t
	if t.Kind() == reflect.Pointer {
		// *T has T's methods too; the caller looks at T.
		return c, false, nil
	}
	marshals := t.Implements(protobufMarshalerType)
	unmarshals := reflect.PointerTo(t).Implements(protobufUnmarshalerType)
	switch {
	case t == rawMessageType:
		c.kind = kindRaw
	case marshals && unmarshals:
		c.kind = kindCustom
	case marshals || reflect.PointerTo(t).Implements(protobufMarshalerType) || unmarshals:
		return c, false, fmt.Errorf("%s must implement ProtobufMarshaler on its value and ProtobufUnmarshaler on its pointer", t)
	case t.Kind() == reflect.Interface,
		t.Kind() == reflect.Map && t.Key().Kind() == reflect.String && t.Elem().Kind() == reflect.Interface:
		c.kind = kindJSON
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8:
		c.kind = kindBytes
	case t.Kind() == reflect.String:
		c.kind = kindString
	case t.Kind() == reflect.Bool:
		c.kind = kindBool
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		c.kind = kindInt
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uint64:
		c.kind = kindUint
	case t.Kind() == reflect.Struct:
		c.kind = kindMessage
		if c.msg, err = b.message(t); err != nil {
			return c, false, err
		}
	case t.Kind() == reflect.Slice, t.Kind() == reflect.Map:
		return c, false, nil
	default:
		return c, false, fmt.Errorf("unsupported type %s", t)
	}
	return c, true, nil
}
