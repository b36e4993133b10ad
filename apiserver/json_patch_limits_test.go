package apiserver_test

import (
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// TestJSONPatchTooManyOperations: a JSON patch of more than 10,000
// operations is 413, with kube-apiserver's message, before any is
// applied.
func TestJSONPatchTooManyOperations(t *testing.T) {
	s := newTestServer(t)
	s.mustDo(http.StatusCreated, "POST", configMapsPath, `{"metadata":{"name":"cm"}}`)
	ops := strings.Repeat(`{"op":"test","path":"/metadata/name","value":"cm"},`, 10001)
	patch := "[" + strings.TrimSuffix(ops, ",") + "]"
	st := s.mustDo(http.StatusRequestEntityTooLarge, "PATCH", configMapsPath+"/cm", patch,
		withHeader("Content-Type", jsonPatch)).status(t)
	assert.Equal(t, metav1.StatusReasonRequestEntityTooLarge, st.Reason)
	assert.Equal(t, "Request entity too large: The allowed maximum operations in a JSON patch is 10000, got 10001", st.Message)

	ops = strings.Repeat(`{"op":"test","path":"/metadata/name","value":"cm"},`, 10000)
	s.mustDo(http.StatusOK, "PATCH", configMapsPath+"/cm", "["+strings.TrimSuffix(ops, ",")+"]",
		withHeader("Content-Type", jsonPatch))
}

// TestJSONPatchCopiesAreBounded: copies that double a value again and
// again would build an object of gigabytes from a patch of one kilobyte;
// once they have added more than the request body limit, the patch fails
// as invalid, fast.
func TestJSONPatchCopiesAreBounded(t *testing.T) {
	s := newTestServer(t)
	s.mustDo(http.StatusCreated, "POST", configMapsPath, `{"metadata":{"name":"cm"}}`)
	ops := []string{fmt.Sprintf(`{"op":"add","path":"/metadata/annotations","value":{"a0":%q}}`, strings.Repeat("x", 64))}
	for i := range 22 {
		ops = append(ops, fmt.Sprintf(`{"op":"copy","from":"/metadata/annotations","path":"/metadata/annotations/a%d"}`, i+1))
	}
	patch := "[" + strings.Join(ops, ",") + "]"
	st := s.mustDo(http.StatusUnprocessableEntity, "PATCH", configMapsPath+"/cm", patch,
		withHeader("Content-Type", jsonPatch)).status(t)
	assert.Equal(t, metav1.StatusReasonInvalid, st.Reason)
	assert.Contains(t, st.Message, "exceeding the limit 3145728")
}

// TestJSONPatchOperationWithoutValue: an add, replace or test operation
// without the value RFC 6902 requires is a 400 saying so; a test of the
// whole document without one had panicked inside jsonpatch (a 500).
func TestJSONPatchOperationWithoutValue(t *testing.T) {
	s := newTestServer(t)
	s.mustDo(http.StatusCreated, "POST", configMapsPath, `{"metadata":{"name":"cm"}}`)
	for _, op := range []string{`{"op":"test","path":""}`, `{"op":"add","path":"/data"}`, `{"op":"replace","path":"/metadata/labels"}`} {
		st := s.mustDo(http.StatusBadRequest, "PATCH", configMapsPath+"/cm", "["+op+"]",
			withHeader("Content-Type", jsonPatch)).status(t)
		assert.Equal(t, metav1.StatusReasonBadRequest, st.Reason, op)
		assert.Contains(t, st.Message, "value", op)
	}
}
