package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"

	"google.golang.org/protobuf/encoding/protowire"
)

// ContentTypeProtobuf is the media type of Kubernetes protobuf, which
// client-go's typed clients (and so kubectl create namespace, deployment,
// job, configmap) send request bodies in.
const ContentTypeProtobuf = "application/vnd.kubernetes.protobuf"

// protobufMagic starts every Kubernetes protobuf body, so a server can tell
// it from JSON or YAML by its first bytes.
var protobufMagic = []byte("k8s\x00")

// The field numbers of runtime.Unknown, the envelope around the object, and
// of upstream's runtime.TypeMeta inside it, which numbers apiVersion 1 and
// kind 2: the other way round from metav1.TypeMeta, whose numbers minicp's
// TypeMeta carries in its struct tags. The envelope is written here by
// hand, so the tags never apply to it.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/generated.proto (Unknown, TypeMeta).
const (
	unknownTypeMeta        protowire.Number = 1
	unknownRaw             protowire.Number = 2
	unknownContentEncoding protowire.Number = 3
	unknownContentType     protowire.Number = 4

	typeMetaAPIVersion protowire.Number = 1
	typeMetaKind       protowire.Number = 2
)

// ProtobufMarshaler is implemented by types whose protobuf message is
// written by hand rather than derived from `protobuf` struct tags:
// metav1.Time and MicroTime (a Timestamp) and resource.Quantity (its string
// form). AppendProtobuf appends the message body, without a tag or length,
// to b and returns the extended slice; an empty body is valid.
//
// A type that implements ProtobufMarshaler must implement
// ProtobufUnmarshaler on its pointer too, and the other way round.
type ProtobufMarshaler interface {
	AppendProtobuf(b []byte) []byte
}

// ProtobufUnmarshaler is the decoding half of ProtobufMarshaler.
// UnmarshalProtobuf replaces the receiver with the message in data, which
// may be empty; it must not keep data, and must return an error rather than
// panic on any input.
type ProtobufUnmarshaler interface {
	UnmarshalProtobuf(data []byte) error
}

// EncodeProtobuf writes obj as Kubernetes protobuf: the magic "k8s\x00",
// then a runtime.Unknown whose TypeMeta is obj's kind and apiVersion and
// whose raw bytes are obj's message, laid out by the `protobuf` struct tags
// of obj's type. The bytes are the ones k8s.io/api's generated Marshal
// writes for the same object (the compat/protobuf module checks this), so
// client-go reads them; the only difference is upstream fields minicp's
// types lack, which are left out (upstream writes PodStatus.resize and
// observedGeneration even when empty). Fields without a tag, such as the
// embedded TypeMeta, are not written: the envelope carries obj's TypeMeta,
// so set it first.
//
// obj must be a non-nil pointer to a struct. EncodeProtobuf is safe for
// concurrent use.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/serializer/protobuf (Serializer.Encode).
func EncodeProtobuf(obj Object) ([]byte, error) {
	v, err := structValue(obj)
	if err != nil {
		return nil, fmt.Errorf("encode protobuf: %w", err)
	}
	mi, err := messageFor(v.Type())
	if err != nil {
		return nil, fmt.Errorf("encode protobuf %T: %w", obj, err)
	}
	tm := obj.GetTypeMeta()

	b := append([]byte(nil), protobufMagic...)
	// The Unknown's fields in number order, each written even when empty,
	// as the generated Unknown.NestedMarshalTo writes them.
	b = protowire.AppendTag(b, unknownTypeMeta, protowire.BytesType)
	b, _ = appendLengthPrefixed(b, func(b []byte) ([]byte, error) {
		b = protowire.AppendTag(b, typeMetaAPIVersion, protowire.BytesType)
		b = protowire.AppendString(b, tm.APIVersion)
		b = protowire.AppendTag(b, typeMetaKind, protowire.BytesType)
		return protowire.AppendString(b, tm.Kind), nil
	})
	b = protowire.AppendTag(b, unknownRaw, protowire.BytesType)
	if b, err = appendLengthPrefixed(b, func(b []byte) ([]byte, error) { return mi.encode(b, v) }); err != nil {
		return nil, fmt.Errorf("encode protobuf %T: %w", obj, err)
	}
	b = protowire.AppendTag(b, unknownContentEncoding, protowire.BytesType)
	b = protowire.AppendString(b, "")
	b = protowire.AppendTag(b, unknownContentType, protowire.BytesType)
	return protowire.AppendString(b, ""), nil
}

// DecodeProtobuf reads a Kubernetes protobuf body (see EncodeProtobuf) into
// into, which must be a non-nil pointer to a struct. It replaces *into
// entirely, then sets into's TypeMeta from the envelope. Field numbers the
// type does not know are skipped, as protobuf does; Kubernetes has no
// strict field validation for protobuf bodies either.
//
// It returns an error, never panics, for a body without the magic prefix, a
// truncated or malformed message, a field whose wire type does not match
// its Go type, an envelope whose kind is not into's kind (the Go type's
// name, as the Scheme registers it), or content that is compressed or in
// another content type. On error *into may be partly filled. data is not
// retained.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/serializer/protobuf (Serializer.Decode).
func DecodeProtobuf(data []byte, into Object) error {
	v, err := structValue(into)
	if err != nil {
		return fmt.Errorf("decode protobuf: %w", err)
	}
	env, err := decodeEnvelope(data)
	if err != nil {
		return fmt.Errorf("decode protobuf: %w", err)
	}
	if kind := v.Type().Name(); env.typeMeta.Kind != "" && env.typeMeta.Kind != kind {
		return fmt.Errorf("decode protobuf: body is a %q, not a %q", env.typeMeta.Kind, kind)
	}
	mi, err := messageFor(v.Type())
	if err != nil {
		return fmt.Errorf("decode protobuf %T: %w", into, err)
	}
	v.SetZero()
	if err := mi.decode(env.raw, v, 0); err != nil {
		return fmt.Errorf("decode protobuf %T: %w", into, err)
	}
	*into.GetTypeMeta() = env.typeMeta
	return nil
}

// IsProtobuf reports whether data starts with the magic prefix of a
// Kubernetes protobuf body.
func IsProtobuf(data []byte) bool { return bytes.HasPrefix(data, protobufMagic) }

// envelope is a decoded runtime.Unknown.
type envelope struct {
	typeMeta TypeMeta
	raw      []byte // aliases the input
}

// errNoMagic is the error for a body that is not Kubernetes protobuf at all.
var errNoMagic = errors.New(`body does not start with the Kubernetes protobuf prefix "k8s\x00"`)

func decodeEnvelope(data []byte) (envelope, error) {
	var env envelope
	if !IsProtobuf(data) {
		return env, errNoMagic
	}
	if len(data) == len(protobufMagic) {
		// Kubernetes rejects it too, rather than guess an empty object.
		return env, errors.New("empty body after the protobuf prefix")
	}
	var contentEncoding, contentType string
	err := walkFields(data[len(protobufMagic):], func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		if num < unknownTypeMeta || num > unknownContentType {
			return skipField(num, typ, b)
		}
		val, n, err := consumeBytes(typ, b)
		if err != nil {
			return 0, err
		}
		switch num {
		case unknownTypeMeta:
			tm, err := decodeTypeMeta(val)
			if err != nil {
				return 0, fmt.Errorf("typeMeta: %w", err)
			}
			env.typeMeta = tm
		case unknownRaw:
			env.raw = val
		case unknownContentEncoding:
			contentEncoding = string(val)
		case unknownContentType:
			contentType = string(val)
		}
		return n, nil
	})
	if err != nil {
		return env, fmt.Errorf("envelope: %w", err)
	}
	// Kubernetes writes both empty; anything else would need a decoder
	// minicp does not have, and guessing would misread the object.
	if contentEncoding != "" {
		return env, fmt.Errorf("envelope: unsupported content encoding %q", contentEncoding)
	}
	if contentType != "" && contentType != ContentTypeProtobuf {
		return env, fmt.Errorf("envelope: unsupported content type %q", contentType)
	}
	return env, nil
}

func decodeTypeMeta(data []byte) (TypeMeta, error) {
	var tm TypeMeta
	err := walkFields(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		if num != typeMetaAPIVersion && num != typeMetaKind {
			return skipField(num, typ, b)
		}
		val, n, err := consumeBytes(typ, b)
		if err != nil {
			return 0, err
		}
		if num == typeMetaAPIVersion {
			tm.APIVersion = string(val)
		} else {
			tm.Kind = string(val)
		}
		return n, nil
	})
	return tm, err
}

// structValue returns the struct obj points to, settable.
func structValue(obj any) (reflect.Value, error) {
	v := reflect.ValueOf(obj)
	if v.Kind() != reflect.Pointer || v.IsNil() || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, fmt.Errorf("%T is not a non-nil pointer to a struct", obj)
	}
	return v.Elem(), nil
}
