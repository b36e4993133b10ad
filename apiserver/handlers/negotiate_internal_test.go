package handlers

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// kubectlGetAccept is what `kubectl get` sends.
const kubectlGetAccept = "application/json;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1beta1;g=meta.k8s.io,application/json"

func TestNegotiate(t *testing.T) {
	tests := []struct {
		accept string
		want   output
	}{
		{accept: "", want: outputObject},
		{accept: "application/json", want: outputObject},
		{accept: "application/yaml", want: outputObject},
		{accept: "*/*", want: outputObject},
		{accept: "application/*", want: outputObject},
		{accept: "application/json;q=0.9", want: outputObject},
		{accept: "application/json, */*", want: outputObject},
		{accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", want: outputObject},
		{accept: "application/json;as=Table;v=v1;g=meta.k8s.io", want: outputTable},
		{accept: "application/json;as=Table;v=v1beta1;g=meta.k8s.io", want: outputTable},
		{accept: "application/json;g=meta.k8s.io;v=v1;as=Table", want: outputTable},
		{accept: "application/json; as=Table; v=v1; g=meta.k8s.io", want: outputTable},
		{accept: "application/yaml;as=Table;v=v1;g=meta.k8s.io", want: outputTable},
		{accept: kubectlGetAccept, want: outputTable},
		// A Table in a version we do not serve falls through to the next
		// media type.
		{accept: "application/json;as=Table;v=v2;g=meta.k8s.io,application/json", want: outputObject},
		{accept: "application/json;as=Table;v=v1;g=example.com,application/json", want: outputObject},
		{accept: "application/json;as=PartialObjectMetadata;v=v1;g=meta.k8s.io,application/json", want: outputObject},
		// Protobuf first, JSON after: JSON.
		{accept: "application/vnd.kubernetes.protobuf,application/json", want: outputObject},
		{accept: "application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io,application/json;as=Table;v=v1;g=meta.k8s.io,application/json", want: outputTable},
	}
	for _, tc := range tests {
		t.Run(tc.accept, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/pods", nil)
			if tc.accept != "" {
				r.Header.Set("Accept", tc.accept)
			}
			got, err := negotiate(r)
			require.NoError(t, err, "negotiate(Accept: %q)", tc.accept)
			assert.Equal(t, tc.want, got, "negotiate(Accept: %q)", tc.accept)
		})
	}
}

func TestNegotiateNotAcceptable(t *testing.T) {
	for _, accept := range []string{
		"application/vnd.kubernetes.protobuf",
		"application/vnd.kubernetes.protobuf;as=Table;v=v1;g=meta.k8s.io",
		"text/html",
		"application/json;as=Table;v=v2;g=meta.k8s.io",
		"application/json;as=Table",
		"application/json;as=Unknown",
	} {
		t.Run(accept, func(t *testing.T) {
			r := httptest.NewRequest(http.MethodGet, "/api/v1/pods", nil)
			r.Header.Set("Accept", accept)
			_, err := negotiate(r)
			require.Error(t, err, "negotiate(Accept: %q)", accept)
			assert.Equal(t, int32(http.StatusNotAcceptable), apierrors.CodeForError(err), "negotiate(Accept: %q)", accept)
			assert.Equal(t, metav1.StatusReasonNotAcceptable, apierrors.ReasonForError(err), "negotiate(Accept: %q)", accept)
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

func TestCheckContentType(t *testing.T) {
	tests := []struct {
		contentType  string
		wantErr      bool
		wantProtobuf bool
	}{
		{contentType: ""},
		{contentType: "application/json"},
		{contentType: "application/json; charset=utf-8"},
		{contentType: "application/yaml"},
		{contentType: "application/x-yaml"},
		{contentType: "text/yaml"},
		{contentType: "*/*"},
		{contentType: "application/vnd.kubernetes.protobuf", wantProtobuf: true},
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
			protobuf, err := checkContentType(r)
			if tc.wantErr {
				assert.True(t, apierrors.IsUnsupportedMediaType(err), "checkContentType(%q) = %v, want 415", tc.contentType, err)
				return
			}
			assert.NoError(t, err, "checkContentType(%q)", tc.contentType)
			assert.Equal(t, tc.wantProtobuf, protobuf, "checkContentType(%q) protobuf", tc.contentType)
		})
	}
}
