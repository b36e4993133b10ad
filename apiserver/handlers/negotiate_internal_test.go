package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/handlers/negotiation"
)

// Accept headers real clients send.
const (
	// kubectlGetAccept is what `kubectl get` sends.
	kubectlGetAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"
	// clientGoProtobufAccept is what client-go's typed clients send, by
	// default for built-in kinds since 1.35 (rest.Request.UseProtobufAsDefault).
	clientGoProtobufAccept = "application/vnd.kubernetes.protobuf,application/json"
	// clientGoContentTypeAccept is a rest.Config with ContentType protobuf
	// and no AcceptContentTypes.
	clientGoContentTypeAccept = "application/vnd.kubernetes.protobuf, */*"
	// clientGoJSONAccept is a rest.Config with ContentType JSON, such as
	// controller-runtime's for custom resources.
	clientGoJSONAccept = "application/json, */*"
	// metadataListAccept and metadataAccept are what client-go's metadata
	// client (k8s.io/client-go/metadata) sends for LIST, and for GET and
	// WATCH; controller-runtime's metadata-only cache uses it.
	metadataListAccept = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json"
	metadataAccept     = "application/vnd.kubernetes.protobuf;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadata;g=meta.k8s.io;v=v1,application/json"
	// browserAccept is what a browser sends.
	browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
)

// negotiated is a negotiation outcome: the serialization and the kind
// the object is turned into ("" for itself).
type negotiated struct {
	mediaType string
	as        string // Kind, "/" version when not v1
}

func outcome(opts negotiation.MediaTypeOptions) negotiated {
	n := negotiated{mediaType: opts.Accepted.MediaType}
	if c := opts.Convert; c != nil {
		n.as = c.Kind
		if c.Version != "v1" {
			n.as += "/" + c.Version
		}
	}
	return n
}

var (
	asJSON     = negotiated{mediaType: "application/json"}
	asYAML     = negotiated{mediaType: "application/yaml"}
	asProtobuf = negotiated{mediaType: "application/vnd.kubernetes.protobuf"}
)

func as(n negotiated, kind string) negotiated { n.as = kind; return n }

// TestNegotiate is the negotiation table of a resource's endpoints: the
// Accept headers clients actually send, and what kube-apiserver answers
// each with.
func TestNegotiate(t *testing.T) {
	builtin := restrictions{tables: true}
	noTables := restrictions{}
	customResource := restrictions{tables: true, customResource: true}
	tests := []struct {
		name   string
		accept string
		rs     restrictions
		want   negotiated
	}{
		{name: "no Accept", accept: "", rs: builtin, want: asJSON},
		{name: "json", accept: "application/json", rs: builtin, want: asJSON},
		{name: "yaml", accept: "application/yaml", rs: builtin, want: asYAML},
		{name: "curl", accept: "*/*", rs: builtin, want: asJSON},
		{name: "application/*", accept: "application/*", rs: builtin, want: asJSON},
		{name: "json with q", accept: "application/json;q=0.9", rs: builtin, want: asJSON},
		{name: "browser", accept: browserAccept, rs: builtin, want: asJSON},
		{name: "kubectl get", accept: kubectlGetAccept, rs: builtin, want: as(asJSON, "Table")},
		{name: "kubectl get, no printer", accept: kubectlGetAccept, rs: noTables, want: asJSON},
		{name: "kubectl get, custom resource", accept: kubectlGetAccept, rs: customResource, want: as(asJSON, "Table")},
		{name: "Table v1beta1", accept: "application/json;as=Table;v=v1beta1;g=meta.k8s.io", rs: builtin, want: as(asJSON, "Table/v1beta1")},
		{name: "Table params in any order", accept: "application/json;g=meta.k8s.io;v=v1;as=Table", rs: builtin, want: as(asJSON, "Table")},
		{name: "Table params with spaces", accept: "application/json; as=Table; v=v1; g=meta.k8s.io", rs: builtin, want: as(asJSON, "Table")},
		{name: "Table as YAML", accept: "application/yaml;as=Table;v=v1;g=meta.k8s.io", rs: builtin, want: as(asYAML, "Table")},
		// Tables are JSON or YAML only.
		{name: "Table, protobuf first", accept: "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io,application/json",
			rs: builtin, want: as(asJSON, "Table")},
		// A representation not served falls through to the next clause.
		{name: "Table v2", accept: "application/json;as=Table;v=v2;g=meta.k8s.io,application/json", rs: builtin, want: asJSON},
		{name: "Table of another group", accept: "application/json;as=Table;v=v1;g=example.com,application/json", rs: builtin, want: asJSON},
		{name: "client-go protobuf", accept: clientGoProtobufAccept, rs: builtin, want: asProtobuf},
		{name: "client-go ContentType protobuf", accept: clientGoContentTypeAccept, rs: builtin, want: asProtobuf},
		{name: "client-go JSON", accept: clientGoJSONAccept, rs: builtin, want: asJSON},
		{name: "protobuf preferred by q", accept: "application/json;q=0.5,application/vnd.kubernetes.protobuf", rs: builtin, want: asProtobuf},
		{name: "json preferred by q", accept: "application/vnd.kubernetes.protobuf;q=0.5,application/json", rs: builtin, want: asJSON},
		// goautoneg ranks a concrete type before a wildcard whatever the q.
		{name: "protobuf before a preferred wildcard", accept: "*/*;q=0.8,application/vnd.kubernetes.protobuf;q=0.5", rs: builtin, want: asProtobuf},
		{name: "metadata client list", accept: metadataListAccept, rs: builtin, want: as(asProtobuf, "PartialObjectMetadataList")},
		{name: "metadata client get/watch", accept: metadataAccept, rs: builtin, want: as(asProtobuf, "PartialObjectMetadata")},
		{name: "metadata as JSON", accept: "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io,application/json", rs: builtin, want: as(asJSON, "PartialObjectMetadata")},
		{name: "metadata list v1beta1", accept: "application/json;as=PartialObjectMetadataList;v=v1beta1;g=meta.k8s.io", rs: builtin, want: as(asJSON, "PartialObjectMetadataList/v1beta1")},
		{name: "watch stream json", accept: "application/json;stream=watch", rs: builtin, want: asJSON},
		{name: "watch stream protobuf", accept: "application/vnd.kubernetes.protobuf;stream=watch", rs: builtin, want: asProtobuf},
		{name: "yaml has no stream", accept: "application/yaml;stream=watch,application/json", rs: builtin, want: asJSON},
		// A custom resource has no protobuf of its own, but its metadata
		// does.
		{name: "custom resource, client-go protobuf", accept: clientGoProtobufAccept, rs: customResource, want: asJSON},
		{name: "custom resource, ContentType protobuf", accept: clientGoContentTypeAccept, rs: customResource, want: asJSON},
		{name: "custom resource, metadata client list", accept: metadataListAccept, rs: customResource, want: as(asProtobuf, "PartialObjectMetadataList")},
		{name: "custom resource, metadata client get", accept: metadataAccept, rs: customResource, want: as(asProtobuf, "PartialObjectMetadata")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := negotiation.NegotiateMediaTypeOptions(tc.accept, negotiation.Serializers, tc.rs)
			require.True(t, ok, "negotiate(Accept: %q, %+v)", tc.accept, tc.rs)
			assert.Equal(t, tc.want, outcome(got), "negotiate(Accept: %q, %+v)", tc.accept, tc.rs)
		})
	}
}

// TestNegotiateNotAcceptable: Accept headers a resource answers 406.
func TestNegotiateNotAcceptable(t *testing.T) {
	tests := []struct {
		accept string
		rs     restrictions
	}{
		{accept: "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io", rs: restrictions{tables: true}},
		{accept: "text/html", rs: restrictions{tables: true}},
		{accept: "application/json;as=Table;v=v2;g=meta.k8s.io", rs: restrictions{tables: true}},
		{accept: "application/json;as=Table", rs: restrictions{tables: true}},
		{accept: "application/json;as=Unknown", rs: restrictions{tables: true}},
		{accept: "application/json;as=PartialObjectMetadata", rs: restrictions{tables: true}},
		{accept: "application/json;as=Table;v=v1;g=meta.k8s.io", rs: restrictions{}},
		{accept: "application/vnd.kubernetes.protobuf", rs: restrictions{tables: true, customResource: true}},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/pods", nil)
			r.Header.Set("Accept", tc.accept)
			_, err := negotiation.NegotiateOutputMediaType(r, negotiation.Serializers, tc.rs)
			require.Error(t, err, "negotiate(Accept: %q, %+v)", tc.accept, tc.rs)
			assert.Equal(t, int32(http.StatusNotAcceptable), apierrors.CodeForError(err), "negotiate(Accept: %q)", tc.accept)
			assert.Equal(t, metav1.StatusReasonNotAcceptable, apierrors.ReasonForError(err), "negotiate(Accept: %q)", tc.accept)
		})
	}
}

func TestParseFieldValidation(t *testing.T) {
	tests := []struct {
		query   string
		want    fieldValidation
		wantErr bool
	}{
		{query: "", want: fieldValidationWarn},
		{query: "fieldValidation=", want: fieldValidationWarn},
		{query: "fieldValidation=Ignore", want: fieldValidationIgnore},
		{query: "fieldValidation=Warn", want: fieldValidationWarn},
		{query: "fieldValidation=Strict", want: fieldValidationStrict},
		{query: "fieldValidation=strict", wantErr: true},
		{query: "fieldValidation=Bogus", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/api/v1/namespaces/ns/pods?"+tc.query, nil)
			got, err := parseFieldValidation(r)
			if tc.wantErr {
				assert.True(t, apierrors.IsBadRequest(err), "parseFieldValidation(%q) = %v, want 400", tc.query, err)
				return
			}
			require.NoError(t, err, "parseFieldValidation(%q)", tc.query)
			assert.Equal(t, tc.want, got, "parseFieldValidation(%q)", tc.query)
		})
	}
}
