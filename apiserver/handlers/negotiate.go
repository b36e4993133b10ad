package handlers

import (
	"context"
	"net/http"
	"time"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// TableConvertor renders objects as the rows `kubectl get` prints.
type TableConvertor interface {
	// ConvertToTable renders obj, a single object or a list. includeObject
	// is None, Metadata (the default) or Object: what each row carries.
	ConvertToTable(ctx context.Context, obj runtime.Object, includeObject string, now time.Time) (*metav1.Table, error)
}

// metaGroup is the group of the representations a client can ask an
// object to be turned into: Table, PartialObjectMetadata(List).
const metaGroup = "meta.k8s.io"

// restrictions is what a resource's endpoints can answer (a
// negotiation.EndpointRestrictions):
//
//   - the object itself in every serialization, except protobuf for a
//     custom resource, which has no protobuf schema: kube-apiserver
//     answers a protobuf-only Accept on one 406, and JSON when JSON is
//     accepted too;
//   - a Table of meta.k8s.io/v1 or v1beta1, as JSON or YAML only, when
//     the resource has a TableConvertor;
//   - PartialObjectMetadata or PartialObjectMetadataList of meta.k8s.io/v1
//     or v1beta1, in every serialization, custom resources included.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (RequestScope.AllowsMediaTypeTransform),
// with k8s.io/apiextensions-apiserver/pkg/apiserver's StandardSerializers.
type restrictions struct {
	tables         bool
	customResource bool
}

func (rs restrictions) AllowsMediaTypeTransform(mimeType, mimeSubType string, target *runtime.GroupVersionKind) bool {
	if target == nil {
		return !rs.customResource || mimeSubType != negotiation.Protobuf.MediaTypeSubType
	}
	if target.Group != metaGroup || (target.Version != "v1" && target.Version != "v1beta1") {
		return false
	}
	switch target.Kind {
	case "Table":
		return rs.tables && mimeType == "application" &&
			(mimeSubType == negotiation.JSON.MediaTypeSubType || mimeSubType == negotiation.YAML.MediaTypeSubType)
	case "PartialObjectMetadata", "PartialObjectMetadataList":
		return true
	}
	return false
}

func (restrictions) AllowsStreamSchema(schema string) bool { return schema == "watch" }

// restrictions returns what this scope's endpoints can answer.
func (s *Scope) restrictions() restrictions {
	_, cr := s.Store.New().(*unstructured.Unstructured)
	return restrictions{tables: s.Tables != nil, customResource: cr}
}

// negotiateOutput picks the serialization and representation of the
// answer from r's Accept header, or returns the 406 to answer instead.
// Every verb calls it before it acts, so a request whose answer the
// client could not read changes nothing.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers/negotiation (NegotiateOutputMediaType),
// called at the top of each handler.
func (s *Scope) negotiateOutput(r *http.Request) (negotiation.MediaTypeOptions, error) {
	return negotiation.NegotiateOutputMediaType(r, negotiation.Serializers, s.restrictions())
}

// writeResult writes obj, the outcome of a verb, as out says: turned into
// the representation asked for, in the serialization negotiated.
//
// Upstream: k8s.io/apiserver/pkg/endpoints/handlers (transformResponseObject).
func (s *Scope) writeResult(w http.ResponseWriter, r *http.Request, out negotiation.MediaTypeOptions, code int, obj runtime.Object) {
	result, err := s.transformObject(r, obj, out.Convert)
	if err != nil {
		responsewriters.WriteError(w, r, err)
		return
	}
	responsewriters.SerializeObject(w, out.Accepted, code, result)
}
