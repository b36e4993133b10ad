package handlers

import (
	"encoding/binary"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// watchEncoder turns the events of one watch into the frames of its
// stream. Each event's object (the embedded object) is first turned into
// the representation the client asked for (target: itself,
// PartialObjectMetadata, or a Table whose rows are the object's), then
// encoded in the stream's serialization; the event around it is framed
// as that serialization streams:
//
//	JSON      {"type":"ADDED","object":{...}}\n
//	protobuf  4-byte big-endian length, then a metav1.WatchEvent
//	          message whose object (a RawExtension) holds the object as
//	          EncodeProtobuf writes it, "k8s\x00" and runtime.Unknown
//	          envelope included
//
// exactly as kube-apiserver's watchEncoder, with apimachinery's streaming
// encoder over the length-delimited framer, writes them.
//
// It is not safe for concurrent use: one serves one watch.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (watchEncoder, watchEmbeddedEncoder).
type watchEncoder struct {
	scope  *Scope
	r      *http.Request
	stream negotiation.SerializerInfo
	target *runtime.GroupVersionKind
	// headersSent is set once the first event has been encoded. A Table
	// watch sends the column definitions in the first event only, as
	// kube-apiserver does (TableOptions.NoHeaders from the second on):
	// kubectl get -w prints the header once.
	headersSent bool
}

// newWatchEncoder returns the encoder of a watch streamed in stream,
// with event objects turned into target (nil: the objects themselves). A
// Table watch with an ?includeObject kube-apiserver does not know is 400
// before the stream starts.
func (s *Scope) newWatchEncoder(r *http.Request, stream negotiation.SerializerInfo, target *runtime.GroupVersionKind) (*watchEncoder, error) {
	if target != nil && target.Kind == "Table" {
		switch v := r.URL.Query().Get("includeObject"); v {
		case "", "None", "Metadata", "Object":
		default:
			return nil, apierrors.NewBadRequest(fmt.Sprintf(
				`Unable to convert to Table as requested: includeObject: Unsupported value: %q: supported values: "Metadata", "None", "Object"`, v))
		}
	}
	return &watchEncoder{scope: s, r: r, stream: stream, target: target}, nil
}

// appendEvent appends ev's frame to b and returns the extended slice.
func (e *watchEncoder) appendEvent(b []byte, ev watch.Event) ([]byte, error) {
	object, err := e.embeddedObject(ev)
	if err != nil {
		return nil, err
	}
	if e.stream == negotiation.Protobuf {
		return appendProtobufWatchEvent(b, ev.Type, object)
	}
	return appendWatchEvent(b, ev.Type, object), nil
}

// embeddedObject is the encoding of ev's object. With no target, the
// encoding of a runtime.CacheableObject's object is computed once per
// format, by the first watch to send it, and shared by the others. An
// object that cannot be turned into target is sent as it is, as
// kube-apiserver sends it.
func (e *watchEncoder) embeddedObject(ev watch.Event) ([]byte, error) {
	defer func() { e.headersSent = true }()
	obj := ev.Object
	if co, ok := obj.(runtime.CacheableObject); ok {
		if e.target == nil {
			return co.CacheEncode(e.stream.MediaType, e.encodeObject)
		}
		obj = co.GetObject()
	}
	obj = e.scope.withKind(obj)
	if transformed, err := e.scope.transformObject(e.r, obj, e.target); err == nil {
		if table, ok := transformed.(*metav1.Table); ok && e.headersSent {
			table.ColumnDefinitions = nil
		}
		obj = transformed
	}
	return responsewriters.Encode(e.stream, obj)
}

// encodeObject is the encoding of a watch event's object in the stream's
// format, with its kind set.
func (e *watchEncoder) encodeObject(obj runtime.Object) ([]byte, error) {
	if e.stream == negotiation.JSON {
		return json.Marshal(e.scope.withKind(obj))
	}
	return responsewriters.Encode(e.stream, e.scope.withKind(obj))
}

// appendProtobufWatchEvent appends one frame of a protobuf watch stream
// to b: the length of the message as 4 big-endian bytes, then the
// protobuf metav1.WatchEvent{Type: typ, Object: object}, object being an
// EncodeProtobuf body.
//
// Upstream: k8s.io/apimachinery/pkg/util/framer (NewLengthDelimitedFrameWriter),
// writing what protobuf.RawSerializer encodes.
func appendProtobufWatchEvent(b []byte, typ watch.EventType, object []byte) ([]byte, error) {
	start := len(b)
	// The length goes first but is known last: room for it now, filled in
	// once the message is written after it.
	b = append(b, 0, 0, 0, 0)
	b, err := runtime.AppendProtobufRaw(b, &metav1.WatchEvent{Type: string(typ), Object: object})
	if err != nil {
		return nil, err
	}
	binary.BigEndian.PutUint32(b[start:], uint32(len(b)-start-4))
	return b, nil
}

// appendWatchEvent appends one line of the watch stream to b: the bytes
// json.Encoder writes for metav1.WatchEvent{Type: typ, Object: object}
// when object is encoding/json's output (compact, HTML-escaped), which it
// copies as it is instead of scanning it again.
//
// Upstream: k8s.io/apimachinery/pkg/runtime/serializer/streaming (Encoder.Encode).
func appendWatchEvent(b []byte, typ watch.EventType, object []byte) []byte {
	b = append(b, `{"type":`...)
	b = appendJSONString(b, string(typ))
	b = append(b, `,"object":`...)
	b = append(b, object...)
	return append(b, "}\n"...)
}

// appendJSONString appends s as encoding/json writes a string. The event
// types are plain ASCII words, written as they are; anything else goes
// through encoding/json.
func appendJSONString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 'A' || c > 'Z' {
			quoted, _ := json.Marshal(s)
			return append(b, quoted...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
