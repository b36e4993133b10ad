package apiserver_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFieldValidationDuplicateFields: a JSON body that sets a field twice
// is 400 under fieldValidation=Strict, a Warning per field under Warn (the
// default) and nothing under Ignore, in kube-apiserver's words, alongside
// unknown fields.
func TestFieldValidationDuplicateFields(t *testing.T) {
	const body = `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"cm","name":"cm"},"foo":1,"data":{"a":"1","a":"2"}}`
	tests := []struct {
		query    string
		code     int
		message  string
		warnings []string
	}{
		{query: "?fieldValidation=Strict", code: http.StatusBadRequest,
			message: `strict decoding error: unknown field "foo", duplicate field "metadata.name", duplicate field "data.a"`},
		{query: "?fieldValidation=Warn", code: http.StatusCreated, warnings: []string{
			`299 - "unknown field \"foo\""`, `299 - "duplicate field \"metadata.name\""`, `299 - "duplicate field \"data.a\""`}},
		{query: "", code: http.StatusCreated, warnings: []string{
			`299 - "unknown field \"foo\""`, `299 - "duplicate field \"metadata.name\""`, `299 - "duplicate field \"data.a\""`}},
		{query: "?fieldValidation=Ignore", code: http.StatusCreated},
	}
	for _, tc := range tests {
		t.Run(tc.query, func(t *testing.T) {
			s := newTestServer(t)
			r := s.mustDo(tc.code, "POST", configMapsPath+tc.query, body)
			assert.Equal(t, tc.warnings, r.header.Values("Warning"), "Warning headers")
			if tc.message != "" {
				assert.Equal(t, tc.message, r.status(t).Message)
			}
		})
	}
	s := newTestServer(t)
	s.mustDo(http.StatusCreated, "POST", configMapsPath, `{"metadata":{"name":"cm"}}`)
	r := s.mustDo(http.StatusBadRequest, "PUT", configMapsPath+"/cm?fieldValidation=Strict",
		`{"metadata":{"name":"cm","labels":{"a":"1","a":"1"}}}`)
	assert.Equal(t, `strict decoding error: duplicate field "metadata.labels.a"`, r.status(t).Message, "update")
}
