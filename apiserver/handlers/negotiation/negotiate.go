package negotiation

import (
	"mime"
	"net/http"

	"github.com/minicp/minicp/api/runtime"
)

// SerializerInfo is one serialization the server speaks.
//
// Upstream: k8s.io/apimachinery/pkg/runtime (SerializerInfo).
type SerializerInfo struct {
	// MediaType is the Content-Type of a response in it.
	MediaType string
	// MediaTypeType and MediaTypeSubType are MediaType's halves, which
	// Accept clauses are matched against.
	MediaTypeType, MediaTypeSubType string
	// Streams says the serialization has a framing for watch streams:
	// newline-delimited JSON, length-prefixed protobuf. YAML has none, so
	// a watch negotiated to YAML is 406.
	Streams bool
}

// The serializations of the API server.
var (
	JSON     = SerializerInfo{MediaType: "application/json", MediaTypeType: "application", MediaTypeSubType: "json", Streams: true}
	YAML     = SerializerInfo{MediaType: "application/yaml", MediaTypeType: "application", MediaTypeSubType: "yaml"}
	Protobuf = SerializerInfo{MediaType: runtime.ContentTypeProtobuf, MediaTypeType: "application", MediaTypeSubType: "vnd.kubernetes.protobuf", Streams: true}
)

// Serializers are the serializations the API server offers, in
// kube-apiserver's order: a client that sends no Accept header, or */*,
// gets the first.
var Serializers = []SerializerInfo{JSON, YAML, Protobuf}

// StreamContentType is the Content-Type of a watch stream in info:
// "application/json" for JSON, as kube-apiserver writes it, and the
// media type with ";stream=watch" for the others.
func (info SerializerInfo) StreamContentType() string {
	if info.MediaType == JSON.MediaType {
		return info.MediaType
	}
	return info.MediaType + ";stream=watch"
}

// MediaTypeOptions is the outcome of negotiating an Accept header: the
// serialization, and the representation asked for with the as, g and v
// parameters.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (MediaTypeOptions).
type MediaTypeOptions struct {
	// Accepted is the serialization to answer in.
	Accepted SerializerInfo
	// Convert is the kind the client asked the object to be turned into
	// (Table, PartialObjectMetadata, PartialObjectMetadataList in
	// meta.k8s.io), nil for the object itself.
	Convert *runtime.GroupVersionKind
	// Stream is the stream parameter, "watch" or "".
	Stream string
}

// EndpointRestrictions is what an endpoint can produce, asked for each
// Accept clause the server's serializations match.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (EndpointRestrictions).
type EndpointRestrictions interface {
	// AllowsMediaTypeTransform reports whether the endpoint can answer in
	// mimeType/mimeSubType with the object turned into target, or with
	// the object itself when target is nil. A false skips the clause.
	AllowsMediaTypeTransform(mimeType, mimeSubType string, target *runtime.GroupVersionKind) bool
	// AllowsStreamSchema reports whether the endpoint streams in schema
	// (the stream parameter).
	AllowsStreamSchema(schema string) bool
}

// DefaultEndpointRestrictions allow every serialization but no
// transformation: what errors (Status) and documents outside the
// resource endpoints are negotiated with.
var DefaultEndpointRestrictions EndpointRestrictions = defaultRestrictions{}

type defaultRestrictions struct{}

func (defaultRestrictions) AllowsMediaTypeTransform(_, _ string, target *runtime.GroupVersionKind) bool {
	return target == nil
}

func (defaultRestrictions) AllowsStreamSchema(schema string) bool { return schema == "watch" }

// NegotiateMediaTypeOptions returns the first of the header's clauses, in
// order of preference (see parseAccept), that one of offered matches and
// the endpoint allows, with its parameters. An empty header gets
// offered[0] as it is. It reports false when no clause is acceptable.
//
// Parameters other than as, g, v and stream (pretty, sv, profile, ...)
// are ignored.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (NegotiateMediaTypeOptions).
func NegotiateMediaTypeOptions(header string, offered []SerializerInfo, endpoint EndpointRestrictions) (MediaTypeOptions, bool) {
	if header == "" && len(offered) > 0 {
		return MediaTypeOptions{Accepted: offered[0]}, true
	}
	for _, clause := range parseAccept(header) {
		for _, info := range offered {
			if !clause.matches(info) {
				continue
			}
			if opts, ok := acceptMediaTypeOptions(clause.Params, info, endpoint); ok {
				return opts, true
			}
		}
	}
	return MediaTypeOptions{}, false
}

// acceptMediaTypeOptions reads a clause's parameters for info, and
// reports false when the endpoint cannot answer them.
func acceptMediaTypeOptions(params map[string]string, info SerializerInfo, endpoint EndpointRestrictions) (MediaTypeOptions, bool) {
	var opts MediaTypeOptions
	for k, v := range params {
		switch k {
		case "as", "g", "v":
			if opts.Convert == nil {
				opts.Convert = &runtime.GroupVersionKind{}
			}
			switch k {
			case "as":
				opts.Convert.Kind = v
			case "g":
				opts.Convert.Group = v
			case "v":
				opts.Convert.Version = v
			}
		case "stream":
			if v != "" && (!info.Streams || !endpoint.AllowsStreamSchema(v)) {
				return MediaTypeOptions{}, false
			}
			opts.Stream = v
		}
	}
	if !endpoint.AllowsMediaTypeTransform(info.MediaTypeType, info.MediaTypeSubType, opts.Convert) {
		return MediaTypeOptions{}, false
	}
	opts.Accepted = info
	return opts, true
}

// NegotiateOutputMediaType negotiates r's Accept header (see
// NegotiateMediaTypeOptions). When nothing is acceptable it returns a 406
// NotAcceptable StatusError listing offered.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (NegotiateOutputMediaType).
func NegotiateOutputMediaType(r *http.Request, offered []SerializerInfo, restrictions EndpointRestrictions) (MediaTypeOptions, error) {
	opts, ok := NegotiateMediaTypeOptions(r.Header.Get("Accept"), offered, restrictions)
	if !ok {
		return MediaTypeOptions{}, NewNotAcceptableError(r.Header.Get("Accept"), mediaTypes(offered, false))
	}
	return opts, nil
}

// NegotiateOutputMediaTypeStream returns the serialization a watch
// streams in: the one NegotiateOutputMediaType picks, which must have a
// stream framing. Otherwise (a YAML watch, even when JSON is accepted
// too) it returns a 406 NotAcceptable StatusError listing the stream
// media types, as kube-apiserver does.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (NegotiateOutputMediaTypeStream).
func NegotiateOutputMediaTypeStream(r *http.Request, offered []SerializerInfo, restrictions EndpointRestrictions) (SerializerInfo, error) {
	opts, ok := NegotiateMediaTypeOptions(r.Header.Get("Accept"), offered, restrictions)
	if !ok || !opts.Accepted.Streams {
		return SerializerInfo{}, NewNotAcceptableError(r.Header.Get("Accept"), mediaTypes(offered, true))
	}
	return opts.Accepted, nil
}

// NegotiateInputSerializer returns the serialization of r's body, read
// from its Content-Type: JSON, YAML (also under application/x-yaml and
// text/yaml, which minicp accepts besides kube-apiserver's
// application/yaml) or protobuf. A missing Content-Type, or */*, is
// JSON, whose decoder also reads YAML. Anything else is a 415
// UnsupportedMediaType StatusError.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (NegotiateInputSerializer).
func NegotiateInputSerializer(r *http.Request) (SerializerInfo, error) {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return JSON, nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil {
		return SerializerInfo{}, NewUnsupportedMediaTypeError(ct, mediaTypes(Serializers, false))
	}
	switch mt {
	case JSON.MediaType, "*/*":
		return JSON, nil
	case YAML.MediaType, "application/x-yaml", "text/yaml":
		return YAML, nil
	case Protobuf.MediaType:
		return Protobuf, nil
	}
	return SerializerInfo{}, NewUnsupportedMediaTypeError(ct, mediaTypes(Serializers, false))
}

// mediaTypes lists the media types of infos, or of those that stream,
// as watch media types.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (MediaTypesForSerializer).
func mediaTypes(infos []SerializerInfo, stream bool) []string {
	var out []string
	for _, info := range infos {
		switch {
		case !stream:
			out = append(out, info.MediaType)
		case info.Streams:
			out = append(out, info.MediaType+";stream=watch")
		}
	}
	return out
}
