// Package responsewriters writes objects and Status errors to HTTP
// responses in the serialization the client accepts: JSON, YAML or
// Kubernetes protobuf (see package negotiation). Every error response of
// the API server goes through WriteError, so every error a client sees is
// a Status with the right code.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/responsewriters.
package responsewriters

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/apierrors"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
)

// Media types the server speaks.
const (
	MediaTypeJSON     = "application/json"
	MediaTypeYAML     = "application/yaml"
	MediaTypeProtobuf = runtime.ContentTypeProtobuf
)

// StatusFor returns the StatusError in err's chain, or an InternalError
// wrapping err: only server faults are left without a Status by then.
func StatusFor(err error) *apierrors.StatusError {
	var se *apierrors.StatusError
	if errors.As(err, &se) {
		return se
	}
	return apierrors.NewInternalError(err)
}

// WriteError writes err as a Status in the HTTP code it carries, in the
// serialization r's Accept header asks for: a client that accepts only
// protobuf gets a protobuf Status. Accept clauses that ask for a
// transformation (as=Table, ...) are skipped, since a Status is never
// transformed; when no clause is left, the Status is written as JSON.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/responsewriters (ErrorNegotiated).
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	status := StatusFor(err).Status()
	if status.Details != nil && status.Details.RetryAfterSeconds > 0 {
		w.Header().Set("Retry-After", fmt.Sprint(status.Details.RetryAfterSeconds))
	}
	WriteObject(w, r, int(status.Code), &status)
}

// WriteObject writes obj with code in the serialization r's Accept header
// asks for, among those obj can be written in: JSON and YAML for any
// value, protobuf too for a typed runtime.Object (not a custom resource's
// unstructured object, nor a plain value such as an OpenAPI document).
// Accept clauses that ask for a transformation (as=...) are skipped. When
// no clause is left, obj is written as JSON: the resource handlers
// negotiate before they act and answer 406 themselves (see
// SerializeObject); WriteObject is for errors, which kube-apiserver
// writes as JSON then too, and for documents outside the resource
// endpoints (discovery, version).
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/responsewriters (WriteObjectNegotiated).
func WriteObject(w http.ResponseWriter, r *http.Request, code int, obj any) {
	info := negotiation.JSON
	if r != nil {
		if opts, ok := negotiation.NegotiateMediaTypeOptions(r.Header.Get("Accept"), serializersFor(obj), negotiation.DefaultEndpointRestrictions); ok {
			info = opts.Accepted
		}
	}
	SerializeObject(w, info, code, obj)
}

// serializersFor returns the serializations obj can be written in.
func serializersFor(obj any) []negotiation.SerializerInfo {
	switch obj.(type) {
	case *unstructured.Unstructured, *unstructured.UnstructuredList:
	case runtime.Object:
		return negotiation.Serializers
	}
	return []negotiation.SerializerInfo{negotiation.JSON, negotiation.YAML}
}

// SerializeObject writes obj with code in info's serialization, which
// the caller negotiated. obj must be a runtime.Object with its kind set
// for protobuf. Failing to encode is a server fault, answered with a 500
// InternalError Status as JSON rather than a half-written body.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/responsewriters (SerializeObject).
func SerializeObject(w http.ResponseWriter, info negotiation.SerializerInfo, code int, obj any) {
	data, err := Encode(info, obj)
	if err != nil {
		status := apierrors.NewInternalError(fmt.Errorf("encode response: %w", err)).Status()
		code, info = int(status.Code), negotiation.JSON
		if data, err = json.Marshal(&status); err != nil {
			http.Error(w, "encode response: "+err.Error(), http.StatusInternalServerError)
			return
		}
	}
	w.Header().Set("Content-Type", info.MediaType)
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.WriteHeader(code)
	_, _ = w.Write(data)
}

// Encode returns obj in info's serialization: encoding/json's output for
// JSON, its YAML rendering for YAML, runtime.EncodeProtobuf's (magic
// prefix and runtime.Unknown envelope) for protobuf, for which obj must
// be a runtime.Object with its kind set.
func Encode(info negotiation.SerializerInfo, obj any) ([]byte, error) {
	switch info.MediaType {
	case negotiation.Protobuf.MediaType:
		o, ok := obj.(runtime.Object)
		if !ok {
			return nil, fmt.Errorf("%T has no protobuf encoding", obj)
		}
		return runtime.EncodeProtobuf(o)
	case negotiation.YAML.MediaType:
		data, err := json.Marshal(obj)
		if err != nil {
			return nil, err
		}
		return yaml.JSONToYAML(data)
	}
	return json.Marshal(obj)
}
