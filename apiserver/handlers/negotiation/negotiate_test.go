package negotiation

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestParseAccept pins goautoneg's reading of an Accept header, quirks
// included.
func TestParseAccept(t *testing.T) {
	type clause struct {
		typ, sub string
		q        float32
		params   map[string]string
	}
	tests := []struct {
		name   string
		header string
		want   []clause
	}{
		{name: "empty", header: ""},
		{name: "one", header: "application/json", want: []clause{{"application", "json", 1, nil}}},
		{name: "params and spaces", header: "application/json; as=Table ;v=v1; g=meta.k8s.io",
			want: []clause{{"application", "json", 1, map[string]string{"as": "Table", "v": "v1", "g": "meta.k8s.io"}}}},
		{name: "bare star", header: "*", want: []clause{{"*", "*", 1, nil}}},
		{name: "no subtype dropped", header: "json,application/,application/json", want: []clause{{"application", "json", 1, nil}}},
		{name: "two subtypes dropped", header: "a/b/c,a/b/", want: []clause{{"a", "b", 1, nil}}},
		{name: "valueless params dropped", header: "a/b;k;k2=;k3=x=y;k4=x=",
			want: []clause{{"a", "b", 1, map[string]string{"k4": "x"}}}},
		{name: "bad q is 0", header: "a/b;q=x", want: []clause{{"a", "b", 0, map[string]string{}}}},
		{name: "by q", header: "a/b;q=0.5,c/d,e/f;q=0.9",
			want: []clause{{"c", "d", 1, nil}, {"e", "f", 0.9, map[string]string{}}, {"a", "b", 0.5, map[string]string{}}}},
		{name: "stable among equals", header: "a/b,c/d,e/f",
			want: []clause{{"a", "b", 1, nil}, {"c", "d", 1, nil}, {"e", "f", 1, nil}}},
		{name: "wildcards last", header: "*/*,a/*,a/b",
			want: []clause{{"a", "b", 1, nil}, {"a", "*", 1, nil}, {"*", "*", 1, nil}}},
		// goautoneg's comparison puts a concrete type before a wildcard
		// whatever their q.
		{name: "concrete before a preferred wildcard", header: "*/*;q=0.8,a/b;q=0.5",
			want: []clause{{"a", "b", 0.5, map[string]string{}}, {"*", "*", 0.8, map[string]string{}}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []clause
			for _, c := range parseAccept(tc.header) {
				got = append(got, clause{c.Type, c.SubType, float32(c.Q), c.Params})
			}
			assert.Equal(t, tc.want, got, "parseAccept(%q)", tc.header)
		})
	}
}

func TestNegotiateMediaTypeOptionsDefaultRestrictions(t *testing.T) {
	tests := []struct {
		accept string
		want   SerializerInfo
		ok     bool
	}{
		{accept: "", want: JSON, ok: true},
		{accept: "*/*", want: JSON, ok: true},
		{accept: "application/*", want: JSON, ok: true},
		{accept: "application/yaml", want: YAML, ok: true},
		{accept: "application/vnd.kubernetes.protobuf", want: Protobuf, ok: true},
		{accept: "application/vnd.kubernetes.protobuf, */*", want: Protobuf, ok: true},
		// A transformation is skipped: an error is never a Table.
		{accept: "application/json;as=Table;v=v1;g=meta.k8s.io,application/yaml", want: YAML, ok: true},
		{accept: "application/vnd.kubernetes.protobuf;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json;as=PartialObjectMetadataList;g=meta.k8s.io;v=v1,application/json",
			want: JSON, ok: true},
		{accept: "application/json;as=Table;v=v1;g=meta.k8s.io"},
		{accept: "text/html"},
		// stream=watch needs a stream framing.
		{accept: "application/yaml;stream=watch,application/json;stream=watch", want: JSON, ok: true},
		{accept: "application/json;stream=other"},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			got, ok := NegotiateMediaTypeOptions(tc.accept, Serializers, DefaultEndpointRestrictions)
			require.Equal(t, tc.ok, ok, "NegotiateMediaTypeOptions(%q) ok", tc.accept)
			assert.Equal(t, tc.want, got.Accepted, "NegotiateMediaTypeOptions(%q)", tc.accept)
			assert.Nil(t, got.Convert, "NegotiateMediaTypeOptions(%q) transforms nothing", tc.accept)
		})
	}
}

func TestNegotiateOutputMediaType(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/api/v1/pods", nil)
	r.Header.Set("Accept", "text/html")
	_, err := NegotiateOutputMediaType(r, Serializers, DefaultEndpointRestrictions)
	require.Error(t, err, "NegotiateOutputMediaType(text/html)")
	assert.Equal(t, metav1.StatusReasonNotAcceptable, apierrors.ReasonForError(err), "NegotiateOutputMediaType(text/html) = %v, want 406", err)
	assert.Equal(t, "only the following media types are accepted: application/json, application/yaml, application/vnd.kubernetes.protobuf",
		messageOf(t, err), "message of the 406")
}

func TestNegotiateOutputMediaTypeStream(t *testing.T) {
	tests := []struct {
		accept  string
		want    SerializerInfo
		wantErr bool
	}{
		{accept: "", want: JSON},
		{accept: "application/json", want: JSON},
		{accept: "application/json;stream=watch", want: JSON},
		{accept: "application/vnd.kubernetes.protobuf", want: Protobuf},
		{accept: "application/vnd.kubernetes.protobuf;stream=watch", want: Protobuf},
		{accept: "application/vnd.kubernetes.protobuf,application/json", want: Protobuf},
		// The first acceptable serialization must stream: YAML does not,
		// and kube-apiserver does not look further.
		{accept: "application/yaml", wantErr: true},
		{accept: "application/yaml,application/json", wantErr: true},
		{accept: "text/html", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/pods?watch=true", nil)
			if tc.accept != "" {
				r.Header.Set("Accept", tc.accept)
			}
			got, err := NegotiateOutputMediaTypeStream(r, Serializers, DefaultEndpointRestrictions)
			if tc.wantErr {
				require.Equal(t, metav1.StatusReasonNotAcceptable, apierrors.ReasonForError(err), "NegotiateOutputMediaTypeStream(%q) = %v, want 406", tc.accept, err)
				assert.Equal(t, "only the following media types are accepted: application/json;stream=watch, application/vnd.kubernetes.protobuf;stream=watch",
					messageOf(t, err), "message of the 406 of %q", tc.accept)
				return
			}
			require.NoError(t, err, "NegotiateOutputMediaTypeStream(%q)", tc.accept)
			assert.Equal(t, tc.want, got, "NegotiateOutputMediaTypeStream(%q)", tc.accept)
		})
	}
}

func TestStreamContentType(t *testing.T) {
	assert.Equal(t, "application/json", JSON.StreamContentType())
	assert.Equal(t, "application/vnd.kubernetes.protobuf;stream=watch", Protobuf.StreamContentType())
}

func TestNegotiateInputSerializer(t *testing.T) {
	tests := []struct {
		contentType string
		want        SerializerInfo
		wantErr     bool
	}{
		{contentType: "", want: JSON},
		{contentType: "application/json", want: JSON},
		{contentType: "application/json; charset=utf-8", want: JSON},
		{contentType: "*/*", want: JSON},
		{contentType: "application/yaml", want: YAML},
		{contentType: "application/x-yaml", want: YAML},
		{contentType: "text/yaml", want: YAML},
		{contentType: "application/vnd.kubernetes.protobuf", want: Protobuf},
		{contentType: "application/merge-patch+json", wantErr: true},
		{contentType: "text/plain", wantErr: true},
		{contentType: "application/x-www-form-urlencoded", wantErr: true},
		{contentType: "not a media type", wantErr: true},
		{contentType: "application/json; charset", wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.contentType, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodPost, "/api/v1/namespaces/ns/pods", nil)
			if tc.contentType != "" {
				r.Header.Set("Content-Type", tc.contentType)
			}
			got, err := NegotiateInputSerializer(r)
			if tc.wantErr {
				require.True(t, apierrors.IsUnsupportedMediaType(err), "NegotiateInputSerializer(%q) = %v, want 415", tc.contentType, err)
				assert.Equal(t, metav1.StatusReasonUnsupportedMediaType, apierrors.ReasonForError(err))
				assert.Equal(t, "the body of the request was in an unknown format - accepted media types include: application/json, application/yaml, application/vnd.kubernetes.protobuf",
					messageOf(t, err), "message of the 415 of %q", tc.contentType)
				return
			}
			require.NoError(t, err, "NegotiateInputSerializer(%q)", tc.contentType)
			assert.Equal(t, tc.want, got, "NegotiateInputSerializer(%q)", tc.contentType)
		})
	}
}

// messageOf is the message of the Status err carries.
func messageOf(t *testing.T, err error) string {
	t.Helper()
	var se *apierrors.StatusError
	require.ErrorAs(t, err, &se, "error %v is a StatusError", err)
	return se.ErrStatus.Message
}
